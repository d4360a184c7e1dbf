"""The shared LRU trimming of the source caches."""

from __future__ import annotations

from collections import OrderedDict

from hallucheck.lru import trim


def test_trim_drops_the_oldest_until_both_bounds_hold() -> None:
    cache: OrderedDict[str, int] = OrderedDict((k, i) for i, k in enumerate(["aaaa", "bb", "cccccc", "d"]))
    trim(cache, max_items=3, max_chars=8, chars_of=len)
    assert list(cache) == ["cccccc", "d"]  # "aaaa" goes for the count, "bb" for the characters
    trim(cache, max_items=3, max_chars=100, chars_of=len)
    assert list(cache) == ["cccccc", "d"]


def test_trim_keeps_the_newest_entry_whatever_its_length() -> None:
    cache: OrderedDict[str, int] = OrderedDict([("ab", 0), ("x" * 50, 1)])
    trim(cache, max_items=10, max_chars=5, chars_of=len)
    assert list(cache) == ["x" * 50]
