"""Paragraphs of an HTML page, grouped by the heading they sit under.

Documentation sites (DocBook output such as the Debian Reference, Sphinx, MkDocs) put the prose
in ``<p>`` elements and mark sections with headings that carry an anchor (``<h2><a id="x"/>..``
or ``<h2 id="x">``). Only ``<p>`` text is kept: code blocks, tables of figures, navigation and
tables of contents are not prose a RAG answer would restate. Inline ``<code>`` survives as text
and is remembered as a term, because names of commands and files are what a term swap swaps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

from hallucheck.synth.cleaning import clean_text

__all__ = ["HtmlSection", "html_sections"]

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_SKIP = {"pre", "script", "style", "nav", "head", "title"}
_SKIP_CLASSES = {"toc", "navheader", "navfooter", "list-of-tables", "list-of-figures"}
_VOID = {"br", "hr", "img", "input", "meta", "link", "col", "area", "base", "wbr", "source"}


@dataclass
class HtmlSection:
    """The paragraphs under one heading: ``anchor`` is its id ("" when it has none)."""

    anchor: str
    title: str
    paragraphs: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[HtmlSection] = [HtmlSection("", "")]
        self._stack: list[tuple[str, bool]] = []  # (tag, opened a skipped region)
        self._skip = 0
        self._heading: list[str] | None = None
        self._heading_anchor = ""
        self._para: list[str] | None = None
        self._para_depth = 0
        self._code: list[str] | None = None

    # -- structure -------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in _VOID:
            if tag == "br":
                self._text(" ")
            return
        classes = set(a.get("class", "").split())
        skip = tag in _SKIP or bool(classes & _SKIP_CLASSES)
        self._stack.append((tag, skip))
        if skip:
            self._skip += 1
            return
        if self._skip:
            return
        if tag in _HEADINGS:
            self._heading = []
            self._heading_anchor = a.get("id", "")
        elif tag == "a" and self._heading is not None and not self._heading_anchor and a.get("id"):
            self._heading_anchor = a["id"]
        elif tag == "p" and "title" not in classes:
            if self._para is None:
                self._para = []
                self._para_depth = len(self._stack)
        elif tag == "code" and self._para is not None and self._code is None:
            self._code = []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and self._heading is not None and not self._heading_anchor and a.get("id"):
            self._heading_anchor = a["id"]
        elif tag == "br":
            self._text(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        # Close up to the matching open tag (HTML in the wild is not always well nested).
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                break
        else:
            return
        while len(self._stack) > i:
            open_tag, skipped = self._stack.pop()
            if skipped:
                self._skip -= 1
            self._close(open_tag)

    def _close(self, tag: str) -> None:
        if tag in _HEADINGS and self._heading is not None:
            title = clean_text("".join(self._heading))
            self.sections.append(HtmlSection(self._heading_anchor, title))
            self._heading = None
            self._heading_anchor = ""
        elif tag == "code" and self._code is not None:
            term = clean_text("".join(self._code))
            if term:
                self.sections[-1].terms.append(term)
            self._code = None
        elif tag == "p" and self._para is not None and len(self._stack) < self._para_depth:
            text = clean_text("".join(self._para))
            if text:
                self.sections[-1].paragraphs.append(text)
            self._para = None
            self._code = None

    # -- text ------------------------------------------------------------------------------
    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self._text(data)

    def _text(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)
        elif self._para is not None:
            self._para.append(data)
            if self._code is not None:
                self._code.append(data)


def html_sections(html: str) -> list[HtmlSection]:
    """The sections of ``html`` in page order, each with its cleaned paragraphs (empty ones dropped)."""
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return [s for s in parser.sections if s.paragraphs]
