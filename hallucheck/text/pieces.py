"""How many word pieces a text takes in a subword model, estimated without its tokenizer.

Why: deciding whether a text fits a model's window (a pair model reads at most 128 pieces) should
not need the tokenizer loaded; a CJK character is about one piece, other text about one piece per
four characters.
"""

from __future__ import annotations

from hallucheck.text.language import is_cjk_char

__all__ = ["pieces_estimate"]


def pieces_estimate(text: str) -> int:
    """About how many word pieces ``text`` takes (CJK characters one each, other text four characters a piece)."""
    cjk = sum(1 for c in text if is_cjk_char(c))
    return cjk + (len(text) - cjk + 3) // 4
