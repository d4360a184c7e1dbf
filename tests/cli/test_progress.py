"""The progress bar of long commands: drawn on a terminal, silent when stderr is piped."""

from __future__ import annotations

import io
from pathlib import Path

from cli_fakes import TINY_RECORDS, write_jsonl
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
