"""The ``hallucheck`` command line.

Layout: ``root.py`` holds the typer ``app``, this module ``main()``; every command group lives in
its own module, which registers its commands on ``app`` when imported. To add a command:

1. create ``hallucheck/cli/<name>.py`` that does ``from hallucheck.cli.root import app`` and decorates
   its functions with ``@app.command()`` (or builds a ``typer.Typer()`` and calls
   ``app.add_typer(sub, name="<name>")`` for a group of subcommands);
2. add ``<name>`` to the one import line at the bottom of this module.

Rules that keep the command line fast and friendly:

- import nothing heavy at module level in a command module (checker, pydantic models, numpy,
  onnxruntime, fastapi): import inside the command function, so ``hallucheck --help`` stays fast;
- raise ``hallucheck.errors.InputError`` (or any ``HallucheckError``) for bad input: ``main()``
  turns it into a one-line message on stderr and exit code 2, never a traceback
  (see ``hallucheck/cli/errors.py`` for all exit codes);
- write machine output (JSON) to stdout and progress and messages to stderr.
"""

from __future__ import annotations

# One module per command group; each registers its commands on ``app`` when imported.
from hallucheck.cli import abtest, calibrate, data, demo, detect, eval, guard, info, keys, llm, serve, train  # noqa: F401
from hallucheck.cli.errors import run
from hallucheck.cli.root import app

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``hallucheck`` script and of ``python -m hallucheck``."""
    run(app, argv)
