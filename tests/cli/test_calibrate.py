"""``hallucheck calibrate`` end to end on small labelled data, and ``--policy POLICY.json`` after it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cli_fakes import write_jsonl

SOURCE = "The shop opens at nine every morning and closes at six in the evening from Monday to Saturday."


def _stump(thr: float) -> dict:
    return {"feature": [0, -2, -2], "threshold": [thr, -2.0, -2.0], "left": [1, -1, -1], "right": [2, -1, -1],
            "value": [0.0, -0.1, 0.1]}


@pytest.fixture
def base_policy(tmp_path: Path) -> Path:
    """A learned policy over the ngram detector alone, with its threshold far too high."""
    stage = {"detectors": ["ngram"], "features": ["ngram.risk"], "fill": [0.0], "init": -1.5, "learning_rate": 1.0,
             "platt": [1.0, 0.0], "trees": [_stump(t) for t in np.round(np.arange(0.05, 0.96, 0.05), 2)]}
    spec = {"format": 1, "detectors": ["ngram"], "stages": {"cheap": stage, "full": dict(stage)}, "threshold": 0.9}
    path = tmp_path / "base.json"
    path.write_text(json.dumps(spec))
    return path


@pytest.fixture
def labelled(tmp_path: Path) -> Path:
    rows = []
    for i in range(60):
        bad = i % 3 == 0
        answer = (f"The shop sells {i} kinds of green bicycles imported from Norway." if bad
                  else "The shop opens at nine every morning and closes at six in the evening.")
        rows.append({"question": f"When does shop {i} open?", "contexts": [SOURCE + f" Shop number {i}."],
                     "answer": answer, "label": bad, "task": "qa"})
    return write_jsonl(tmp_path / "labelled.jsonl", rows)


def test_calibrate_prints_before_and_after_and_writes_a_usable_policy(
    invoke, labelled: Path, base_policy: Path, tmp_path: Path  # type: ignore[no-untyped-def]
) -> None:
    out = tmp_path / "policy.json"
    proc = invoke("calibrate", str(labelled), "--policy", str(base_policy), "--out", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    assert "before" in proc.stdout and "after" in proc.stdout and "F1" in proc.stdout
    spec = json.loads(out.read_text())
    cal = spec["calibration"]
    assert cal["answers"] == 60 and cal["hallucinated"] == 20 and cal["format"] == "generic"
    assert cal["before"]["recall"] < 1.0 and cal["after"]["f1"] == 1.0  # the base threshold missed some
    assert spec["threshold"] < 0.9
    proc = invoke("eval", str(labelled), "--policy", str(out), "--out", str(tmp_path / "r.json"), "-q")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["config"]["detectors"] == ["ngram"]
    assert report["metrics"]["overall"]["response"]["f1"] == 1.0


def test_calibrate_chooses_the_threshold_by_the_method_asked(
    invoke, labelled: Path, base_policy: Path, tmp_path: Path  # type: ignore[no-untyped-def]
) -> None:
    out = tmp_path / "policy.json"
    proc = invoke("calibrate", str(labelled), "--policy", str(base_policy), "--out", str(out), "-q",
                  "--threshold-method", "expected")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["calibration"]["threshold_method"] == "expected"
    proc = invoke("calibrate", str(labelled), "--policy", str(base_policy), "--out", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["calibration"]["threshold_method"] == "shifted"  # the default
    proc = invoke("calibrate", str(labelled), "--policy", str(base_policy), "--out", str(out), "-q",
                  "--threshold-method", "best")
    assert proc.returncode == 2 and "--threshold-method" in proc.stderr and "Traceback" not in proc.stderr


def test_calibrate_refuses_a_policy_it_cannot_refit(invoke, labelled: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proc = invoke("calibrate", str(labelled), "--policy", "tiered", "--out", str(tmp_path / "p.json"), "-q")
    assert proc.returncode == 2 and "learned policy" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_policy_file_is_one_line(invoke, case_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proc = invoke("detect", str(case_file), "--policy", str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and "policy file" in proc.stderr and "not found" in proc.stderr
    assert "Traceback" not in proc.stderr
