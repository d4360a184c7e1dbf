"""``hallucheck version``, ``hallucheck detectors``, ``hallucheck policies``: what is installed."""

from __future__ import annotations

import typer

from hallucheck.cli.root import app

__all__ = ["version", "detectors", "policies"]


@app.command()
def version() -> None:
    """Print the hallucheck version (and Python's)."""
    import platform  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck import __version__  # lazy: already loaded by the package; kept where it is used

    typer.echo(f"hallucheck {__version__} (Python {platform.python_version()}, {platform.system()} {platform.machine()})")


def _module_present(dotted: str) -> bool:
    import importlib.util  # lazy: already loaded by the package; kept where it is used

    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False


@app.command()
def detectors() -> None:
    """List the detectors by layer, which run by default, and which are installed."""
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs
    from rich.table import Table  # lazy: start-up: the CLI imports a command's code only when it runs

    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.detectors.base import _LAZY, LAYERS, available_detectors
    from hallucheck.policies.default import default_detectors  # lazy: start-up: the CLI imports a command's code only when it runs

    defaults = set(default_detectors())
    table = Table(title="Detectors (cheap layers first)", title_justify="left")
    table.add_column("name", style="bold")
    table.add_column("layer", justify="right")
    table.add_column("kind")
    table.add_column("default")
    table.add_column("status")
    for name, layer in sorted(available_detectors().items(), key=lambda kv: (kv[1], kv[0])):
        path = _LAZY.get(name, ("", 0))[0]
        module = path.partition(":")[0]
        present = not module or _module_present(module)
        needs = " (needs an LLM backend)" if layer == 5 and name != "claims" else ""
        table.add_row(
            name,
            str(layer),
            LAYERS.get(layer, "?"),
            "yes" if name in defaults else "",
            ("[green]available[/]" if present else "[dim]not installed[/]") + needs,
        )
    Console().print(table)


@app.command()
def policies() -> None:
    """List the policies and which one 'default' means here."""
    from rich.console import Console  # lazy: start-up: the CLI imports a command's code only when it runs
    from rich.table import Table  # lazy: start-up: the CLI imports a command's code only when it runs

    from hallucheck.policies.default import default_policy_name  # lazy: start-up: the CLI imports a command's code only when it runs

    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.policies.registry import _POLICIES, available_policies

    default = default_policy_name()
    table = Table(title="Policies", title_justify="left")
    table.add_column("name", style="bold")
    table.add_column("default")
    table.add_column("status")
    for name in available_policies():
        present = _module_present(_POLICIES[name].partition(":")[0])
        table.add_row(
            name,
            "yes" if name == default else "",
            "[green]available[/]" if present else "[dim]not installed[/]",
        )
    Console().print(table)
