"""Citation styles of generated cases: how sources are named and how an answer cites them.

Each style is one a RAG prompt asks for and the citations detector reads: ``[1]``,
``[Source 1]`` (``[Quelle 1]``, ``[来源 1]``, ``[來源 1]``), ``【1】``, ``[DOC-001]``,
``[source:doc-a]`` and letter ids ``[a]``. A style also makes ids that no source has, for the
invalid-citation cases (the next numbers or letters after the last source).
"""

from __future__ import annotations

from dataclasses import dataclass

from hallucheck.synth.lexicon import CITATION_WORD

__all__ = ["STYLES", "STYLE_WEIGHTS", "CitationStyle", "style_named"]

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class CitationStyle:
    """One way of naming sources and citing them."""

    name: str

    def source_id(self, index: int) -> str:
        """The id of the ``index``-th source (0-based)."""
        if self.name == "doc_id":
            return f"DOC-{index + 1:03d}"
        if self.name == "source_colon":
            return f"doc-{_LETTERS[index % 26]}"
        if self.name == "letter":
            return _LETTERS[index % 26]
        return str(index + 1)

    def marker(self, source_id: str, language: str) -> str:
        """The marker citing ``source_id`` in an answer written in ``language``."""
        if self.name == "source_word":
            return f"[{CITATION_WORD.get(language, 'Source')} {source_id}]"
        if self.name == "lenticular":
            return f"【{source_id}】"
        if self.name == "source_colon":
            return f"[source:{source_id}]"
        return f"[{source_id}]"

    def missing_id(self, n_sources: int, step: int) -> str:
        """An id no source has: the one ``step`` (>= 1) places after the last of ``n_sources``."""
        return self.source_id(n_sources - 1 + step)


STYLES: tuple[CitationStyle, ...] = tuple(
    CitationStyle(n) for n in ("number", "source_word", "lenticular", "doc_id", "source_colon", "letter")
)
# How often each style is drawn: plain numbers are by far the most common in RAG answers.
STYLE_WEIGHTS: tuple[int, ...] = (5, 3, 1, 2, 2, 1)


def style_named(name: str) -> CitationStyle:
    """The style called ``name``."""
    for style in STYLES:
        if style.name == name:
            return style
    raise KeyError(name)
