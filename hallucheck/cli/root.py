"""The root typer ``app`` of the ``hallucheck`` command line, on which every command module
registers its commands (a module of its own, so that the command modules and the package's
``__init__``, which imports them, do not import each other)."""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(
    name="hallucheck",
    help="Find hallucinations in RAG answers: grounded or not, which spans, why.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)
