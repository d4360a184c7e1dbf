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


SMALL_DOCS = {
    "shop.md": (
        "# Opening hours\n\nThe shop on Market Street opens at nine every morning and closes at six in the evening "
        "from Monday to Saturday.\n\nOn Sundays the shop stays closed, and on public holidays it opens from ten in "
        "the morning until two in the afternoon.\n\n# Staff\n\nThe shop employs twelve people, four of whom work in "
        "the repair workshop behind the sales floor.\n\nThe manager, Anna Berger, has run the shop since 2015 and "
        "trains every new employee herself during the first month.\n"
    ),
    "returns.md": (
        "# Returning an item\n\nCustomers can return any unopened item within thirty days of purchase for a full "
        "refund to the original payment method.\n\nOpened items can be exchanged within fourteen days if they are "
        "undamaged and come with the receipt.\n\n# Repairs\n\nBicycles bought in the shop get free repairs for the "
        "first two years, parts included, except for tyres and brake pads.\n\nA repair usually takes three working "
        "days, and customers receive a text message when the bicycle is ready.\n"
    ),
}


def test_synth_on_two_small_documents_still_has_a_dev_part(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Four sections, none of which the hash puts in dev: one is moved there, and eval reads it."""
    from hallucheck.synth.parts import part_of_key

    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in SMALL_DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    assert "dev" not in {part_of_key(f"{n}#s{i}") for n in ("shop", "returns") for i in range(2)}
    out = tmp_path / "cases.jsonl"
    proc = invoke("data", "synth", str(docs), "--lang", "en", "--out", str(out), "--cross-lang", "none")
    assert proc.returncode == 0, proc.stderr
    parts = {json.loads(line)["part"] for line in out.read_text(encoding="utf-8").splitlines()}
    assert parts == {"train", "calib", "dev"}
    proc = invoke("eval", str(out), "--split", "dev", "-d", "ngram", "-p", "weighted", "-q")
    assert proc.returncode == 0, proc.stderr
    assert "split dev" in proc.stdout


def test_synth_says_how_many_sections_it_needs(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "shop.md").write_text(SMALL_DOCS["shop.md"], encoding="utf-8")  # two sections
    proc = invoke("data", "synth", str(docs), "--lang", "en", "--out", str(tmp_path / "o.jsonl"))
    assert proc.returncode == 2
    line = _error_line(proc)
    assert "2 sections" in line and "at least 3" in line and not (tmp_path / "o.jsonl").exists()


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
