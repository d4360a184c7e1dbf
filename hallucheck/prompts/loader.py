"""Render the package's jinja2 prompt templates by name and language.

Why files and not strings in code: prompts are the part users tune most, they are translated,
and reviewers read them as text. A template ``judge/claims`` lives in
``hallucheck/prompts/judge/claims.<language>.jinja``; :func:`render` tries the exact language
(``zh-Hant``), then its base (``zh``), then English, so a new language or a new template family
(e.g. ``strategies/...``) needs nothing but files. Templates may ``{% include %}`` one another by
file path inside the package (``{% include "strategies/_sources.en.jinja" %}``). Templates are read with importlib.resources,
so they work from wheels and zip installs.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from hallucheck.errors import HallucheckError

__all__ = ["PromptNotFound", "render", "template_languages", "available_prompts", "candidates"]

_PACKAGE = "hallucheck.prompts"
_SUFFIX = ".jinja"


class PromptNotFound(HallucheckError, LookupError):
    """No template file for that name in any of the tried languages."""


def candidates(language: str | None) -> list[str]:
    """Languages tried in order: exact, base language, English."""
    out: list[str] = []
    lang = (language or "en").strip()
    for cand in (lang, lang.split("-")[0].split("_")[0].lower(), "en"):
        if cand and cand not in out:
            out.append(cand)
    return out


def _file(name: str, language: str) -> Any:
    parts = [p for p in name.strip("/").split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        raise PromptNotFound(f"bad prompt name {name!r}")
    node = resources.files(_PACKAGE)
    for p in parts[:-1]:
        node = node.joinpath(p)
    return node.joinpath(f"{parts[-1]}.{language}{_SUFFIX}")


@lru_cache(maxsize=256)
def _source(name: str, language: str) -> str | None:
    f = _file(name, language)
    return f.read_text(encoding="utf-8") if f.is_file() else None


def _load_path(path: str) -> str | None:
    """A template by its file path inside the package (what ``{% include %}`` names)."""
    stem, _, rest = path.rpartition("/")
    base = rest[: -len(_SUFFIX)] if rest.endswith(_SUFFIX) else rest
    name, _, language = base.partition(".")
    if not name or not language:
        return None
    return _source(f"{stem}/{name}" if stem else name, language)


@lru_cache(maxsize=1)
def _env() -> Any:
    import jinja2  # lazy: heavy: jinja2 loads only when this path runs

    return jinja2.Environment(
        loader=jinja2.FunctionLoader(_load_path),
        undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def _compiled(name: str, language: str) -> Any:
    return _env().get_template(f"{name.strip('/')}.{language}{_SUFFIX}")


def resolve_language(name: str, language: str | None) -> str:
    """The language whose file will be used for ``name``."""
    for lang in candidates(language):
        if _source(name, lang) is not None:
            return lang
    raise PromptNotFound(f"no prompt template {name!r} (tried {', '.join(candidates(language))})")


def render(name: str, language: str | None = "en", /, **variables: Any) -> str:
    """The text of template ``name`` in ``language`` (falling back to English) with ``variables``.
    A variable the template uses but was not given raises jinja2.UndefinedError."""
    lang = resolve_language(name, language)
    return str(_compiled(name, lang).render(**variables)).strip() + "\n"


def template_languages(name: str) -> list[str]:
    """Languages available for ``name``."""
    parts = name.strip("/").split("/")
    node = resources.files(_PACKAGE)
    for p in parts[:-1]:
        node = node.joinpath(p)
    prefix = parts[-1] + "."
    if not node.is_dir():
        return []
    return sorted(
        f.name[len(prefix) : -len(_SUFFIX)] for f in node.iterdir() if f.name.startswith(prefix) and f.name.endswith(_SUFFIX)
    )


def available_prompts() -> list[str]:
    """All template names (``family/name``) shipped in the package."""
    out: set[str] = set()

    def walk(node: Any, prefix: str) -> None:
        for f in node.iterdir():
            if f.is_dir() and not f.name.startswith("__"):
                walk(f, f"{prefix}{f.name}/")
            elif f.name.endswith(_SUFFIX):
                out.add(prefix + f.name[: -len(_SUFFIX)].rsplit(".", 1)[0])

    walk(resources.files(_PACKAGE), "")
    return sorted(out)
