"""Drafts joined into one answer, and citation markers put into a draft sentence.

Why apart from the case writer: where a marker goes (before a sentence's final stop and closing
quotes) and how sentences join (a space in the Latin scripts, none in Chinese) are rules of
writing, the same for every kind of case the writer makes.
"""

from __future__ import annotations

from collections.abc import Sequence

from hallucheck.synth.draft import Draft, LabelledSpan
from hallucheck.text.language import is_chinese

__all__ = ["join_drafts", "marker_position", "put_marker"]

_ENDS = ".!?。！？"
_CLOSERS = "\"'”’」』)）"


def join_drafts(pieces: Sequence[Draft], language: str) -> Draft:
    """One draft of the pieces in order, separated as the language writes sentences."""
    zh = is_chinese(language)
    out = Draft("")
    for k, piece in enumerate(pieces):
        if k and out.text:
            if marker_position(out.text)[0] == len(out.text) and not out.text.endswith(("]", "】")):
                out.text += "。" if zh else "."  # a list item without a stop, followed by another sentence
            if not zh:
                out.text += " "
        base = len(out.text)
        out.text += piece.text
        out.spans.extend(LabelledSpan(s.start + base, s.end + base, s.label) for s in piece.spans)
    return out


def marker_position(text: str) -> tuple[int, bool]:
    """Where a citation marker goes in a sentence (before its final stop) and whether a space precedes it."""
    end = len(text)
    while end > 0 and text[end - 1] in _CLOSERS:
        end -= 1
    if end > 0 and text[end - 1] in _ENDS:
        end -= 1
        while end > 0 and text[end - 1] in _ENDS:
            end -= 1
    return end, end > 0 and not text[end - 1].isspace()


def put_marker(piece: Draft, marker: str, language: str, label: str | None = None) -> None:
    """Put ``marker`` into the sentence ``piece`` (labelled when ``label`` is given)."""
    pos, space = marker_position(piece.text)
    lead = " " if space and not is_chinese(language) else ""
    piece.insert(pos, lead)
    piece.insert(pos + len(lead), marker, label)
