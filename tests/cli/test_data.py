"""``hallucheck data synth``: writes cases that ``eval --format generic`` reads; clear errors."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from hallucheck.eval.datasets import load_dataset
from tests.synth.corpus_data import write_corpus


def _error_line(proc) -> str:  # type: ignore[no-untyped-def]
    assert "Traceback" not in proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    return lines[0]


def test_synth_writes_cases_eval_can_read(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    docs = write_corpus(tmp_path / "docs")
    out = tmp_path / "cases.jsonl"
    proc = invoke("data", "synth", str(docs), "--lang", "zh-Hans", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("wrote ") and "hallucinated" in proc.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records and all(r["language"] == "zh-Hans" for r in records)
    assert any(r["metadata"]["source_language"] == "en" for r in records)
    examples = list(load_dataset(out, "generic"))
    assert len(examples) == len(records)
    for part in ("train", "calib", "dev"):
        expected = [r["id"] for r in records if r["part"] == part]
        assert [e.gold.id for e in load_dataset(out, "generic", split=part)] == expected
    again = tmp_path / "again.jsonl.gz"
    assert invoke("data", "synth", str(docs), "--lang", "zh-cn", "--out", str(again)).returncode == 0
    with gzip.open(again, "rt", encoding="utf-8") as fh:
        assert fh.read() == out.read_text(encoding="utf-8")
    none = tmp_path / "none.jsonl"
    assert invoke("data", "synth", str(docs), "--lang", "en", "--cross-lang", "none", "--out", str(none)).returncode == 0
    assert all(json.loads(x)["metadata"]["source_language"] == "en" for x in none.read_text(encoding="utf-8").splitlines())


def test_synth_errors(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    docs = write_corpus(tmp_path / "docs")
    out = str(tmp_path / "o.jsonl")
    cases = [
        (("data", "synth", str(tmp_path / "missing"), "--lang", "en", "--out", out), "no such folder"),
        (("data", "synth", str(docs), "--lang", "xx", "--out", out), "unknown --lang 'xx'"),
        (("data", "synth", str(docs), "--lang", "en", "--cross-lang", "en", "--out", out), "must differ"),
        (("data", "synth", str(docs), "--lang", "en", "--out", str(tmp_path / "no" / "o.jsonl")), "does not exist"),
        (("data", "synth", str(docs), "--lang", "zh-Hant", "--out", out), "no paragraphs in zh-Hant"),
    ]
    for args, message in cases:
        proc = invoke(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert message in _error_line(proc), proc.stderr
    assert not Path(out).exists()


def _ragtruth_file(
    tmp_path: Path,
    context: str = "The council approved the plan in 2020 with {n} votes. Mayor Ann Lee signed it.",
    output: str = "The council approved the plan in 2020 with {n} votes. Ann Lee signed it.",
) -> Path:
    path = tmp_path / "rt.jsonl"
    rows = [
        {"id": str(i), "task_type": "Summary", "model": "m", "query": "", "labels": [],
         "context": context.format(n=10 + i), "output": output.format(n=10 + i)}
        for i in range(12)
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_edits_command(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = _ragtruth_file(tmp_path)
    out = tmp_path / "edits.jsonl"
    proc = invoke("data", "edits", str(data), "--out", str(out), "--parser", "none")
    assert proc.returncode == 0, proc.stderr
    assert "wrote " in proc.stderr and "12 faithful" in proc.stderr
    examples = list(load_dataset(out, "generic"))
    assert len(examples) > 12 and all(e.case.task == "summary" for e in examples)
    assert all(e.gold.labels[0] in ("contradiction", "baseless") for e in examples if e.gold.hallucinated)


def test_edits_errors(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = _ragtruth_file(tmp_path)
    generic = tmp_path / "g.jsonl"
    generic.write_text('{"contexts": ["x"], "answer": "y", "label": true}\n', encoding="utf-8")
    out = str(tmp_path / "o.jsonl")
    cases = [
        (("data", "edits", str(tmp_path / "missing.jsonl"), "--out", out), "no such file"),
        (("data", "edits", str(generic), "--out", out), "line 1: not a RAGTruth record"),
        (("data", "edits", str(data), "--out", out, "--per-answer", "0"), "--per-answer must be at least 1"),
        (("data", "edits", str(data), "--out", out, "--parser", "stanza"), "unknown --parser"),
    ]
    for args, message in cases:
        proc = invoke(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert message in _error_line(proc), proc.stderr
    assert not Path(out).exists()
    assert not list(tmp_path.glob("o.jsonl*"))


def test_source_edits_command(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = _ragtruth_file(tmp_path, "Fuel prices increased sharply in March across region {n}. The terminal was opened in May.",
                          "Fuel prices increased sharply in March in region {n}, and the terminal was opened in May.")
    edits = tmp_path / "edits.jsonl"
    assert invoke("data", "edits", str(data), "--out", str(edits), "--parser", "none").returncode == 0
    out = tmp_path / "source.jsonl"
    proc = invoke("data", "source-edits", str(edits), "--out", str(out), "--per-answer", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("wrote ") and " records " in proc.stderr
    examples = list(load_dataset(out, "generic"))
    assert examples and all(e.case.task == "summary" for e in examples)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"answer": "y"}\n', encoding="utf-8")
    for args, message in [
        (("data", "source-edits", str(bad), "--out", str(tmp_path / "o.jsonl")), "line 1: not a generic record"),
        (("data", "source-edits", str(edits), "--out", str(tmp_path / "o.jsonl"), "--per-answer", "0"), "at least 1"),
    ]:
        proc = invoke(*args)
        assert proc.returncode == 2 and message in _error_line(proc), proc.stderr
