"""Retrieval guard (RAG detection guide): keep only chunks the retriever is confident about.

"Better to return nothing than noise": a model handed weakly related chunks fills the gaps
itself. ``filter_retrieved`` drops chunks under a relevance threshold and, when nothing
confident remains, tells the caller to fall back (ask again, search elsewhere, or abstain)
instead of generating from noise.

Retriever results come in many shapes; accepted are ``{"text"|"content", "score", "id"?}``
mappings, objects with ``text``/``page_content`` and ``score`` attributes (LangChain- and
LlamaIndex-like), and ``(text, score)`` pairs. Higher scores must mean more relevant; pass
``higher_is_better=False`` for distances.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from hallucheck.errors import InputError
from hallucheck.types import Source

__all__ = ["RetrievedChunk", "RetrievalResult", "filter_retrieved", "DEFAULT_THRESHOLD"]

DEFAULT_THRESHOLD = 0.7  # the RAG detection guide's default; scores are retriever-specific, so tune it per retriever


class RetrievedChunk(BaseModel):
    id: str
    text: str
    score: float


class RetrievalResult(BaseModel):
    """What survived the threshold, what was dropped, and whether to fall back."""

    chunks: list[RetrievedChunk] = Field(default_factory=list)
    dropped: list[RetrievedChunk] = Field(default_factory=list)
    threshold: float
    confidence: Literal["high", "low"]
    should_fallback: bool
    reason: str = ""

    @property
    def contexts(self) -> list[Source]:
        """The kept chunks as sources (ids kept), ready for ``Guard.answer`` or ``check``."""
        return [Source(id=c.id, text=c.text) for c in self.chunks]


def filter_retrieved(
    results: Iterable[Any],
    threshold: float = DEFAULT_THRESHOLD,
    *,
    higher_is_better: bool = True,
    min_chunks: int = 1,
    max_chunks: int | None = None,
) -> RetrievalResult:
    """Keep the chunks scoring above ``threshold`` (best first, at most ``max_chunks``).

    ``should_fallback`` is True when fewer than ``min_chunks`` remain. Raises InputError for a
    result without text or with a score that is not a finite number.
    """
    if min_chunks < 1:
        raise InputError("min_chunks must be at least 1")
    if max_chunks is not None and max_chunks < 1:
        raise InputError("max_chunks must be at least 1")
    chunks = [_chunk(item, i) for i, item in enumerate(results, start=1)]
    passes: Callable[[float], bool] = (lambda s: s > threshold) if higher_is_better else (lambda s: s < threshold)
    kept = [c for c in chunks if passes(c.score)]
    kept.sort(key=lambda c: c.score, reverse=higher_is_better)
    kept_ids = {id(c) for c in kept}
    dropped = [c for c in chunks if id(c) not in kept_ids]
    if max_chunks is not None and len(kept) > max_chunks:
        dropped.extend(kept[max_chunks:])
        kept = kept[:max_chunks]
    fallback = len(kept) < min_chunks
    if not chunks:
        reason = "the retriever returned nothing"
    elif fallback:
        best = max(c.score for c in chunks) if higher_is_better else min(c.score for c in chunks)
        side = "above" if higher_is_better else "below"
        reason = f"{len(kept)} of {len(chunks)} chunk(s) {side} the threshold {threshold:g} (best score {best:g})"
    else:
        reason = f"kept {len(kept)} of {len(chunks)} chunk(s)"
    return RetrievalResult(
        chunks=kept,
        dropped=dropped,
        threshold=threshold,
        confidence="low" if fallback else "high",
        should_fallback=fallback,
        reason=reason,
    )


def _chunk(item: Any, position: int) -> RetrievedChunk:
    if isinstance(item, tuple) and len(item) == 2:
        text, score, cid = item[0], item[1], None
    elif isinstance(item, Mapping):
        text = item.get("text", item.get("content", item.get("page_content")))
        score = item.get("score", item.get("similarity", item.get("relevance_score")))
        cid = item.get("id")
    else:
        text = getattr(item, "text", None) or getattr(item, "page_content", None) or getattr(item, "content", None)
        score = getattr(item, "score", None)
        cid = getattr(item, "id", None)
    if not isinstance(text, str):
        raise InputError(f"retrieved item {position}: no text (expected 'text' or 'content')")
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(float(score)):
        raise InputError(f"retrieved item {position}: score must be a finite number, got {score!r}")
    return RetrievedChunk(id=str(cid) if cid not in (None, "") else str(position), text=text, score=float(score))
