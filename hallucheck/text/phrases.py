"""Fast matching of many fixed phrases: a trie-shaped regular expression over lower-cased text.

An alternation of a hundred phrases makes the regex engine try every phrase at every position;
folding the phrases into a trie (shared prefixes written once) and matching lower-cased text
without the IGNORECASE flag is about ten times faster, which matters at hundreds of answers a
second. Latin phrases match on word boundaries; Chinese phrases (no spaces between words) match
anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hallucheck.text.language import is_cjk_char

__all__ = ["trie_pattern", "compile_phrases", "lower_keep_offsets"]


def _piece(ch: str) -> str:
    if ch.isspace():
        return r"\s+"
    if ch in "'’":
        return "['’]"
    return re.escape(ch)


def trie_pattern(phrases: Iterable[str]) -> str:
    """A regex source matching exactly the given (lower-case) phrases, prefixes shared."""
    trie: dict[str, dict] = {}  # type: ignore[type-arg]
    for p in phrases:
        node = trie
        for ch in p:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:  # type: ignore[type-arg]
        alts = [_piece(ch) + build(node[ch]) for ch in sorted(k for k in node if k)]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(trie)


def compile_phrases(phrases: Iterable[str]) -> re.Pattern[str]:
    """One pattern for lower-cased text: Latin phrases on word boundaries, Chinese ones anywhere."""
    items = sorted({" ".join(p.lower().replace("’", "'").split()) for p in phrases if p.strip()})
    latin = [p for p in items if not any(is_cjk_char(ch) for ch in p)]
    cjk = [p for p in items if any(is_cjk_char(ch) for ch in p)]
    parts = []
    if latin:
        parts.append(rf"\b(?<!\w)(?:{trie_pattern(latin)})(?!\w)")
    if cjk:
        parts.append(trie_pattern(cjk))
    return re.compile("|".join(parts) or r"(?!x)x")


def lower_keep_offsets(text: str) -> str:
    """``text.lower()``, except characters whose lower case is longer stay as they are (offsets hold)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
