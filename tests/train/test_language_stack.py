"""Rows of the per-language policy fit: answers whose only error is a citation marker stay out."""

from __future__ import annotations

import json
from pathlib import Path

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.train.language_stack import language_rows
from hallucheck.train.stack_data import _citation_only

SOURCES = [{"id": "a", "text": "Das Paket kostet 30 Euro."}, {"id": "b", "text": "Die Lieferung dauert zwei Tage."}]


def _analysis(answer: str) -> CaseAnalysis:
    return CaseAnalysis(make_case(question="Wie lange?", contexts=SOURCES, answer=answer))


def test_a_span_on_a_marker_is_a_citation_error_and_a_span_on_words_is_not() -> None:
    answer = "Die Lieferung dauert zwei Tage [a]."
    start = answer.index("[a]")
    assert _citation_only([(start, start + 3)], _analysis(answer))
    words = answer.index("zwei Tage")
    assert not _citation_only([(words, words + 9)], _analysis(answer))
    assert not _citation_only([(start, start + 3), (words, words + 9)], _analysis(answer))
    assert not _citation_only([], _analysis(answer))  # a faithful answer has no error at all


def _write(cache: Path, name: str, rows: list[dict]) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    (cache / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_citation_only_positives_are_left_out_of_the_fit_rows_only_when_asked(tmp_path: Path) -> None:
    gold = [
        {"key": "calib:1", "part": "calib", "task": "qa", "label": False, "answer_chars": 30, "citation_only": False},
        {"key": "calib:2", "part": "calib", "task": "qa", "label": True, "answer_chars": 30, "citation_only": True},
        {"key": "calib:3", "part": "calib", "task": "qa", "label": True, "answer_chars": 30, "citation_only": False},
        {"key": "dev:4", "part": "dev", "task": "qa", "label": True, "answer_chars": 30, "citation_only": True},
    ]
    _write(tmp_path, "gold", gold)
    _write(tmp_path, "ngram", [{"key": g["key"], "risk": 0.1, "flagged": False, "features": {}} for g in gold])
    kept, _ = language_rows(tmp_path, ["ngram"], "calib", citation_errors=False)
    assert [g["key"] for g in kept] == ["calib:1", "calib:3"]
    everything, feats = language_rows(tmp_path, ["ngram"], "calib")
    assert [g["key"] for g in everything] == ["calib:1", "calib:2", "calib:3"]
    assert all(f["ngram.risk"] == 0.1 for f in feats)
