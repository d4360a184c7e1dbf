"""bench/unchanged.py: the records of a report, and the comparison of two runs."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from hallucheck.types import Report, Span

BENCH = Path(__file__).resolve().parents[2] / "bench" / "unchanged.py"


@pytest.fixture(scope="module")
def unchanged() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_unchanged", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(**groups: dict[str, object]) -> dict[str, object]:
    return {"groups": groups}


def test_a_record_keeps_decision_rounded_risk_and_spans(unchanged: ModuleType) -> None:
    span = Span(start=4, end=8, text="2012", label="contradiction", score=0.9, detector="numbers", kind="contradicted_figure")
    report = Report(hallucinated=True, risk_score=0.12345678, risk_level="high", decision="reject", spans=[span])
    assert unchanged.record(report) == {"decision": "reject", "risk": 0.123457, "spans": [[4, 8, "contradiction", "contradicted_figure"]]}


def test_equal_runs_compare_clean(unchanged: ModuleType) -> None:
    rec = {"decision": "accept", "risk": 0.1, "spans": []}
    run = _run(ragtruth={"a": rec}, pairs={"b": rec}, evidence={"c": rec})
    differing, lines = unchanged.compare(run, json.loads(json.dumps(run)))
    assert differing == 0 and all(" 0 differ, 0 on one side only" in line for line in lines)


def test_a_changed_case_and_a_missing_case_count_per_group(unchanged: ModuleType) -> None:
    a = {"decision": "accept", "risk": 0.1, "spans": []}
    b = {"decision": "review", "risk": 0.1, "spans": []}
    mine = _run(ragtruth={"x": a, "y": a}, pairs={"p": a}, evidence={"e": a})
    other = _run(ragtruth={"x": b, "y": a}, pairs={"p": a, "q": a}, evidence={"e": a})
    differing, lines = unchanged.compare(mine, other)
    assert differing == 2
    assert lines[0] == "ragtruth: 2 cases here, 2 there, 1 differ, 0 on one side only"
    assert lines[1].startswith("  x\n") and '"review"' in lines[1]
    assert "pairs: 1 cases here, 2 there, 0 differ, 1 on one side only" in lines
    assert "  q: only there" in lines


def test_a_group_not_run_here_is_not_compared(unchanged: ModuleType) -> None:
    a = {"decision": "accept", "risk": 0.1, "spans": []}
    differing, lines = unchanged.compare(_run(pairs={"p": a}), _run(ragtruth={"x": a}, pairs={"p": a}))
    assert differing == 0 and [line.split(":")[0] for line in lines] == ["pairs"]


def test_the_command_exits_non_zero_when_a_case_differs(unchanged: ModuleType, tmp_path: Path) -> None:
    """Two runs' files compared without running the checker (``--records``)."""
    rec = {"decision": "accept", "risk": 0.0, "spans": []}
    mine, same, changed = tmp_path / "mine.json", tmp_path / "same.json", tmp_path / "changed.json"
    mine.write_text(json.dumps(_run(pairs={"p": rec})), encoding="utf-8")
    same.write_text(json.dumps(_run(pairs={"p": rec})), encoding="utf-8")
    changed.write_text(json.dumps(_run(pairs={"p": {**rec, "risk": 0.000001}})), encoding="utf-8")
    assert unchanged.main(["--records", str(mine), "--compare", str(same)]) == 0
    assert unchanged.main(["--records", str(mine), "--compare", str(changed)]) == 1
