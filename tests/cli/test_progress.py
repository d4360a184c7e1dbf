"""The progress bar of long commands: drawn on a terminal, silent when stderr is piped."""

from __future__ import annotations

import io
from pathlib import Path

from cli_fakes import CASE, TINY_RECORDS, write_jsonl
from rich.console import Console

from hallucheck.cli.progress import progress_bar


def test_bar_shows_rate_and_time_left_on_a_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with progress_bar(console, "evaluating") as progress:
        bar = progress.add_task("eval", total=10)
        for n in range(1, 6):
            progress.update(bar, completed=n)
        progress.refresh()
    text = out.getvalue()
    assert "evaluating" in text and "5/10" in text and "/s" in text


def test_bar_is_quiet_when_not_a_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False)
    with progress_bar(console, "evaluating") as progress:
        bar = progress.add_task("eval", total=10)
        progress.update(bar, completed=5)
        progress.refresh()
    assert out.getvalue() == ""


def test_eval_piped_writes_no_progress(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = write_jsonl(tmp_path / "tiny.jsonl", TINY_RECORDS)
    proc = run_cli("eval", str(data), "-d", "fake_words", "-p", "fake_any")
    assert proc.returncode == 0, proc.stderr
    assert "evaluating" not in proc.stderr and "━" not in proc.stderr and "\r" not in proc.stderr


def _small_docs(tmp_path: Path) -> Path:
    from test_data import SMALL_DOCS

    docs = tmp_path / "docs"
    docs.mkdir(parents=True)
    for name, text in SMALL_DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    return docs


def test_synth_and_batch_piped_write_no_progress(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli("data", "synth", str(_small_docs(tmp_path)), "--lang", "en", "--out", str(tmp_path / "c.jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("wrote ") and len(proc.stderr.splitlines()) == 1
    data = write_jsonl(tmp_path / "cases.jsonl", [{**CASE, "id": str(i)} for i in range(4)])
    proc = run_cli("detect", "--batch", str(data), "-d", "fake_words", "-p", "fake_any")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("checked 4 cases") and len(proc.stderr.splitlines()) == 1
    assert "━" not in proc.stderr and "\r" not in proc.stderr and "\x1b" not in proc.stderr


def test_synth_and_batch_show_a_bar_with_a_total_on_a_terminal(  # type: ignore[no-untyped-def]
    run_cli, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws as on a terminal though stderr is captured
    proc = run_cli("data", "synth", str(_small_docs(tmp_path)), "--lang", "en", "--out", str(tmp_path / "c.jsonl"))
    assert proc.returncode == 0, proc.stderr
    assert "sections" in proc.stderr and "/4" in proc.stderr  # four sections in all
    proc = run_cli("data", "synth", str(_small_docs(tmp_path / "q")), "--lang", "en", "--out", str(tmp_path / "q.jsonl"),
                   "--quiet")
    assert proc.returncode == 0 and "sections" not in proc.stderr
    data = write_jsonl(tmp_path / "cases.jsonl", [{**CASE, "id": str(i)} for i in range(4)])
    proc = run_cli("detect", "--batch", str(data), "-d", "fake_words", "-p", "fake_any")
    assert proc.returncode == 0, proc.stderr
    assert "checking" in proc.stderr and "/4" in proc.stderr  # the total is known: time left can be shown
