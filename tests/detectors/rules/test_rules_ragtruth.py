"""The three rule detectors on real RAGTruth answers (train part): no crash, exact offsets."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.citations import CitationDetector
from hallucheck.detectors.rules.lexicon import LexiconDetector
from hallucheck.detectors.rules.numbers import NumbersDetector
from hallucheck.eval.split import part_of
from hallucheck.types import Case


@pytest.mark.slow
def test_rule_detectors_on_train_part_answers(ragtruth_path: Path) -> None:
    detectors = [CitationDetector(), LexiconDetector(), NumbersDetector()]
    seen = 0
    flagged = {d.name: 0 for d in detectors}
    with gzip.open(ragtruth_path, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            record = json.loads(line)
            if i % 29 or part_of(record) != "train":
                continue
            context = record["context"]
            if not isinstance(context, str):
                context = json.dumps(context, ensure_ascii=False)
            case = Case(question=record["query"] or "", contexts=[context], answer=record["output"])
            analysis = CaseAnalysis(case)
            for det in detectors:
                f = det.detect(analysis)
                assert f.error is None and 0.0 <= f.risk <= 1.0
                for s in f.spans:
                    assert case.answer[s.start : s.end] == s.text
                feats = f.features
                assert all(isinstance(v, float) and v == v for v in feats.values())
                flagged[det.name] += bool(f.flagged)
            seen += 1
            if seen >= 120:
                break
    assert seen >= 100
    # rules are alarms, not a verdict on everything: each flags well under half of the answers
    assert all(n < 0.35 * seen for n in flagged.values()), flagged
