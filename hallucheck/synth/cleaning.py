"""Whitespace clean-up of extracted text, aware of Chinese line wrapping.

Wrapped source text (HTML, Markdown) breaks lines anywhere. Between Latin words a line break is a
space; between two Chinese characters it is nothing, since Chinese writes no spaces between words,
and keeping one would put a space into every answer copied from the paragraph.
"""

from __future__ import annotations

import regex

__all__ = ["clean_text", "is_wide"]

_SPACES = regex.compile(r"\s+")
_WIDE = regex.compile(r"[\p{Han}\u3000-\u303f\uff00-\uffef]")
# Zero-width and soft-hyphen characters that HTML exporters leave in.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)


def is_wide(ch: str) -> bool:
    """A Chinese character or a full-width punctuation mark (no space is written next to these)."""
    return bool(_WIDE.match(ch))


def clean_text(text: str) -> str:
    """``text`` with invisible characters removed, white space runs collapsed to one space, and
    the space dropped where it only wrapped a line between two wide characters."""
    text = text.translate(_INVISIBLE).replace("\u00a0", " ")
    out: list[str] = []
    pos = 0
    for m in _SPACES.finditer(text):
        out.append(text[pos : m.start()])
        before = text[m.start() - 1] if m.start() > 0 else ""
        after = text[m.end()] if m.end() < len(text) else ""
        wrapped = "\n" in m.group()
        if before and after and not (wrapped and is_wide(before) and is_wide(after)):
            out.append(" ")
        pos = m.end()
    out.append(text[pos:])
    return "".join(out).strip()
