"""Trimming an LRU cache bounded both by entries and by the characters its keys stand for.

The shared source caches (source analyses, the tagger's source views) keep what was built from a
source; what that costs grows with the source's length, not with the number of entries, so a
count alone let a few long sources hold hundreds of MB.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

__all__ = ["trim"]

K = TypeVar("K")
V = TypeVar("V")


def trim(cache: OrderedDict[K, V], max_items: int, max_chars: int, chars_of: Callable[[K], int]) -> None:
    """Drop the least recently used entries until at most ``max_items`` remain and their keys
    stand for at most ``max_chars`` characters; the newest entry always stays, whatever its length.
    The caller holds the cache's lock. The total is counted afresh (a few hundred lengths, against
    the milliseconds of building an entry): no running total to fall out of step when someone
    clears the cache."""
    chars = sum(chars_of(k) for k in cache)
    while len(cache) > 1 and (len(cache) > max_items or chars > max_chars):
        old, _ = cache.popitem(last=False)
        chars -= chars_of(old)
