"""``hallucheck guard``: answer a question from sources with forced citations, check and repair it."""

from __future__ import annotations

from typing import Any

import typer

from hallucheck.cli.root import app

__all__ = ["guard"]


@app.command(no_args_is_help=True)
def guard(
    case_file: str = typer.Argument(..., metavar="QUESTION.json|-", help="{question, contexts, language?}; '-' reads stdin."),
    output_format: str = typer.Option("json", "--format", "-f", help="json (the full result) or text (for people)."),
    llm: str = typer.Option("auto", "--llm", help="auto, env, local, extractive, openai or anthropic."),
    llm_model: str | None = typer.Option(None, "--llm-model", help="Model name (local: path of a .gguf file)."),
    llm_base_url: str | None = typer.Option(None, "--llm-base-url", help="API root of an OpenAI-compatible server."),
    strategy: str = typer.Option("forced_citation", "--strategy", "-s", help="Answer prompt strategy."),
    max_attempts: int = typer.Option(
        3, "--max-attempts", help="Repair candidates tried at most (0: none; a high-risk answer is still replaced by an abstention)."
    ),
    temperature: float = typer.Option(0.5, "--temperature", help="Temperature of the first generation."),
    correction: str = typer.Option("rewrite", "--correction", help="Factual correction: rewrite (LLM) or remove."),
    no_abstain: bool = typer.Option(False, "--no-abstain", help="Return the best answer even when it stays high risk."),
    stop_early: bool = typer.Option(False, "--stop-early", help="Check the answer while it streams; stop at the first rejected sentence."),
    iteration: int | None = typer.Option(None, "--iteration", help="Agent loop: this iteration (for the next action)."),
    max_iterations: int | None = typer.Option(None, "--max-iterations", help="Agent loop: the iteration limit."),
) -> None:
    """Generate a guarded answer: forced citations, check, repair by severity, report and attempts."""
    from hallucheck.cli.llm_choice import choose_llm  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used
    from hallucheck.jsonio import read_json  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.prevent.guard import Guard  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.prevent.prompt_strategies import parse_strategy  # lazy: start-up: the CLI imports a command's code only when it runs

    if output_format not in ("json", "text"):
        raise InputError(f"unknown --format {output_format!r} (known: json, text)")
    if max_attempts < 0:
        raise InputError("--max-attempts must be 0 or more")
    if correction not in ("rewrite", "remove"):
        raise InputError("--correction must be rewrite or remove")
    if (iteration is None) != (max_iterations is None):
        raise InputError("give --iteration and --max-iterations together")
    if max_iterations is not None and (max_iterations < 1 or iteration is None or iteration < 0):
        raise InputError("--max-iterations must be at least 1 and --iteration 0 or more")
    try:
        prompt_strategy = parse_strategy(strategy)
    except ValueError as exc:
        raise InputError(f"--strategy: {exc}") from None
    data = read_json(case_file)
    question, contexts, language = _case(data, case_file)
    client, note = choose_llm(llm, model=llm_model, base_url=llm_base_url)
    g = Guard(
        client, max_attempts=max_attempts, strategy=prompt_strategy, temperature=temperature,
        correction=correction, abstain=not no_abstain, stop_early=stop_early,  # type: ignore[arg-type]
    )
    result = g.answer(question, contexts, language=language, iteration=iteration, max_iterations=max_iterations)
    if note:
        result.notes.insert(0, f"backend {getattr(client, 'model', '?')}: {note}")
    if output_format == "json":
        typer.echo(result.model_dump_json(indent=2))
    else:
        _print_text(result)


def _case(data: Any, where: str) -> tuple[str, list[Any], str | None]:
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used

    if not isinstance(data, dict):
        raise InputError(f"{where}: expected a JSON object {{question, contexts}}")
    question = data.get("question")
    contexts = data.get("contexts", data.get("context"))
    if not isinstance(question, str) or not question.strip():
        raise InputError(f"{where}: 'question' must be a non-empty string")
    if isinstance(contexts, str):
        contexts = [contexts]
    if not isinstance(contexts, list):
        raise InputError(f"{where}: 'contexts' must be a list of strings or {{id, text}} objects")
    for i, c in enumerate(contexts, start=1):
        if not (isinstance(c, str) or (isinstance(c, dict) and isinstance(c.get("text", c.get("content")), str))):
            raise InputError(f"{where}: contexts[{i}] must be a string or an {{id, text}} object")
    language = data.get("language")
    if language is not None and not isinstance(language, str):
        raise InputError(f"{where}: 'language' must be a string")
    return question, contexts, language


def _print_text(result: Any) -> None:
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs
    from rich.table import Table  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.cli.render import marked_answer  # lazy: start-up: the CLI imports a command's code only when it runs

    console = Console()
    colour = {"low": "green", "moderate": "yellow", "high": "red"}[result.risk_level]
    console.print(f"[bold]Question:[/] {result.question}", highlight=False)
    console.print(marked_answer(result.answer, result.report.spans))
    console.print(
        f"[{colour}]{result.risk_level} risk ({result.risk_score:.2f})[/] · decision {result.decision} · "
        f"next action [bold]{result.action}[/]" + (" (accepted at the iteration limit)" if result.forced_accept else ""),
        highlight=False,
    )
    table = Table(title="Attempts", title_justify="left", header_style="bold")
    for col in ("#", "strategy", "risk", "kept", "LLM calls", "note"):
        table.add_column(col, justify="right" if col in ("#", "LLM calls") else "left")
    for a in result.attempts:
        risk = "" if a.risk_level is None else f"{a.risk_level} {a.risk_score:.2f}"
        table.add_row(str(a.index), a.strategy, risk, "yes" if a.accepted else "", str(a.llm_calls), a.error or a.note)
    console.print(table)
    for n in result.notes:
        console.print(f"[dim]{n}[/]", highlight=False)
