"""``hallucheck detect``: check one case (JSON report or a marked-up text view) or a JSONL batch."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import typer

from hallucheck.cli.options import CITATIONS_OPTION, DETECTORS_OPTION, POLICY_OPTION, RAY_OPTION, WORKERS_OPTION
from hallucheck.cli.root import app

__all__ = ["detect"]


@app.command(no_args_is_help=True)
def detect(
    case_file: str | None = typer.Argument(
        None, metavar="CASE.json|-", help="A case as JSON {question, contexts, answer, ...}; '-' reads stdin."
    ),
    batch: str | None = typer.Option(
        None, "--batch", "-b", metavar="FILE.jsonl", help="Check every line of a JSONL file ('-' = stdin, .gz ok)."
    ),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write the output here instead of stdout."),
    output_format: str = typer.Option("json", "--format", "-f", help="json (report) or text (for people)."),
    detectors: str | None = DETECTORS_OPTION,
    policy: str = POLICY_OPTION,
    citations_expected: bool | None = CITATIONS_OPTION,
    task: str | None = typer.Option(None, "--task", help="qa, summary, data2txt, dialogue or generic."),
    language: str | None = typer.Option(None, "--language", help="en, de, fr, zh-Hans, zh-Hant (default: detected)."),
    workers: int = WORKERS_OPTION,
    ray: str | None = RAY_OPTION,
    keep_going: bool = typer.Option(
        False, "--keep-going", help="--batch: write an error line for an invalid case and go on (exit 1 at the end)."
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="JSON: keep every detector's internals (details, features, its own spans)."
    ),
    include: str | None = typer.Option(
        None, "--include", metavar="PARTS", help="JSON: add back internals: details, features, finding_spans, sentence_verdicts or all."
    ),
) -> None:
    """Check one answer against its sources and print the report.

    Input: {"question": ..., "contexts": ["..." or {"id", "text"}], "answer": ..., "task"?,
    "language"?, "citations_expected"?}. With --batch, one such object per line (an "id" field
    is copied to the output line); one report per line is written, in input order.

    The JSON report is compact: the verdict, merged spans with their evidence, and per detector
    its risk, flag, notes and coverage. --verbose adds each detector's internals.
    """
    # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.cli.options import OUTPUT_FORMATS, case_overrides, check_policy, check_workers, parse_detectors
    from hallucheck.errors import InputError  # lazy: already loaded by this module's imports; kept where it is used

    if output_format not in OUTPUT_FORMATS:
        raise InputError(f"unknown --format {output_format!r} (known: {', '.join(OUTPUT_FORMATS)})")
    if (case_file is None) == (batch is None):
        raise InputError("give either one CASE.json (or '-') or --batch FILE.jsonl")
    from hallucheck.report_view import INCLUDE_PARTS, parse_include  # lazy: start-up: the CLI imports a command's code only when it runs

    parts = frozenset(INCLUDE_PARTS) if verbose else parse_include(include)
    names = parse_detectors(detectors)
    check_policy(policy)
    check_workers(workers)
    overrides = case_overrides(task, language, citations_expected)
    from hallucheck.batch import CheckerSpec  # lazy: start-up: the CLI imports a command's code only when it runs

    spec = CheckerSpec.of(names, policy, citations_expected)
    if batch is not None:
        if output_format != "json":
            raise InputError("--batch writes JSON lines; --format text is for one case")
        _batch(batch, spec, overrides, out, workers, keep_going, ray, parts)
    else:
        assert case_file is not None
        _single(case_file, spec, overrides, out, output_format, parts)


def _single(
    case_file: str, spec: Any, overrides: dict[str, Any], out: Path | None, output_format: str, parts: frozenset[str]
) -> None:
    from hallucheck.batch import apply_overrides, checker_for  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.cases import make_case  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.errors import InputError  # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.jsonio import display_name, read_json  # lazy: start-up: the CLI imports a command's code only when it runs

    data = read_json(case_file)
    if not isinstance(data, dict):
        raise InputError(f"{display_name(case_file)}: expected a JSON object with question, contexts and answer")
    case = make_case(apply_overrides(data, overrides))
    report = checker_for(spec).check(case)
    if output_format == "json":
        import json  # lazy: already loaded by the package; kept where it is used

        from hallucheck.report_view import report_dict  # lazy: start-up: the CLI imports a command's code only when it runs

        text = json.dumps(report_dict(report, parts), ensure_ascii=False, indent=2) + "\n"
        if out is not None:
            out.write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.cli.render import render_report  # lazy: start-up: the CLI imports a command's code only when it runs

    if out is not None:
        with out.open("w", encoding="utf-8") as fh:
            render_report(Console(file=fh, width=110, color_system=None), case, report)
    else:
        render_report(Console(), case, report)


def _batch(
    batch: str, spec: Any, overrides: dict[str, Any], out: Path | None, workers: int, keep_going: bool,
    ray: str | None = None, parts: frozenset[str] = frozenset(),
) -> None:
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs
    from rich.text import Text  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.batch import iter_checked  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.cli.errors import EXIT_FAILED, EXIT_INPUT, fail  # lazy: already loaded by the package; kept where it is used
    from hallucheck.cli.progress import count_lines, progress_bar  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.jsonio import iter_jsonl, json_line  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.report_view import compact_report_dict  # lazy: start-up: the CLI imports a command's code only when it runs

    err = Console(stderr=True)
    # The total (for the time left) costs one quick pass over the file; only worth it for a bar that is drawn.
    total = count_lines(batch) if err.is_terminal else None
    sink = out.open("w", encoding="utf-8") if out is not None else sys.stdout
    done = failed = 0
    t0 = time.perf_counter()
    try:
        with progress_bar(err, "checking") as progress:
            bar = progress.add_task("batch", total=total)
            records = iter_jsonl(batch, require_objects=False, on_error="yield" if keep_going else "raise")
            if ray:
                from hallucheck.distributed import iter_checked_ray  # lazy: start-up: the CLI imports a command's code only when it runs

                results = iter_checked_ray(records, spec, overrides, address=ray)
            else:
                results = iter_checked(records, spec, overrides, workers)
            for result in results:
                if "error" in result:
                    where = f"line {result['line']}"
                    message = result["error"]
                    if not keep_going:
                        fail(f"{batch}: {where}: {message}", EXIT_INPUT)
                    failed += 1
                    err.print(Text.assemble((f"skipped {where}: ", "yellow"), message), highlight=False)
                sink.write(json_line(compact_report_dict(result, parts)))
                done += 1
                progress.update(bar, completed=done)
    finally:
        if sink is not sys.stdout:
            sink.close()
        else:
            sys.stdout.flush()
    elapsed = time.perf_counter() - t0
    err.print(
        f"checked {done - failed} cases"
        + (f", {failed} invalid" if failed else "")
        + f" in {elapsed:.1f}s ({done / elapsed if elapsed else 0:.1f}/s, {workers} worker{'s' if workers > 1 else ''})",
        style="dim",
        highlight=False,
    )
    if failed:
        raise SystemExit(EXIT_FAILED)
