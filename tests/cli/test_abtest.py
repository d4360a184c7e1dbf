"""``hallucheck abtest`` end to end on the demo set with the offline backend, and its errors."""

from __future__ import annotations

import json

import pytest


def test_abtest_writes_markdown_html_and_json(invoke, tmp_path):
    out = tmp_path / "rep"
    proc = invoke("abtest", "--llm", "extractive", "--limit", "2", "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "extractive-demo" in proc.stderr and "forced_citation" in proc.stderr
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "no language model" in md and "account-zh" in md and "account-en" in md
    assert (out / "report.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    data = json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert len(data["runs"]) == 10 and data["backend"] == "extractive-demo"


def test_abtest_custom_cases_strategies_and_weights(invoke, tmp_path):
    cases = tmp_path / "cases.yaml"
    cases.write_text("- id: one\n  question: How long is the link valid?\n  contexts: [The link is valid for 24 hours.]\n"
                     "  expected_keywords: [24 hours]\n", encoding="utf-8")
    out = tmp_path / "r2"
    proc = invoke("abtest", str(cases), "--llm", "extractive", "-s", "basic,cot", "--weights", "keyword=1,latency=0",
                  "-o", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    data = json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert data["strategies"] == ["basic", "chain_of_thought"] and data["weights"]["latency"] == 0.0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--strategies", "magic"], "unknown prompt strategy"),
        (["--weights", "speed=2"], "--weights"),
        (["--llm", "psychic"], "unknown --llm"),
        (["--limit", "0"], "--limit"),
        (["missing.jsonl"], "no such file"),
    ],
)
def test_abtest_bad_input_is_one_line(invoke, args, message):
    proc = invoke("abtest", "--llm", "extractive", *args)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
