"""The n-gram novelty guide's dataset mode: RAGTruth-style and generic JSONL in, one result line per record out."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from hallucheck.errors import InputError
from hallucheck.eval.ngram_dataset import process_dataset, record_to_case

APPLE = "The Apple company acquired Company B in 2024."


def write(path: Path, rows: list[object]) -> Path:
    text = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n"
    if path.suffix == ".gz":
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            fh.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def read(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


ROWS: list[object] = [
    {"id": "r1", "task_type": "QA", "query": "Who bought B?", "context": APPLE, "output": "Tesla launched new cars."},
    {"id": "r2", "task_type": "Summary", "query": "Summarise", "context": APPLE,
     "output": "The Apple company acquired Company B in 2024."},
    {"id": "g1", "question": "Who?", "contexts": [APPLE, "Other text."], "answer": "Apple acquired Company B in 2024."},
    "{not json",
    {"id": "bad", "question": "q", "answer": "no sources here"},
]


def test_ragtruth_and_generic_records(tmp_path: Path) -> None:
    src = write(tmp_path / "in.jsonl", ROWS)
    out = tmp_path / "out.jsonl"
    counts = process_dataset(src, out)
    assert counts == {"records": 5, "detected": 1, "errors": 2}
    results = read(out)
    assert [r.get("id") for r in results[:3]] == ["r1", "r2", "g1"]
    r1 = results[0]
    assert r1["detected"] is True and r1["task"] == "qa" and r1["threshold"] == 0.3
    detail = r1["details"][0]  # type: ignore[index]
    assert detail["sentence"] == "Tesla launched new cars."
    assert detail["novelty_ratio"] == 1.0 and detail["new_ngrams_count"] == 7
    assert "tesla" in detail["novel_ngrams_sample"]
    assert results[1]["detected"] is False and results[1]["task"] == "summary"
    assert results[2]["detected"] is False
    assert results[3] == {"line": 4, "error": results[3]["error"]} and "JSON" in str(results[3]["error"])
    assert "sources" in str(results[4]["error"])


def test_per_n_thresholds_and_gzip(tmp_path: Path) -> None:
    rows = [{"id": "x", "question": "q", "contexts": ["frap zorb quix blen."], "answer": "zorb quix blen frap."}]
    src = write(tmp_path / "in.jsonl.gz", rows)
    strict = tmp_path / "strict.jsonl"
    assert process_dataset(src, strict, ngram_sizes=(1, 2), thresholds={1: 0.3, 2: 0.2})["detected"] == 1
    assert read(strict)[0]["details"][0]["per_n"] == {"1": 0.0, "2": pytest.approx(1 / 3, abs=1e-4)}  # type: ignore[index]
    loose = tmp_path / "loose.jsonl"
    assert process_dataset(src, loose, thresholds={1: 0.5, 2: 0.4})["detected"] == 0
    # Without per-n thresholds the pooled novelty (1/7) meets the task threshold (0.4): not detected.
    assert process_dataset(src, tmp_path / "pooled.jsonl")["detected"] == 0
    assert process_dataset(src, tmp_path / "tasks.jsonl", task_thresholds={"generic": 0.1})["detected"] == 1


def test_missing_input_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        process_dataset(tmp_path / "nope.jsonl", tmp_path / "out.jsonl")


def test_record_to_case_accepts_structured_context() -> None:
    case = record_to_case({"question": "q", "context": {"name": "Cafe Roma"}, "answer": "Cafe Roma."})
    assert "Cafe Roma" in case.contexts[0].text
    with pytest.raises(InputError):
        record_to_case({"question": "q", "contexts": ["x"]})
