"""Characters nobody sees, cut out of a text, with a map from the cut text's offsets back.

Text copied from web pages carries characters that draw nothing: zero-width spaces and joiners
(U+200B..U+200D, U+2060, U+FEFF), bidirectional controls (U+200E/F, U+202A..U+202E,
U+2066..U+2069), soft hyphens (U+00AD), variation selectors, tag characters and the like. A
reader sees "500" and "France" where the text holds "5\\u200b00" and "Fran\\u00adce"; a tokenizer
sees two pieces, so a faithful answer looks as if it named figures and names the sources lack.
Detectors therefore read the text with these characters removed (``strip_invisible``), and every
offset they report is mapped back into the text as written (``OffsetMap``).

Only characters that are default-ignorable in Unicode and carry no letter of their own are cut:
Hangul fillers inside jamo sequences and Khmer inherent vowels stay, and so do visible spaces
(no-break, thin, narrow no-break), which the tokenizers already read as spaces.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right

__all__ = ["INVISIBLE_CHARS", "OffsetMap", "strip_invisible"]

# One character class: soft hyphen, combining grapheme joiner, Arabic letter mark, Mongolian
# variation selectors and vowel separator, zero-width space / non-joiner / joiner, left-to-right
# and right-to-left marks, bidi embeddings and overrides, word joiner and the invisible
# operators, bidi isolates and the deprecated format controls, the Hangul filler standing alone,
# variation selectors, the byte order mark (zero-width no-break space), the halfwidth Hangul
# filler, shorthand format controls, musical format controls, tag characters and the variation
# selectors supplement.
INVISIBLE_CHARS = (
    "\u00ad\u034f\u061c\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
_RUN = re.compile(f"[{INVISIBLE_CHARS}]+")


class OffsetMap:
    """Offsets into a text with runs of characters cut out, mapped back into the text before the cut.

    ``cuts[k]`` is the offset in the cut text where the k-th run was removed (the run stood just
    before that character) and ``removed[k]`` how many characters runs 0..k removed in all. Kept
    as integer arrays, so that a long source with many runs costs 16 bytes a run.

    A start offset maps past the invisible characters in front of it, an end offset stops before
    the ones after it, so a span never begins or ends on a character nobody sees; the ones inside
    it stay inside ("5\\u200b00" is the span of "500").
    """

    __slots__ = ("cuts", "removed", "length")

    def __init__(self, cuts: array[int], removed: array[int], length: int) -> None:
        self.cuts = cuts
        self.removed = removed
        self.length = length  # of the text before the cut

    def start(self, pos: int) -> int:
        """The offset in the original text of the character at ``pos`` of the cut text."""
        k = bisect_right(self.cuts, pos)
        return min(pos + (self.removed[k - 1] if k else 0), self.length)

    def end(self, pos: int) -> int:
        """The original offset just past the character before ``pos`` of the cut text."""
        k = bisect_left(self.cuts, pos)
        return min(pos + (self.removed[k - 1] if k else 0), self.length)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """``[start, end)`` of the cut text as ``[start, end)`` of the original (an empty range
        stays empty, at the start's place)."""
        a = self.start(start)
        return (a, max(a, self.end(end))) if end > start else (a, a)


def strip_invisible(text: str) -> tuple[str, OffsetMap | None]:
    """``text`` without the characters of ``INVISIBLE_CHARS``, and the map of its offsets back
    (None, and ``text`` itself, when it holds none)."""
    first = _RUN.search(text)
    if first is None:
        return text, None
    parts: list[str] = []
    cuts: array[int] = array("q")
    removed: array[int] = array("q")
    pos = total = 0
    for m in _RUN.finditer(text, first.start()):
        parts.append(text[pos : m.start()])
        cuts.append(m.start() - total)
        total += m.end() - m.start()
        removed.append(total)
        pos = m.end()
    parts.append(text[pos:])
    return "".join(parts), OffsetMap(cuts, removed, len(text))
