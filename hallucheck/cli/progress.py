"""The progress bar of long commands (eval, calibrate, data synth, detect --batch): done / total,
rate and time left.

It draws on stderr only when stderr is a terminal; piped or redirected, it prints nothing, so
logs and files that capture a run hold only its results.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

__all__ = ["count_lines", "progress_bar"]


def count_lines(path: str | Path) -> int | None:
    """The non-blank lines of a JSON Lines file (``.gz`` read through), the total a bar shows;
    None for stdin or a file that cannot be read to the end (reading it properly says why)."""
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used
    from hallucheck.jsonio import open_binary  # lazy: start-up: the CLI imports a command's code only when it runs

    if str(path) == "-":
        return None
    try:
        with open_binary(path) as stream:
            return sum(1 for raw in stream if raw.strip())
    except (InputError, OSError, EOFError, zlib.error):
        return None


def progress_bar(console: Any, label: str, quiet: bool = False) -> Any:
    """A rich ``Progress`` on ``console`` (a stderr Console) with the count, the rate (items/s),
    the time spent and the time left; disabled when ``quiet`` or when ``console`` is not a terminal."""
    # lazy: start-up: the CLI imports a command's code only when it runs
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text  # lazy: start-up: the CLI imports a command's code only when it runs

    class RateColumn(ProgressColumn):
        """Items per second over rich's recent window."""

        def render(self, task: Task) -> Text:
            return Text(f"{task.speed:.1f}/s" if task.speed else "", style="progress.data.speed")

    return Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,
    )
