"""``hallucheck calibrate DATA --out POLICY.json``: refit the learned policy on the user's own labels."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from hallucheck.cli.errors import EXIT_FAILED
from hallucheck.cli.options import CITATIONS_OPTION, POLICY_OPTION
from hallucheck.cli.root import app

if TYPE_CHECKING:
    from hallucheck.calibration.calibrate import ThresholdMethod

# --threshold-method's values, the default first (kept here so the CLI does not import numpy to list them)
THRESHOLD_METHODS: dict[str, ThresholdMethod] = {"shifted": "shifted", "expected": "expected", "resampled": "resampled"}

__all__ = ["calibrate_command"]


@app.command("calibrate")
def calibrate_command(
    data: str = typer.Argument(..., metavar="DATA.jsonl[.gz]", help="Labelled answers, one JSON object per line."),
    out: Path = typer.Option(..., "--out", "-o", help="Where the fitted policy goes (POLICY.json)."),
    data_format: str = typer.Option("auto", "--format", help="ragtruth, generic, or auto (from the first record)."),
    policy: str = POLICY_OPTION,
    split: str | None = typer.Option(
        None, "--split", help="Part to fit on: RAGTruth calib (default), train or all; generic data: all (default) or its part field."
    ),
    tasks: str | None = typer.Option(None, "--tasks", help="Only these tasks, e.g. qa,summary."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Use only the first N answers."),
    folds: int = typer.Option(5, "--folds", help="Cross-validation folds (grouped by source) for the 'after' numbers."),
    seed: int = typer.Option(13, "--seed"),
    refit_stack: bool | None = typer.Option(
        None, "--refit-stack/--no-refit-stack",
        help="Refit the stack's trees too (default: when there are 1,000+ answers and scikit-learn is installed).",
    ),
    threshold_method: str = typer.Option(
        "shifted", "--threshold-method",
        help="How the threshold is chosen: shifted (the shipped calibration moved by an intercept shift, its slope "
             "refitted only when the labels ask for it, then the F1 those probabilities expect), expected (the same "
             "with both Platt parameters always refitted) or resampled (the labels' F1 averaged over resamples of the "
             "source groups); docs/policies.md has when each did better.",
    ),
    citations_expected: bool | None = CITATIONS_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Fit the policy's calibration and threshold (and, with enough data, its stack) to your labels.

    Reads the same formats as ``eval``; prints precision, recall and F1 before (the policy as it
    is, counted as ``eval`` counts it) and after (cross-validated, through the same floors and
    safeguards); writes POLICY.json for ``--policy`` on detect, eval and serve, HALLUCHECK_POLICY,
    or Checker(policy="POLICY.json"), only when "after" beats "before": otherwise it writes
    nothing, says so and exits 1. Useful from about 100 labelled answers.
    """
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs
    from rich.table import Table  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.batch import CheckerSpec, checker_for  # lazy: start-up: the CLI imports a command's code only when it runs

    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.calibration.calibrate import Sample, calibrate_policy
    from hallucheck.calibration.checked_samples import checked_sample  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.cli.options import check_policy  # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.cli.progress import progress_bar  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.errors import InputError  # lazy: already loaded by this module's imports; kept where it is used

    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.eval.datasets import FORMATS, load_dataset, sniff_format
    from hallucheck.policies.learned import LearnedPolicy  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.policies.learned_spec import write_spec  # lazy: start-up: the CLI imports a command's code only when it runs

    check_policy(policy)
    if data == "-":
        raise InputError("calibrate reads a file, not stdin")
    if limit is not None and limit < 1:
        raise InputError("--limit must be at least 1")
    if folds < 2:
        raise InputError("--folds must be at least 2")
    if threshold_method not in THRESHOLD_METHODS:
        raise InputError(f"unknown --threshold-method {threshold_method!r} ({', '.join(THRESHOLD_METHODS)})")
    if data_format == "auto":
        data_format = sniff_format(data)
    if data_format not in FORMATS:
        raise InputError(f"unknown --format {data_format!r} (known: auto, {', '.join(FORMATS)})")
    if out.parent and not out.parent.exists():
        raise InputError(f"{out}: the folder {out.parent} does not exist")
    if split is None and data_format == "ragtruth":
        split = "calib"
    task_set = {t.strip().lower() for t in tasks.split(",") if t.strip()} if tasks else None
    # The Checker `hallucheck eval` builds for the same options: "before" is its reports' verdicts.
    spec = CheckerSpec.of(None, policy, citations_expected)
    checker = checker_for(spec)
    if not isinstance(checker.policy, LearnedPolicy):
        raise InputError(f"calibrate refits a learned policy; {policy!r} is the {checker.policy.name} policy")
    err = Console(stderr=True)
    samples: list[Sample] = []
    with progress_bar(err, "checking", quiet) as progress:
        bar = progress.add_task("calibrate", total=limit)
        for ex in load_dataset(data, data_format, split=split, limit=limit, tasks=task_set):
            samples.append(checked_sample(spec, ex))
            progress.advance(bar)
    if not samples:
        raise InputError(f"{data}: no records matched")
    result = calibrate_policy(checker.policy.spec, samples, folds=folds, seed=seed, refit_stack=refit_stack,
                              threshold_method=THRESHOLD_METHODS[threshold_method], floors=checker.floors,
                              log=lambda m: err.print(m, style="dim", highlight=False))
    rep = result.report
    console = Console()
    table = Table(title=f"{rep['answers']} answers, {rep['hallucinated']} hallucinated; "
                        f"after = {rep['folds']}-fold cross-validation grouped by source", title_justify="left")
    for col in ("", "threshold", "P", "R", "F1"):
        table.add_column(col, justify="left" if not col else "right")
    for name in ("before", "after"):
        r = rep[name]
        table.add_row(name, f"{r['threshold']:.2f}", f"{r['precision']:.3f}", f"{r['recall']:.3f}", f"[bold]{r['f1']:.3f}[/]")
    console.print(table)
    if not result.improved:
        # Nothing better to offer: the file is left as it was, and a script chaining on the exit code stops.
        sys.stderr.write(
            f"hallucheck: calibrate: {out} not written: the refitted policy (F1 {rep['after']['f1']:.3f}, cross-validated) "
            f"does not beat the policy you have (F1 {rep['before']['f1']:.3f}, as `hallucheck eval` measures it) "
            f"on these labels; keep using --policy {policy}\n"
        )
        raise SystemExit(EXIT_FAILED)
    result.spec["calibration"]["data"] = str(data)
    result.spec["calibration"]["format"] = data_format
    result.spec["calibration"]["split"] = split or "all"
    write_spec(result.spec, out)
    console.print(f"stack refitted: {'yes' if rep['stack_refit'] else 'no'}; wrote {out} "
                  f"(use: --policy {out}, HALLUCHECK_POLICY={out}, or Checker(policy=\"{out}\"))", highlight=False)
