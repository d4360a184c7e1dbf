"""Contradiction edits of RAGTruth answers labelled clean, as labelled generic records.

Only answers without any hallucination label are edited (an edit of an already wrong answer
would have two errors, one unlabelled). Each kept answer gives its original (``edit:
"original"``, ``label: false``) and up to ``per_answer`` edits of different kinds, drawn with
weights that favour the rare kinds (role swaps and cause reversals apply to few answers, entity
and number swaps to most). Every record carries the ``part`` of the project's RAGTruth split
(:mod:`hallucheck.eval.split`), so training reads ``train``, policies and thresholds ``calib``,
and only reports read ``dev``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from hallucheck.eval.split import part_of, source_key
from hallucheck.synth.contradict import CONTRADICTION_KINDS, contradict

__all__ = ["KIND_WEIGHTS", "ragtruth_edits"]

KIND_WEIGHTS: dict[str, float] = {
    "cause": 8.0, "role": 3.0, "pronoun": 4.0, "quantifier": 3.0, "date": 3.0, "antonym": 1.5,
    "negation": 1.5, "number": 1.0, "entity": 1.0,
}
_TASKS = {"qa": "qa", "summary": "summary", "data2txt": "data2txt"}


def _context_text(record: Mapping[str, Any]) -> str:
    context = record.get("context", "")
    return context if isinstance(context, str) else json.dumps(context, ensure_ascii=False)


def _weighted_sample(kinds: list[str], k: int, rng: random.Random) -> list[str]:
    chosen: list[str] = []
    pool = list(kinds)
    while pool and len(chosen) < k:
        pick = rng.choices(pool, weights=[KIND_WEIGHTS.get(x, 1.0) for x in pool])[0]
        chosen.append(pick)
        pool.remove(pick)
    return chosen


def ragtruth_edits(
    records: Iterable[Mapping[str, Any]],
    *,
    seed: int = 13,
    per_answer: int = 2,
    originals: bool = True,
    parser: Any = None,
) -> Iterator[dict[str, Any]]:
    """Generic records: for each clean answer, its original and up to ``per_answer`` edits."""
    for record in records:
        if record.get("labels"):
            continue
        answer = record.get("output")
        task = _TASKS.get(str(record.get("task_type", "")).strip().lower())
        if not isinstance(answer, str) or not answer.strip() or task is None:
            continue
        rid = str(record.get("id"))
        part = part_of(record)
        source = _context_text(record)
        base = {
            "question": record.get("query") or "",
            "contexts": [{"id": "1", "text": source}],
            "task": task,
            "language": "en",
            "part": part,
        }
        meta = {"ragtruth_id": rid, "source_key": source_key(record), "generator": "hallucheck.synth.contradict/1"}
        if originals:
            yield {"id": f"{rid}:original", **base, "answer": answer, "label": False, "spans": [],
                   "metadata": {**meta, "edit": "original"}}
        digest = hashlib.sha256(f"{seed}\x1f{rid}".encode()).hexdigest()
        rng = random.Random(int(digest[:16], 16))
        made: dict[str, Any] = {}
        for kind in CONTRADICTION_KINDS:
            got = contradict(answer, source, kind, rng, parser if kind == "role" else None)
            if got is not None:
                made[kind] = got
        for kind in _weighted_sample(sorted(made), per_answer, rng):
            got = made[kind]
            label = "contradiction" if got.type == "conflict" else "baseless"
            yield {
                "id": f"{rid}:{kind}",
                **base,
                "answer": got.text,
                "label": True,
                "spans": [{"start": got.start, "end": got.end, "label": label, "type": got.type,
                           "text": got.text[got.start : got.end]}],
                "metadata": {**meta, "edit": kind, "type": got.type},
            }
