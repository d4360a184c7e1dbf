"""Calibration samples read through the Checker ``hallucheck eval`` builds."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from hallucheck.batch import CheckerSpec, checker_for
from hallucheck.calibration.checked_samples import checked_sample
from hallucheck.eval.datasets import load_dataset
from hallucheck.eval.runner import ReportPredictor


def _stump(thr: float) -> dict:
    return {"feature": [0, -2, -2], "threshold": [thr, -2.0, -2.0], "left": [1, -1, -1], "right": [2, -1, -1],
            "value": [0.0, -0.1, 0.1]}


def test_a_sample_keeps_the_verdict_eval_counts(tmp_path: Path) -> None:
    """A changed figure: the policy alone (ngram only) accepts it, the Checker's floor rejects it;
    the sample's verdict is the Checker's, as eval's, and the policy's own decision differs."""
    stage = {"detectors": ["ngram"], "features": ["ngram.risk"], "fill": [0.0], "init": -1.5, "learning_rate": 1.0,
             "platt": [1.0, 0.0], "trees": [_stump(t) for t in np.round(np.arange(0.05, 0.96, 0.05), 2)]}
    policy = tmp_path / "p.json"
    policy.write_text(json.dumps({"format": 1, "detectors": ["numbers", "ngram"],
                                  "stages": {"cheap": stage, "full": dict(stage)}, "threshold": 0.5}))
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({
        "question": "When does the shop open?",
        "contexts": ["The shop opens at 9 every morning and closes at 6 in the evening from Monday to Saturday."],
        "answer": "The shop opens at 11 every morning and closes at 6 in the evening.", "label": True}) + "\n")
    spec = CheckerSpec.of(None, str(policy), None)
    (example,) = load_dataset(str(data), "generic")
    sample = checked_sample(spec, example)
    assert sample.reported is True and sample.label is True
    assert ReportPredictor(spec).predict(example.case)["report"].hallucinated is True
    assert checker_for(spec).policy.decide(sample.analysis, sample.findings).hallucinated is False
