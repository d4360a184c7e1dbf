"""Edits of RAGTruth answers: only clean answers, originals kept, the project's split part."""

from __future__ import annotations

from hallucheck.eval.split import part_of
from hallucheck.synth.ragtruth_edits import ragtruth_edits


def _record(i: int, labels: list | None = None) -> dict:
    return {
        "id": str(i), "task_type": "QA", "model": "m", "query": f"Who bought Globex ({i})?",
        "context": f"Acme Corp acquired Globex in 2019 for {40 + i} million dollars. Globex had earlier bought Initech.",
        "output": f"Acme Corp acquired Globex in 2019 for {40 + i} million dollars. The deal was approved.",
        "labels": labels or [],
    }


def test_only_clean_answers_are_edited() -> None:
    records = [_record(i) for i in range(30)] + [_record(99, [{"start": 0, "end": 4, "text": "Acme", "label_type": "x"}])]
    out = list(ragtruth_edits(records, per_answer=2))
    assert not [r for r in out if r["metadata"]["ragtruth_id"] == "99"]
    originals = [r for r in out if r["metadata"]["edit"] == "original"]
    assert len(originals) == 30 and all(not r["label"] and not r["spans"] for r in originals)
    edits = [r for r in out if r["metadata"]["edit"] != "original"]
    assert 30 < len(edits) <= 60
    by_id = {r["id"]: r for r in records}
    for r in out:
        source = by_id[r["metadata"]["ragtruth_id"]]
        assert r["part"] == part_of(source) and r["contexts"] == [{"id": "1", "text": source["context"]}]
    for r in edits:
        (span,) = r["spans"]
        assert r["answer"][span["start"] : span["end"]] == span["text"] and r["label"]
        assert span["type"] in ("conflict", "baseless")
        assert span["label"] == ("contradiction" if span["type"] == "conflict" else "baseless")
    kinds = {r["metadata"]["edit"] for r in edits}
    assert len(kinds) >= 3
    assert out == list(ragtruth_edits(records, per_answer=2))
    assert out != list(ragtruth_edits(records, per_answer=2, seed=1))
    assert not [r for r in ragtruth_edits(records, originals=False) if r["metadata"]["edit"] == "original"]
