"""The project's one data split of RAGTruth train, grouped by source.

Each (task, query, context) appears with six answers written by different models; all six land
in the same part, so no source is ever seen in training and in evaluation. The split is a pure
function of the source text (a hash), so it is the same on every machine and in every run.

Parts: ``train`` (80%: fits the span tagger), ``calib`` (10%: fits and calibrates the learned
policy, chooses thresholds), ``dev`` (10%: reported numbers only).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Literal

__all__ = ["Part", "source_key", "part_of", "source_fold", "PARTS"]

Part = Literal["train", "calib", "dev"]
PARTS: tuple[str, ...] = ("train", "calib", "dev")


def source_key(record: Mapping[str, Any]) -> str:
    """A stable id of the source a RAGTruth record was written from (task + query + context)."""
    context = record.get("context", "")
    if not isinstance(context, str):
        import json  # lazy: loaded only on this path

        context = json.dumps(context, sort_keys=True, ensure_ascii=False)
    blob = "\x1f".join([str(record.get("task_type", "")), str(record.get("query", "")), context])
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()


def part_of(record: Mapping[str, Any]) -> Part:
    """Which part of the split a record belongs to (decided by its source only)."""
    bucket = int(source_key(record)[:8], 16) % 20
    if bucket < 2:
        return "dev"
    if bucket < 4:
        return "calib"
    return "train"


def source_fold(key: str, folds: int) -> int:
    """Which of ``folds`` folds a source (its :func:`source_key`) falls in.

    Why: the learned policy can learn from the train part's answers only through features of a
    tagger that never saw them, so the tagger is trained once per fold on the other folds'
    sources. The fold reads other bits of the key than :func:`part_of`, so it is independent of
    the part, and like the part it keeps the six answers of one source together.
    """
    if folds < 2:
        raise ValueError("folds must be at least 2")
    return int(key[8:16], 16) % folds
