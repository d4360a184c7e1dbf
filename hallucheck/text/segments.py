"""A piece of a text known by its character offsets, so every result can point back into it."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Segment"]


class Segment(NamedTuple):
    """``text == original[start:end]``; offsets count characters (a CJK character counts one)."""

    start: int
    end: int
    text: str
