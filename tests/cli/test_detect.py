"""``hallucheck detect`` (one case, JSON and text), ``--batch`` with and without workers, demo and info."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from cli_fakes import CASE

FAKE = ("-d", "fake_words", "-p", "fake_any")


def test_json_report_for_one_case(invoke, case_file: Path) -> None:  # type: ignore[no-untyped-def]
    proc = invoke("detect", str(case_file), *FAKE)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["hallucinated"] is True and report["policy"] == "fake_any"
    flagged = {s["text"] for s in report["spans"]}
    assert {"Jean", "Dupont"} <= flagged
    assert {s["text"] for s in report["spans"]} == {CASE["answer"][s["start"] : s["end"]] for s in report["spans"]}


def test_stdin_and_overrides(invoke) -> None:  # type: ignore[no-untyped-def]
    proc = invoke("detect", "-", *FAKE, "--task", "summary", "--language", "de", stdin=json.dumps(CASE))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["task"] == "summary" and report["language"] == "de"


def test_out_file(invoke, case_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "report.json"
    proc = invoke("detect", str(case_file), *FAKE, "--out", str(out))
    assert proc.returncode == 0 and proc.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["hallucinated"] is True


def test_text_format_marks_spans_and_explains(invoke, case_file: Path) -> None:  # type: ignore[no-untyped-def]
    proc = invoke("detect", str(case_file), *FAKE, "--format", "text")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "HALLUCINATED" in out and "Legend" in out and "baseless" in out
    assert "'Dupont' is not in the sources" in out  # the span's reason
    # numbered marks after the spans; "by" alone is a function word, not a span of the report
    assert re.search("by Jean[¹²] Dupont[¹²]", out)
    assert "When was the company founded?" in out


def test_text_format_grounded(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "ok.json"
    path.write_text(json.dumps({**CASE, "answer": "The company was founded in 2010."}), encoding="utf-8")
    proc = invoke("detect", str(path), *FAKE, "--format", "text")
    assert proc.returncode == 0 and "GROUNDED" in proc.stdout and "No span flagged" in proc.stdout


def _batch_file(tmp_path: Path) -> Path:
    lines = []
    for i in range(6):
        answer = CASE["answer"] if i % 2 else "The company was founded in 2010."
        record = {**CASE, "answer": answer}
        if i != 3:
            record["id"] = f"c{i}"
        lines.append(json.dumps(record))
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _strip_timings(line: dict) -> dict:
    line = dict(line)
    line.pop("timings_ms", None)
    for f in line.get("findings", []):
        f.pop("latency_ms", None)
    return line


def test_batch_keeps_ids_and_order(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _batch_file(tmp_path)
    proc = invoke("detect", "--batch", str(path), *FAKE)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [r.get("id") for r in rows] == ["c0", "c1", "c2", None, "c4", "c5"]
    assert [r["hallucinated"] for r in rows] == [False, True, False, True, False, True]
    assert "checked 6 cases" in proc.stderr


def test_batch_workers_give_the_same_reports(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _batch_file(tmp_path)
    out1, out2 = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    p1 = run_cli("detect", "--batch", str(path), *FAKE, "--out", str(out1))
    p2 = run_cli("detect", "--batch", str(path), *FAKE, "--out", str(out2), "--workers", "2")
    assert p1.returncode == 0 and p2.returncode == 0, p2.stderr
    rows1 = [_strip_timings(json.loads(x)) for x in out1.read_text(encoding="utf-8").splitlines()]
    rows2 = [_strip_timings(json.loads(x)) for x in out2.read_text(encoding="utf-8").splitlines()]
    assert rows1 == rows2 and len(rows1) == 6
    assert "2 workers" in p2.stderr


def test_demo_runs_every_example(invoke) -> None:  # type: ignore[no-untyped-def]
    proc = invoke("demo", *FAKE)
    assert proc.returncode == 0, proc.stderr
    for title in ("English · with citations", "繁體中文", "Deutsch", "Français", "grounded answer", "简体中文", "主客颠倒"):
        assert title in proc.stdout
    assert "客服專線" in proc.stdout
    listing = invoke("demo", "--list")
    assert listing.returncode == 0 and "02_zh_hant_refund" in listing.stdout
    one = invoke("demo", "zh_hant_refund", *FAKE, "--format", "json")
    rows = [json.loads(x) for x in one.stdout.splitlines()]
    assert len(rows) == 1 and rows[0]["example"] == "02_zh_hant_refund" and rows[0]["language"] == "zh-Hant"
    assert invoke("demo", "klingon").returncode == 2
    both = invoke("demo", "zh_hant", *FAKE)
    assert both.returncode == 2 and "02_zh_hant_refund, 11_zh_hant_grounded" in both.stderr


def test_examples_are_valid_cases() -> None:
    from hallucheck.cases import make_case
    from hallucheck.cli.demo import example_cases

    examples = example_cases()
    assert len(examples) >= 4
    cases = [make_case(c) for c in examples.values()]
    assert any(c.citations_expected for c in cases) and any(not c.citations_expected for c in cases)


def test_info_commands(invoke) -> None:  # type: ignore[no-untyped-def]
    from hallucheck import __version__

    assert __version__ in invoke("version").stdout
    detectors = invoke("detectors").stdout
    assert "fake_words" in detectors and "ngram" in detectors and "lexical" in detectors
    assert "weighted" in invoke("policies").stdout


def test_help_does_not_import_the_checker() -> None:
    code = (
        "import sys, hallucheck.cli; "
        "heavy = [m for m in ('hallucheck.checker', 'pydantic', 'numpy', 'onnxruntime') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_batch_lines_stay_one_line_to_any_line_reader(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # U+2028, U+2029 and NEL are valid inside a JSON string, but str.splitlines (and older
    # JavaScript) break a line there: the batch output escapes them
    path = tmp_path / "cases.jsonl"
    ids = [f"c{sep}{i}" for i, sep in enumerate(("\u2028", "\u2029", "\x85"))]
    path.write_text("".join(json.dumps({**CASE, "id": i}) + "\n" for i in ids), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    proc = invoke("detect", "--batch", str(path), "--out", str(out), *FAKE)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ids
