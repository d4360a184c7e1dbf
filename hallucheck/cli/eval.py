"""``hallucheck eval``: precision / recall / F1 of a checker on labelled data, with JSON and HTML reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from hallucheck.cli.options import CITATIONS_OPTION, DETECTORS_OPTION, POLICY_OPTION, RAY_OPTION, WORKERS_OPTION
from hallucheck.cli.root import app

__all__ = ["eval_command", "print_summary", "config_split"]


def config_split(data_format: str, split: str | None) -> str:
    """The part an evaluation reads: RAGTruth defaults to dev, generic data to all records."""
    return split or ("dev" if data_format == "ragtruth" else "all")


def _fmt(x: Any) -> str:
    """A score, or "n/a" where the data cannot define it (no span labels, one class only)."""
    return "n/a" if x is None else f"{x:.3f}"


def print_summary(console: Any, result: Any, title: str = "") -> None:
    """The response-level and span-level tables (overall and per task) and the throughput line."""
    from rich.table import Table  # lazy: start-up: the CLI imports a command's code only when it runs

    summary = result.view_summary(result.primary)
    rows = [("all", summary["overall"])] + list(summary["per_task"].items())
    resp = Table(
        title=f"Response level (P precision, R recall, acc accuracy){title}", title_justify="left", header_style="bold"
    )
    for col in ("task", "n", "halluc", "flagged", "P", "R", "F1", "acc", "AUROC"):
        resp.add_column(col, justify="left" if col == "task" else "right", no_wrap=True)
    for name, m in rows:
        r = m["response"]
        resp.add_row(
            name,
            str(m["n"]),
            str(r["positives"]),
            str(r["predicted_positive"]),
            _fmt(r["precision"]),
            _fmt(r["recall"]),
            f"[bold]{_fmt(r['f1'])}[/]",
            _fmt(r["accuracy"]),
            _fmt(r["auroc"]),
        )
    console.print(resp)
    span = Table(
        title="Span level (characters; micro over all answers, and 'mean' = per-answer average)",
        title_justify="left",
        header_style="bold",
    )
    for col in ("task", "P", "R", "F1", "mean P", "mean R", "mean F1"):
        span.add_column(col, justify="left" if col == "task" else "right", no_wrap=True)
    for name, m in rows:
        s = m["span"]
        span.add_row(
            name,
            _fmt(s["precision"]),
            _fmt(s["recall"]),
            f"[bold]{_fmt(s['f1'])}[/]",
            _fmt(s["answer_mean_precision"]),
            _fmt(s["answer_mean_recall"]),
            _fmt(s["answer_mean_f1"]),
        )
    console.print(span)
    console.print(
        f"[bold]{result.n}[/] responses in {result.wall_seconds:.1f}s: "
        f"[bold]{result.responses_per_second:.1f} responses/s[/] with {result.workers} worker"
        f"{'s' if result.workers > 1 else ''} "
        f"({summary['responses_per_second_one_core']:.1f}/s per busy core; "
        f"mean {summary['overall']['mean_latency_ms']:.1f} ms per response)",
        highlight=False,
    )
    if result.errors:
        failed = ", ".join(f"{k} ({v})" for k, v in sorted(result.errors.items()))
        console.print(f"[yellow]detectors that failed on some responses:[/] {failed}", highlight=False)


@app.command("eval")
def eval_command(
    data: str = typer.Argument(..., metavar="DATA.jsonl[.gz]", help="Labelled data, one JSON object per line."),
    data_format: str = typer.Option("auto", "--format", help="ragtruth, generic, or auto (from the first record)."),
    detectors: str | None = DETECTORS_OPTION,
    policy: str = POLICY_OPTION,
    split: str | None = typer.Option(
        None, "--split",
        help="Part: dev, calib, train or all. RAGTruth: the project's split by source (default dev); "
        "generic: the records' 'part' field (default all).",
    ),
    tasks: str | None = typer.Option(None, "--tasks", help="Only these tasks, e.g. qa,summary."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Stop after this many responses."),
    citations_expected: bool | None = CITATIONS_OPTION,
    out: Path | None = typer.Option(None, "--out", "-o", help="Write the JSON report here."),
    html: Path | None = typer.Option(None, "--html", help="Write a self-contained HTML report here."),
    workers: int = WORKERS_OPTION,
    ray: str | None = RAY_OPTION,
    samples: int = typer.Option(12, "--samples", help="Flagged answers kept for the HTML report."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Evaluate a checker on labelled data: response- and span-level precision/recall/F1, per task.

    RAGTruth (--format ragtruth) is filtered by the project's split, dev part by default.
    Generic records: {question, contexts, answer, label: bool, spans: [{start, end}], task?, id?}.
    """
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.batch import CheckerSpec  # lazy: start-up: the CLI imports a command's code only when it runs

    # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.cli.options import check_policy, check_workers, parse_detectors
    from hallucheck.errors import InputError  # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.eval.datasets import count_examples, load_dataset  # lazy: start-up: the CLI imports a command's code only when it runs

    names = parse_detectors(detectors)
    check_policy(policy)
    check_workers(workers)
    if limit is not None and limit < 1:
        raise InputError("--limit must be at least 1")
    data_format = _data_format(data, data_format)
    task_set = {t.strip().lower() for t in tasks.split(",") if t.strip()} if tasks else None
    for target in (out, html):
        if target is not None and target.parent and not target.parent.exists():
            raise InputError(f"{target}: the folder {target.parent} does not exist")

    examples = load_dataset(data, data_format, split=split, limit=limit, tasks=task_set)
    total = None if data == "-" or task_set else count_examples(data, data_format, split=split, limit=limit)
    if total == 0:
        raise InputError(f"{data}: no records in the {config_split(data_format, split)} part")
    spec = CheckerSpec.of(names, policy, citations_expected)
    config = {
        "data": str(data),
        "format": data_format,
        "split": config_split(data_format, split),
        "tasks": sorted(task_set) if task_set else None,
        "limit": limit,
        "detectors": names,
        "policy": policy,
        "citations_expected": citations_expected,
        "workers": workers,
        "ray": ray,
    }
    err = Console(stderr=True)
    result = _evaluate_with_progress(err, examples, spec, total, quiet, workers=workers, sample_size=samples, config=config,
                                     ray_address=ray)
    if result.n == 0:
        raise InputError(f"{data}: no records matched")
    from hallucheck.batch import checker_for  # lazy: start-up: the CLI imports a command's code only when it runs

    checker = checker_for(spec)
    result.config["detectors"] = checker.detector_names
    result.config["policy"] = checker.policy.name
    console = Console()
    console.print(
        f"[dim]{data} · {data_format} · split {config['split']} · detectors {', '.join(checker.detector_names)} · "
        f"policy {checker.policy.name}[/]",
        highlight=False,
    )
    print_summary(console, result)
    _write_reports(err, result.to_dict(), out, html)


