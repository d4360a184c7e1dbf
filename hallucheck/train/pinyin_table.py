"""Build ``hallucheck/data/pinyin.txt``: the toneless pinyin reading of every CJK unified ideograph.

    python -m hallucheck.train.pinyin_table hallucheck/data/pinyin.txt

Why a table and not a run-time dependency: the name rule needs one reading per character to
compare a Latin-script name with its Chinese transliteration (:mod:`hallucheck.text.name_sounds`),
which a 100 kB table gives without loading pypinyin's dictionaries into every checker. The
readings are pypinyin's first (most common) reading (MIT licence; ``pip install pypinyin``, only
to build).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

__all__ = ["build"]


def build(out: Path) -> int:
    """Write the table (one line a syllable: the syllable, a tab, its characters); return the characters written."""
    from pypinyin import Style, pinyin  # lazy: optional extra (train), needed only to build the table

    by: dict[str, list[str]] = defaultdict(list)
    for code in range(0x4E00, 0xA000):
        ch = chr(code)
        reading = pinyin(ch, style=Style.NORMAL, heteronym=False, errors="ignore")
        if reading and reading[0] and reading[0][0].isascii() and reading[0][0].isalpha():
            by[reading[0][0].replace("ü", "v")].append(ch)
    lines = [f"{syl}\t{''.join(chars)}" for syl, chars in sorted(by.items())]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sum(len(c) for c in by.values())


if __name__ == "__main__":
    print(build(Path(sys.argv[1])), "characters")
