"""The five answer-prompt strategies of the RAG prompting guide, rendered from templates shipped in the package.

A RAG answer can only be checked for grounding if we know which source each statement came
from, so every template lists the sources under the exact marker the citations detector reads
(``[1]`` / ``[source:FAQ-7]`` in English, ``[來源 1]`` in Chinese) and uses the source's real id,
never a position the model has to translate back. Templates exist in English and Traditional
Chinese (the RAG prompting guide's wording); other languages use the English template and are asked to reply in
their own language, Simplified Chinese uses the Chinese template with a simplified-script reply.

``final_answer`` recovers the part of a model's output that a user would see (the last step of a
chain-of-thought or self-reflection answer, the ``answer`` field of a structured one), which is
what gets checked and scored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from hallucheck.llm.base import Message
from hallucheck.prevent.abstention import not_found_message
from hallucheck.text.language import detect_language, normalize_language
from hallucheck.types import Source

__all__ = [
    "PromptStrategy",
    "STRATEGIES",
    "as_sources",
    "citation_marker",
    "final_answer",
    "parse_strategy",
    "prompt_language",
    "prompt_messages",
    "render_prompt",
    "reply_language",
    "template_language",
]


class PromptStrategy(str, Enum):
    """How the answer is asked for (the RAG prompting guide's five templates)."""

    BASIC = "basic"
    CHAIN_OF_THOUGHT = "chain_of_thought"
    FORCED_CITATION = "forced_citation"
    SELF_REFLECTION = "self_reflection"
    STRUCTURED = "structured"

    def __str__(self) -> str:  # "basic", not "PromptStrategy.BASIC", in reports and CLI output
        return self.value


STRATEGIES: tuple[PromptStrategy, ...] = tuple(PromptStrategy)

_ALIASES = {
    "cot": PromptStrategy.CHAIN_OF_THOUGHT,
    "chain-of-thought": PromptStrategy.CHAIN_OF_THOUGHT,
    "citation": PromptStrategy.FORCED_CITATION,
    "forced-citation": PromptStrategy.FORCED_CITATION,
    "citations": PromptStrategy.FORCED_CITATION,
    "reflection": PromptStrategy.SELF_REFLECTION,
    "self-reflection": PromptStrategy.SELF_REFLECTION,
    "json": PromptStrategy.STRUCTURED,
    "structured_output": PromptStrategy.STRUCTURED,
    "structured-output": PromptStrategy.STRUCTURED,
}

# Which template set a language uses, and the reply language named in that template's words.
_TEMPLATE_LANGUAGE = {"zh-Hant": "zh-Hant", "zh-Hans": "zh-Hant"}
_REPLY_LANGUAGE = {"de": "German", "fr": "French", "zh-Hans": "簡體中文", "zh-Hant": "繁體中文"}


def template_language(language: str) -> str:
    """Which template set serves ``language``: ``zh-Hant`` for Chinese, ``en`` for the rest."""
    return _TEMPLATE_LANGUAGE.get(normalize_language(language), "en")


def reply_language(language: str) -> str | None:
    """The reply language as named inside its template (None for English)."""
    return _REPLY_LANGUAGE.get(normalize_language(language))


def parse_strategy(value: str | PromptStrategy) -> PromptStrategy:
    """A strategy from its name or a common alias; ValueError listing the names otherwise."""
    if isinstance(value, PromptStrategy):
        return value
    key = value.strip().lower()
    try:
        return PromptStrategy(key.replace("-", "_"))
    except ValueError:
        pass
    if key in _ALIASES:
        return _ALIASES[key]
    raise ValueError(f"unknown prompt strategy {value!r} (known: {', '.join(s.value for s in STRATEGIES)})")


def as_sources(contexts: Sequence[Any]) -> list[Source]:
    """Sources from strings (ids "1", "2", ...), ``{id, text}`` mappings or Source objects.

    Mappings may say ``content`` for the text and ``source`` for the id; other keys (a
    retriever's ``score``) are ignored.
    """
    out: list[Source] = []
    for i, item in enumerate(contexts, start=1):
        if isinstance(item, Source):
            out.append(item)
        elif isinstance(item, str):
            out.append(Source(id=str(i), text=item))
        elif isinstance(item, Mapping):
            data = dict(item)
            if "text" not in data and "content" in data:
                data["text"] = data.pop("content")
            if "id" not in data and "source" in data:  # retriever results often name the id "source"
                data["id"] = data.pop("source")
            data.setdefault("id", str(i))
            out.append(Source.model_validate({k: data[k] for k in ("id", "text", "title", "parent_id") if k in data}))
        else:
            raise ValueError(f"context {i}: expected a string or an {{id, text}} object, got {type(item).__name__}")
    return out


def prompt_language(language: str | None, question: str = "", sources: Sequence[Source] = ()) -> str:
    """The case's language: the given code normalised, else detected from the question and sources."""
    if language:
        return normalize_language(language)
    sample = question if len(question) >= 12 else question + "\n" + "\n".join(s.text for s in sources[:3])
    return detect_language(sample)


def citation_marker(source_id: str, language: str = "en") -> str:
    """The marker that cites ``source_id``: ``[1]``/``[source:FAQ-7]`` in English, ``[來源 1]`` in Chinese."""
    if template_language(language) == "zh-Hant":
        return f"[來源 {source_id}]"
    return f"[{source_id}]" if source_id.isdigit() else f"[source:{source_id}]"


def render_prompt(
    strategy: PromptStrategy | str,
    question: str,
    contexts: Sequence[Any],
    language: str | None = None,
    *,
    feedback: Sequence[str] = (),
) -> str:
    """The prompt text for ``strategy``; ``feedback`` lists unsupported statements of an earlier answer."""
    strat = parse_strategy(strategy)
    sources = as_sources(contexts)
    lang = prompt_language(language, question, sources)
    tlang = template_language(lang)
    rendered_sources = [
        {"id": s.id, "text": s.text, "title": s.title or "", "marker": citation_marker(s.id, tlang)} for s in sources
    ]
    first_ids = [s.id for s in sources[:2]] or ["1"]
    variables = {
        "question": question,
        "sources": rendered_sources,
        "not_found": not_found_message(lang),
        "reply_language": reply_language(lang),
        "example_marker": citation_marker(first_ids[0], tlang),
        "example_ids": ", ".join(f'"{i}"' for i in first_ids),
        "feedback": [f for f in feedback if f.strip()],
    }
    return _render(f"strategies/{strat.value}", tlang, **variables).strip() + "\n"


def prompt_messages(
    strategy: PromptStrategy | str,
    question: str,
    contexts: Sequence[Any],
    language: str | None = None,
    *,
    feedback: Sequence[str] = (),
) -> list[Message]:
    """The prompt as chat messages (one user message: the templates carry their own role text)."""
    return [Message(role="user", content=render_prompt(strategy, question, contexts, language, feedback=feedback))]


# A heading (markdown, bold or a plain line) that introduces the last, user-facing part; text after
# a colon on the same line is an inline answer ("**Final answer:** ...").
_FINAL_HEADING = re.compile(
    r"^[ \t>#*]*(?:(?:step|schritt|étape|步驟|步骤|第[一二三四五六七八九十\d]+步)[^\n]{0,12}?)?"
    r"(?:corrected final answer|revised final answer|final answer|endgültige antwort|réponse finale|"
    r"修正與最終答案|修正与最终答案|最終回答|最終答案|最终回答|最终答案)[ \t*#]*(?:[:：](?P<inline>[^\n]*))?$",
    re.IGNORECASE | re.MULTILINE,
)


def final_answer(strategy: PromptStrategy | str, text: str) -> str:
    """The user-facing answer inside a model's raw output for ``strategy`` (the whole text if unsure)."""
    strat = parse_strategy(strategy)
    if strat is PromptStrategy.STRUCTURED:
        from hallucheck.prevent.structured_answer import parse_structured_answer  # lazy: loaded only on this path

        parsed = parse_structured_answer(text)
        return parsed.answer.strip() if parsed is not None else text.strip()
    if strat in (PromptStrategy.CHAIN_OF_THOUGHT, PromptStrategy.SELF_REFLECTION):
        for m in reversed(list(_FINAL_HEADING.finditer(text))):
            body = ((m.group("inline") or "") + text[m.end() :]).strip().strip("*").strip()
            if body:
                return body
    return text.strip()


def _render(name: str, language: str, **variables: Any) -> str:
    from hallucheck.prompts.loader import render  # lazy: loaded only on this path

    return render(name, language, **variables)