def _data_format(data: str, data_format: str) -> str:
    """The format asked for, or sniffed from the first record for ``auto`` (not possible on stdin)."""
    from hallucheck.errors import InputError  # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.eval.datasets import FORMATS, sniff_format  # lazy: start-up: the CLI imports a command's code only when it runs

    if data_format == "auto":
        if data == "-":
            raise InputError("reading stdin needs --format ragtruth or --format generic")
        data_format = sniff_format(data)
    if data_format not in FORMATS:
        raise InputError(f"unknown --format {data_format!r} (known: auto, {', '.join(FORMATS)})")
    return data_format


def _evaluate_with_progress(err: Any, examples: Any, spec: Any, total: int | None, quiet: bool, **options: Any) -> Any:
    """``eval.runner.evaluate`` behind a progress bar on stderr (responses done, rate, time left)."""
    from hallucheck.cli.progress import progress_bar  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.eval.runner import ReportPredictor, evaluate  # lazy: start-up: the CLI imports a command's code only when it runs

    with progress_bar(err, "evaluating", quiet) as progress:
        bar = progress.add_task("eval", total=total)

        def tick(n: int) -> None:
            progress.update(bar, completed=n)

        return evaluate(examples, ReportPredictor(spec), on_progress=tick, **options)


def _write_reports(err: Any, payload: dict[str, Any], out: Path | None, html: Path | None) -> None:
    """The JSON report to ``out`` and the HTML one to ``html``, each when asked for."""
    if out is not None:
        out.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        err.print(f"wrote {out}", style="dim", highlight=False)
    if html is not None:
        from hallucheck.eval.html import render_html  # lazy: start-up: the CLI imports a command's code only when it runs

        html.write_text(render_html(payload), encoding="utf-8")
        err.print(f"wrote {html}", style="dim", highlight=False)
