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
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

__all__ = ["INVISIBLE_CHARS", "OffsetMap", "strip_invisible"]

# The code point ranges cut: soft hyphen, combining grapheme joiner, Arabic letter mark, Mongolian
# variation selectors and vowel separator, zero-width space / non-joiner / joiner, left-to-right
# and right-to-left marks, bidi embeddings and overrides, word joiner and the invisible
# operators, bidi isolates and the deprecated format controls, the Hangul filler standing alone,
# variation selectors, the byte order mark (zero-width no-break space), the halfwidth Hangul
# filler; then, beyond the BMP, shorthand format controls, musical format controls, tag
# characters and the variation selectors supplement.
_BMP_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x180B, 0x180F), (0x200B, 0x200F),
               (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
               (0xFFA0, 0xFFA0))
_ASTRAL_RANGES = ((0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(chr(lo) if lo == hi else f"{chr(lo)}-{chr(hi)}" for lo, hi in ranges)


INVISIBLE_CHARS = _char_class(_BMP_RANGES + _ASTRAL_RANGES)  # one regular-expression character class
# Searched apart: a class with ranges beyond the BMP makes every character's test slower, and
# most texts hold no such character at all.
_BMP = re.compile(f"[{_char_class(_BMP_RANGES)}]")
_ASTRAL = re.compile(f"[{_char_class(_ASTRAL_RANGES)}]")


class OffsetMap:
    """Offsets into a text with some characters cut out, mapped back into the text before the cut.

    ``cuts[k]`` is the offset in the cut text where the k-th cut character stood (it stood just
    before the character now at that offset); kept as one integer array, eight bytes a cut
    character, so that even a long source full of them maps back in microseconds.

    A start offset maps past the invisible characters in front of it, an end offset stops before
    the ones after it, so a span never begins or ends on a character nobody sees; the ones inside
    it stay inside ("5\\u200b00" is the span of "500").
    """

    __slots__ = ("cuts", "length")

    def __init__(self, cuts: npt.NDArray[np.int64], length: int) -> None:
        self.cuts = cuts
        self.length = length  # of the text before the cut

    def start(self, pos: int) -> int:
        """The offset in the original text of the character at ``pos`` of the cut text."""
        return min(pos + int(self.cuts.searchsorted(pos, "right")), self.length)

    def end(self, pos: int) -> int:
        """The original offset just past the character before ``pos`` of the cut text."""
        return min(pos + int(self.cuts.searchsorted(pos, "left")), self.length)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """``[start, end)`` of the cut text as ``[start, end)`` of the original (an empty range
        stays empty, at the start's place)."""
        a = self.start(start)
        return (a, max(a, self.end(end))) if end > start else (a, a)


def _holds_invisible(text: str) -> bool:
    if text.isascii():
        return False
    if _BMP.search(text) is not None:
        return True
    # a character beyond the BMP takes two UTF-16 code units
    return len(text.encode("utf-16-le", "surrogatepass")) > 2 * len(text) and _ASTRAL.search(text) is not None


def strip_invisible(text: str) -> tuple[str, OffsetMap | None]:
    """``text`` without the characters of ``INVISIBLE_CHARS``, and the map of its offsets back
    (None, and ``text`` itself, when it holds none)."""
    if not _holds_invisible(text):
        return text, None
    import numpy as np  # lazy: heavy: numpy loads only when this path runs

    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    cut = _table()[codes]
    where = np.flatnonzero(cut)
    cuts = where - np.arange(len(where), dtype=np.int64)
    kept = codes[~cut].tobytes().decode("utf-32-le", "surrogatepass")
    return kept, OffsetMap(cuts, len(text))


@cache
def _table() -> npt.NDArray[np.bool_]:
    """Per code point, whether it is cut (1.1 MB, built on first use)."""
    import numpy as np  # lazy: heavy: numpy loads only when this path runs

    table = np.zeros(0x110000, dtype=np.bool_)
    for lo, hi in _BMP_RANGES + _ASTRAL_RANGES:
        table[lo : hi + 1] = True
    return table
