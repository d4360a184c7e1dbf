"""Paragraphs of Markdown and plain-text files, grouped by heading.

Markdown: ``#`` headings (and underlined ones) start sections; fenced and indented code blocks
are dropped; inline markup is reduced to its text (``[text](url)`` -> text, ``**b**`` -> b), and
inline code is remembered as a term. Sections get no anchor: the corpus reader numbers them, so that a
translated file with the same structure lines up section by section. Plain text: blank lines separate paragraphs, and a short
single line without a final stop followed by a blank line is read as a heading.
"""

from __future__ import annotations

import re

from hallucheck.synth.cleaning import clean_text
from hallucheck.synth.html_text import HtmlSection

__all__ = ["markdown_sections", "text_sections"]

_ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_CODE = re.compile(r"`([^`]+)`")
_EMPH = re.compile(r"(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1")
_LIST = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_TABLE = re.compile(r"^\s*\|")
_END = tuple(".!?:;。！？：；…\"”’)）」』")


def _inline(text: str, terms: list[str]) -> str:
    terms.extend(m.group(1).strip() for m in _CODE.finditer(text) if m.group(1).strip())
    text = _CODE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _EMPH.sub(lambda m: m.group(2), text)
    return clean_text(text)


def markdown_sections(text: str) -> list[HtmlSection]:
    """The sections of a Markdown text in order, with their paragraphs (list items count as paragraphs)."""
    sections = [HtmlSection("", "")]
    block: list[str] = []
    fenced = False

    def flush() -> None:
        if block:
            para = _inline(" \n".join(block), sections[-1].terms)
            if para:
                sections[-1].paragraphs.append(para)
            block.clear()

    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            flush()
            fenced = not fenced
            continue
        if fenced:
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        heading = _ATX.match(line)
        if heading or (line.strip() and _SETEXT.match(nxt) and not block and not _LIST.match(line)):
            flush()
            title = _inline(heading.group(2) if heading else line, [])
            sections.append(HtmlSection("", title))
            continue
        if _SETEXT.match(line) and not block:
            continue
        if not line.strip() or line.startswith(("    ", "\t")) or _TABLE.match(line):
            flush()
            continue
        if _LIST.match(line):
            flush()
            line = _LIST.sub("", line, count=1)
        block.append(line)
    flush()
    return [s for s in sections if s.paragraphs]


def text_sections(text: str) -> list[HtmlSection]:
    """The sections of a plain text: paragraphs between blank lines, short unpunctuated lines as headings."""
    sections = [HtmlSection("", "")]
    for raw in re.split(r"\n\s*\n", text):
        lines = [ln for ln in raw.splitlines() if ln.strip()]
        if not lines:
            continue
        para = clean_text("\n".join(lines))
        if len(lines) == 1 and len(para) <= 80 and not para.endswith(_END):
            sections.append(HtmlSection("", para))
            continue
        sections[-1].paragraphs.append(para)
    return [s for s in sections if s.paragraphs]
