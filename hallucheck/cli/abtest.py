"""``hallucheck abtest``: compare the five answer-prompt strategies and write a report."""

from __future__ import annotations

from pathlib import Path

import typer

from hallucheck.cli.root import app

__all__ = ["abtest"]


@app.command()
def abtest(
    cases: str | None = typer.Argument(
        None, metavar="[CASES.jsonl|.yaml]", help="Test cases (default: the shipped customer-service demo set)."
    ),
    out: Path = typer.Option(Path("abtest-report"), "--out", "-o", help="Folder for report.md, report.html, charts."),
    strategies: str | None = typer.Option(
        None, "--strategies", "-s", help="Comma-separated: basic, chain_of_thought, forced_citation, self_reflection, structured."
    ),
    llm: str = typer.Option("auto", "--llm", help="auto, env, local, extractive, openai or anthropic."),
    llm_model: str | None = typer.Option(None, "--llm-model", help="Model name (local: path of a .gguf file)."),
    llm_base_url: str | None = typer.Option(None, "--llm-base-url", help="API root of an OpenAI-compatible server."),
    weights: str | None = typer.Option(
        None, "--weights", help="Score weights, e.g. keyword=0.3,citation=0.25,hallucination=0.25,latency=0.1,tokens=0.1."
    ),
    temperature: float = typer.Option(0.0, "--temperature", help="Generation temperature."),
    max_tokens: int = typer.Option(256, "--max-tokens", help="Generation limit per answer."),
    limit: int | None = typer.Option(None, "--limit", "-n", help="Only the first N cases."),
    policy: str = typer.Option("default", "--policy", "-p", help="Checker policy: tiered, vote, weighted, learned or default."),
    cache: bool = typer.Option(False, "--cache/--no-cache", help="Reuse cached LLM answers (latencies are then not real)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Run every prompt strategy on every case, check each answer, and write a comparison report.

    With no LLM configured it uses the local SmolLM2 model (extra 'local'), or else an offline
    extractive demo backend that the report names as such.
    """
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs

    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.abtest import ABTester, demo_cases, load_cases, parse_weights, write_report
    from hallucheck.cli.llm_choice import choose_llm  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.cli.options import check_policy  # lazy: already loaded by the package; kept where it is used
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used
    from hallucheck.prevent.prompt_strategies import parse_strategy  # lazy: start-up: the CLI imports a command's code only when it runs

    if limit is not None and limit < 1:
        raise InputError("--limit must be at least 1")
    if max_tokens < 16:
        raise InputError("--max-tokens must be at least 16")
    if not 0.0 <= temperature <= 2.0:
        raise InputError("--temperature must be between 0 and 2")
    try:
        chosen = [parse_strategy(s) for s in strategies.split(",") if s.strip()] if strategies else None
    except ValueError as exc:
        raise InputError(f"--strategies: {exc}") from None
    if chosen is not None and not chosen:
        raise InputError("--strategies needs at least one strategy")
    score_weights = parse_weights(weights)
    check_policy(policy)
    test_cases = load_cases(cases) if cases else demo_cases()
    if limit is not None:
        test_cases = test_cases[:limit]
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder")
    client, note = choose_llm(llm, model=llm_model, base_url=llm_base_url, cache=cache)

    from hallucheck.checker import Checker  # lazy: start-up: the CLI imports a command's code only when it runs

    err = Console(stderr=True)
    err.print(f"backend: [bold]{getattr(client, 'model', type(client).__name__)}[/]" + (f" — {note}" if note else ""), highlight=False)
    tester = ABTester(
        client, chosen, Checker(policy=policy), weights=score_weights, temperature=temperature,
        max_tokens=max_tokens, backend_note=note,
    )
    if quiet:
        result = tester.run(test_cases)
    else:
        # lazy: start-up: the CLI imports a command's code only when it runs
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(
            TextColumn("[bold]abtest"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
            TimeElapsedColumn(), console=err, transient=True,
        ) as bar:
            task = bar.add_task("", total=len(test_cases) * len(tester.strategies))

            def progress(done: int, total: int, label: str) -> None:
                bar.update(task, completed=done, description=label)

            result = tester.run(test_cases, progress)
    try:
        paths = write_report(result, out)
    except OSError as exc:
        from hallucheck.cli.errors import EXIT_FAILED, fail  # lazy: already loaded by the package; kept where it is used

        fail(f"{out}: cannot write the report: {exc.strerror or exc}", EXIT_FAILED)
    _print_ranking(err, result)
    err.print(f"report: {paths['html']}  {paths['markdown']}", highlight=False)


def _print_ranking(console: object, result: object) -> None:
    from rich.table import Table  # lazy: start-up: the CLI imports a command's code only when it runs

    table = Table(title="Prompt strategies, best first", title_justify="left", header_style="bold")
    for col in ("strategy", "score", "keywords", "cited", "risk", "latency ms", "tokens"):
        table.add_column(col, justify="left" if col == "strategy" else "right")
    for s in result.summaries:  # type: ignore[attr-defined]
        table.add_row(
            s.strategy, f"[bold]{s.score:.3f}[/]", f"{s.keyword_coverage:.0%}", f"{s.citation_rate:.0%}",
            f"{s.hallucination_risk:.3f}", f"{s.latency_ms:.0f}", f"{s.completion_tokens:.0f}",
        )
    console.print(table)  # type: ignore[attr-defined]
