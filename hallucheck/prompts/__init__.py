"""Prompt templates (jinja2 files in this package), rendered by language with English fallback."""

from hallucheck.prompts.loader import PromptNotFound, available_prompts, render, template_languages

__all__ = ["PromptNotFound", "available_prompts", "render", "template_languages"]
