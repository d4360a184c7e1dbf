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


FIGURE_SOURCE = "The shop opens at 9 every morning and closes at 6 in the evening from Monday to Saturday."


def _figure_policy(tmp_path: Path, threshold: float) -> Path:
    """A learned policy that weighs the ngram detector alone but also runs the numbers detector,
    whose contradicted figures the Checker's floors turn into a rejection whatever the policy scored."""
    stage = {"detectors": ["ngram"], "features": ["ngram.risk"], "fill": [0.0], "init": -1.5, "learning_rate": 1.0,
             "platt": [1.0, 0.0], "trees": [_stump(t) for t in np.round(np.arange(0.05, 0.96, 0.05), 2)]}
    spec = {"format": 1, "detectors": ["numbers", "ngram"], "stages": {"cheap": stage, "full": dict(stage)},
            "threshold": threshold}
    path = tmp_path / f"figures{threshold}.json"
    path.write_text(json.dumps(spec))
    return path


@pytest.fixture
def figures(tmp_path: Path) -> Path:
    """Faithful answers, answers with a changed figure (the ngram score barely moves; a floor
    catches them) and answers made of new words (the ngram score catches them)."""
    rows = []
    for i in range(60):
        kind = i % 3
        answer = ("The shop opens at 9 every morning and closes at 6 in the evening." if kind == 0
                  else f"The shop opens at {10 + i % 2} every morning and closes at 6 in the evening." if kind == 1
                  else f"The shop sells {i} kinds of green bicycles imported from Norway.")
        code = "abcdefghij"[i % 10] + "klmnopqrst"[i // 10]
        rows.append({"question": "When does the shop open?", "contexts": [FIGURE_SOURCE + f" Branch code {code}."],
                     "answer": answer, "label": kind != 0, "task": "qa"})
    return write_jsonl(tmp_path / "figures.jsonl", rows)


def _row(stdout: str, name: str) -> list[float]:
    """The threshold, P, R and F1 of the table row ``name``."""
    line = next(x for x in stdout.splitlines() if x.strip("│ ").startswith(name))
    return [float(v) for v in line.replace("│", " ").split()[1:]]


def test_before_is_what_eval_measures(invoke, figures: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    policy = _figure_policy(tmp_path, 0.9)  # too high for the new words: eval's recall is short of 1
    proc = invoke("eval", str(figures), "--policy", str(policy), "--out", str(tmp_path / "r.json"), "-q")
    assert proc.returncode == 0, proc.stderr
    evaluated = json.loads((tmp_path / "r.json").read_text())["metrics"]["overall"]["response"]
    assert evaluated["recall"] < 1.0 and evaluated["precision"] == 1.0
    out = tmp_path / "policy.json"
    proc = invoke("calibrate", str(figures), "--policy", str(policy), "--out", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    _, p, r, f1 = _row(proc.stdout, "before")
    assert (p, r, f1) == pytest.approx((evaluated["precision"], evaluated["recall"], evaluated["f1"]), abs=5e-4)
    before = json.loads(out.read_text())["calibration"]["before"]
    assert before["f1"] == pytest.approx(evaluated["f1"], abs=1e-4)
    assert _row(proc.stdout, "after")[3] > f1


def test_a_fit_no_better_than_the_policy_is_not_written(invoke, figures: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    policy = _figure_policy(tmp_path, 0.3)  # with its floors, already right on every answer
    out = tmp_path / "policy.json"
    out.write_text("kept")
    proc = invoke("calibrate", str(figures), "--policy", str(policy), "--out", str(out), "-q")
    assert proc.returncode == 1, proc.stderr
    assert _row(proc.stdout, "before")[3] == 1.0
    assert "not written" in proc.stderr and "does not beat" in proc.stderr and "Traceback" not in proc.stderr
    assert out.read_text() == "kept"
