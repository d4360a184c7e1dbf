"""Inputs of the right names, types and shapes for any shipped graph, to compare two sessions of it.

Why: whether two ways of loading one graph compute the same numbers (signed or unsigned int8
weights, :mod:`hallucheck.models.unsigned_weights`) is a question about the graph, not about
text; a seeded random batch that fits its inputs answers it for every graph alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["random_feeds"]


def random_feeds(session: Any, batch: int = 2, length: int = 24, seed: int = 0) -> dict[str, np.ndarray]:
    """One seeded batch for ``session``'s inputs: word-piece ids below 1000, zero token types, a
    full attention mask (any other integer input is ones) and float features in [0, 1)."""
    rng = np.random.default_rng(seed)
    feeds = {}
    for spec in session.get_inputs():
        shape = [batch if i == 0 else length if isinstance(d, str) else d for i, d in enumerate(spec.shape)]
        if "type" in spec.name:
            feeds[spec.name] = np.zeros(shape, dtype=np.int64)
        elif "ids" in spec.name:
            feeds[spec.name] = rng.integers(1, 1000, shape).astype(np.int64)
        elif "int64" in spec.type:
            feeds[spec.name] = np.ones(shape, dtype=np.int64)
        else:
            feeds[spec.name] = rng.random(shape).astype(np.float32)
    return feeds
