"""``hallucheck eval`` on tiny labelled data written here, and (slow) on 60 real RAGTruth dev records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_fakes import TINY_RECORDS, write_jsonl

FAKE = ("-d", "fake_words", "-p", "fake_any")
RECORDS = TINY_RECORDS


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "tiny.jsonl", RECORDS)


def test_eval_prints_tables_and_writes_reports(invoke, data: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out, html = tmp_path / "r.json", tmp_path / "r.html"
    proc = invoke("eval", str(data), *FAKE, "--out", str(out), "--html", str(html))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Response level" in text and "Span level" in text and "responses/s" in text
    assert "summary" in text and "qa" in text
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["config"]["format"] == "generic"  # sniffed
    assert payload["config"]["detectors"] == ["fake_words"]
    overall = payload["metrics"]["overall"]
    assert overall["response"]["f1"] == pytest.approx(0.5)
    assert overall["span"]["precision"] == pytest.approx(5 / 9)
    assert payload["metrics"]["per_task"]["qa"]["response"]["f1"] == pytest.approx(1.0)
    page = html.read_text(encoding="utf-8")
    assert "<svg" in page and "Lyon" in page and "<script" not in page


def test_eval_limit_tasks_and_workers(invoke, data: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.json"
    proc = invoke("eval", str(data), *FAKE, "--format", "generic", "--limit", "2", "--out", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["n"] == 2
    proc = invoke("eval", str(data), *FAKE, "--tasks", "summary", "--workers", "2", "--out", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["n"] == 2 and set(payload["metrics"]["per_task"]) == {"summary"}
    assert payload["throughput"]["workers"] == 2


@pytest.mark.slow
def test_eval_on_real_ragtruth_dev(run_cli, ragtruth_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.json"
    proc = run_cli("eval", str(ragtruth_path), "--format", "ragtruth", "--limit", "60", "--out", str(out), "-q", fakes_loaded=False)
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["n"] == 60 and payload["config"]["split"] == "dev"
    overall = payload["metrics"]["overall"]
    assert overall["response"]["positives"] > 0 and overall["n"] == 60
    assert set(payload["metrics"]["per_task"]) <= {"qa", "summary", "data2txt"}
    assert payload["throughput"]["responses_per_second"] > 0


def test_eval_without_span_labels_says_span_metrics_are_not_available(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Records labelled true/false only: span P/R/F1 print as n/a and are null in the JSON, not 0."""
    records = [{k: v for k, v in r.items() if k != "spans"} | {"label": bool(r.get("spans") or r.get("label"))}
               for r in RECORDS]
    data = write_jsonl(tmp_path / "labels_only.jsonl", records)
    out = tmp_path / "r.json"
    proc = invoke("eval", str(data), *FAKE, "--out", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    span_table = proc.stdout[proc.stdout.index("Span level"):]
    assert "n/a" in span_table and "0.000" not in span_table
    span = json.loads(out.read_text(encoding="utf-8"))["metrics"]["overall"]["span"]
    assert span["f1"] is None and span["precision"] is None and span["recall"] is None
    assert json.loads(out.read_text(encoding="utf-8"))["metrics"]["overall"]["response"]["f1"] is not None
