"""``hallucheck demo``: the default checker on the bundled examples (English, Chinese, German, French).

This is the first command a new user runs, so it needs no input, no network and no model
download, and it shows the text view that ``hallucheck detect --format text`` gives.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from hallucheck.cli.options import DETECTORS_OPTION, POLICY_OPTION
from hallucheck.cli.root import app

__all__ = ["demo", "example_cases"]


def example_cases() -> dict[str, dict[str, Any]]:
    """The bundled example cases by name (file stem), in order."""
    from importlib import resources  # lazy: already loaded by the package; kept where it is used

    folder = resources.files("hallucheck").joinpath("data/examples")
    out: dict[str, dict[str, Any]] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            out[entry.name[: -len(".json")]] = json.loads(entry.read_text(encoding="utf-8"))
    return out


@app.command()
def demo(
    names: list[str] | None = typer.Argument(None, help="Which examples (default: all); see --list."),
    list_only: bool = typer.Option(False, "--list", help="List the bundled examples and stop."),
    output_format: str = typer.Option("text", "--format", "-f", help="text (default) or json."),
    detectors: str | None = DETECTORS_OPTION,
    policy: str = POLICY_OPTION,
) -> None:
    """Check the bundled example answers and show what hallucheck finds in each."""
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs
    from rich.rule import Rule  # lazy: start-up: the CLI imports a command's code only when it runs
    from rich.text import Text  # lazy: start-up: the CLI imports a command's code only when it runs

    # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.cli.options import OUTPUT_FORMATS, check_policy, parse_detectors
    from hallucheck.errors import InputError  # lazy: already loaded by this module's imports; kept where it is used

    if output_format not in OUTPUT_FORMATS:
        raise InputError(f"unknown --format {output_format!r} (known: {', '.join(OUTPUT_FORMATS)})")
    examples = example_cases()
    console = Console()
    if list_only:
        for name, case in examples.items():
            meta = case.get("metadata", {})
            console.print(Text.assemble((f"{name:<24}", "bold"), meta.get("title", ""), ("  " + meta.get("note", ""), "dim")))
        return
    chosen = list(names or examples)
    for name in chosen:
        if name not in examples:
            matches = [n for n in examples if name in n]
            if len(matches) > 1:
                raise InputError(f"example {name!r} names {len(matches)} examples ({', '.join(matches)}): give more of its name")
            if not matches:
                raise InputError(f"unknown example {name!r} (known: {', '.join(examples)})")
            chosen[chosen.index(name)] = matches[0]
    det_names = parse_detectors(detectors)
    check_policy(policy)

    from rich.table import Table  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.checker import Checker, make_case  # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.cli.render import LEVEL_STYLES, render_report  # lazy: start-up: the CLI imports a command's code only when it runs

    checker = Checker(detectors=det_names, policy=policy)
    if output_format == "json":
        for name in chosen:
            report = checker.check(make_case(examples[name]))
            typer.echo(json.dumps({"example": name, **report.model_dump(mode="json")}, ensure_ascii=False))
        return
    console.print(
        Text.assemble(
            ("hallucheck demo", "bold"),
            f" · detectors: {', '.join(checker.detector_names)} · policy: {checker.policy.name}",
            style="",
        )
    )
    cases = {name: make_case(examples[name]) for name in chosen}
    with console.status("loading language tables…", spinner="dots"):
        for built in cases.values():
            checker.check(built)  # the first check of a language loads its tables; time the second
    summary = Table(title="Summary", title_justify="left", header_style="bold")
    for col in ("example", "language", "verdict", "risk", "spans", "labels", "ms"):
        summary.add_column(col, justify="right" if col in ("risk", "spans", "ms") else "left")
    for name, built in cases.items():
        meta = built.metadata
        console.print(Rule(Text(name, style="dim")))
        if meta.get("note"):
            console.print(Text(f"What is wrong here: {meta['note']}", style="italic"))
        report = checker.check(built)
        render_report(console, built, report, title=meta.get("title", name))
        console.print()
        summary.add_row(
            name,
            report.language,
            Text(report.decision, style=LEVEL_STYLES.get(report.risk_level, "")),
            f"{report.risk_score:.2f}",
            str(len(report.spans)),
            ", ".join(sorted({s.label for s in report.spans})),
            f"{report.timings_ms.get('total', 0.0):.1f}",
        )
    if len(cases) > 1:
        console.print(summary)
    console.print(
        Text.assemble(
            ("Next: ", "bold"),
            "check your own answer with ",
            ("hallucheck detect case.json --format text", "cyan"),
            " (case.json: {\"question\", \"contexts\", \"answer\"}), or evaluate on labelled data with ",
            ("hallucheck eval DATA.jsonl --format generic", "cyan"),
            ".",
        )
    )
