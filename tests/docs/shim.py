"""Stand-ins for the programs that the shell commands of README.md and docs/*.md call.

``test_commands.py`` runs every shell block of the docs with real bash, in a sandbox, with a
folder of small scripts first on ``PATH``: ``hallucheck``, ``python``, ``pip``, ``pytest``,
``curl``, ``cp``, ``nice``, ``bash`` and a ``source`` function all call this program as
``shim.py NAME ARGS...``. It checks what the command names exists — the subcommand and every
option (from the real command-line definition), the bench script and its options (from its own
``--help``), the extras and pins in pyproject.toml, the test paths, the HTTP route — and then

- in ``run`` mode runs the cheap ones for real (``detect``, ``demo``, ``eval`` on a few answers,
  ``data synth`` on a tiny corpus, ``guard`` with the offline backend, ``curl`` against a real
  server on loopback);
- in ``check`` mode, and for what needs hours, a model download or root (``train``,
  ``serve``, ``pip install``, ``bash .ci/run``, a bench run), stops after the checks.

Every call is appended to ``$DOCS_LOG`` so the test can tell that each command was reached.
Exit status: 0 when the command is true, 3 with a message on stderr when the docs are wrong.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import NoReturn

REPO = Path(os.environ["DOCS_REPO"])
MODE = os.environ.get("DOCS_MODE", "check")
PORT = os.environ.get("DOCS_PORT", "")
PY = os.environ.get("DOCS_PYTHON", sys.executable)

# hallucheck subcommands that finish in seconds on tiny data: run for real in run mode.
RUNNABLE = {"detect", "demo", "detectors", "policies", "version", "guard", "eval", "data synth"}
# Options added when a command runs for real, so it stays cheap (appended only when absent).
CHEAP_OPTIONS = {"eval": ["--limit", "6"], "guard": ["--llm", "extractive"]}


def wrong(message: str) -> NoReturn:
    sys.stderr.write(f"docs command is wrong: {message}\n")
    raise SystemExit(3)


def log(name: str, args: list[str], action: str) -> None:
    if action == "checked":
        sys.stdin.buffer.read()  # a command not run still takes what a pipe sends, as the real one would
    path = os.environ.get("DOCS_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"program": name, "args": args, "action": action}) + "\n")


def run(cmd: list[str], stdin: bool = True) -> int:
    return subprocess.run(cmd, stdin=None if stdin else subprocess.DEVNULL, check=False).returncode


# ---- hallucheck ------------------------------------------------------------------------------


def _resolve(args: list[str]) -> tuple[list[str], object]:
    """The subcommand path and the command object that ``args`` reach (groups have ``commands``)."""
    import typer.main

    from hallucheck.cli import app

    cmd: object = typer.main.get_command(app)
    path: list[str] = []
    rest = list(args)
    while hasattr(cmd, "commands") and rest and not rest[0].startswith("-"):
        sub = cmd.commands.get(rest[0])
        if sub is None:
            wrong(f"hallucheck has no command {' '.join([*path, rest[0]])!r}")
        path.append(rest.pop(0))
        cmd = sub
    if hasattr(cmd, "commands") and not any(a in ("--help", "-h") for a in rest):
        wrong(f"'hallucheck {' '.join(path)}' needs a subcommand")
    return path, cmd


def check_hallucheck(args: list[str]) -> list[str]:
    """Check the subcommand and its options exist; the subcommand path."""
    path, cmd = _resolve(args)
    known: set[str] = {"--help", "-h"}
    for param in cmd.params:  # type: ignore[attr-defined]
        if getattr(param, "param_type_name", "") == "option":
            known.update(param.opts)
            known.update(param.secondary_opts)
    for arg in args[len(path):]:
        if arg.startswith("-") and arg != "-" and not re.fullmatch(r"-\d+(\.\d+)?", arg):
            name = arg.split("=", 1)[0]
            if name not in known:
                wrong(f"'hallucheck {' '.join(path)}' has no option {name} (known: {', '.join(sorted(known))})")
    return path


def hallucheck(args: list[str]) -> int:
    path = check_hallucheck(args)
    key = " ".join(path)
    if MODE != "run" or key not in RUNNABLE:
        log("hallucheck", args, "checked")
        return 0
    args = list(args)
    for opt, *value in [CHEAP_OPTIONS[key]] if key in CHEAP_OPTIONS else []:
        if opt not in args:
            args += [opt, *value]
    if key == "data synth":
        args = _tiny_synth(args)
    log("hallucheck", args, "ran")
    return run([PY, "-m", "hallucheck", *args])


def _tiny_synth(args: list[str]) -> list[str]:
    """``data synth`` on the sandbox's tiny corpus (English and Chinese documents) instead."""
    out = list(args)
    out[2] = os.environ["DOCS_CORPUS"]
    if "--lang" in out:
        i = out.index("--lang") + 1
        if out[i] not in ("en", "zh-Hans"):
            out[i] = "en"
    if "--out" in out:
        target = Path(out[out.index("--out") + 1])
        target.parent.mkdir(parents=True, exist_ok=True)
    return out


# ---- python -----------------------------------------------------------------------------------


def _help_options(cmd: list[str]) -> str:
    proc = subprocess.run([*cmd, "--help"], capture_output=True, text=True, timeout=120, check=False)
    if proc.returncode != 0:
        wrong(f"{' '.join(cmd)} --help failed: {proc.stderr.strip()[-300:]}")
    return proc.stdout


def _check_options_in_help(cmd: list[str], args: list[str]) -> None:
    text = _help_options(cmd)
    for arg in args:
        if arg.startswith("--"):
            name = arg.split("=", 1)[0]
            if not re.search(re.escape(name) + r"\b", text):
                wrong(f"{' '.join(cmd)} has no option {name}")


def _check_imports(code: str) -> None:
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        wrong(f"python -c code does not parse: {exc}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                importlib.import_module(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            module = importlib.import_module(node.module)
            for alias in node.names:
                if not hasattr(module, alias.name):
                    wrong(f"{node.module} has no {alias.name}")


def python(args: list[str]) -> int:
    if args[:2] == ["-m", "hallucheck"]:
        return hallucheck(args[2:])
    if args[:1] == ["-m"]:
        module = args[1]
        if importlib.util.find_spec(module) is None:
            wrong(f"no module {module}")
        if module == "hallucheck.service":
            _check_options_in_help([PY, "-m", "hallucheck", "serve"], args[2:])
        elif module == "hallucheck.service.migrations":
            # Takes a database URL: upgrade a fresh SQLite file in the sandbox instead of the docs' server.
            url = f"sqlite:///{Path.cwd() / 'migrated.db'}"
            real = [url if re.match(r"\w+(\+\w+)?://", a) else a for a in args[2:]]
            code = run([PY, "-m", module, *real], stdin=False)
            log("python", args, "ran")
            return code
        else:
            _check_options_in_help([PY, "-m", module], args[2:])
        log("python", args, "checked")
        return 0
    if args[:1] == ["-c"]:
        _check_imports(args[1])
        log("python", args, "checked")
        return 0
    if args and args[0].endswith(".py"):
        script = REPO / args[0]
        if not script.is_file():
            wrong(f"no script {args[0]}")
        _check_options_in_help([PY, str(script)], args[1:])
        log("python", args, "checked")
        return 0
    wrong(f"python {' '.join(args)}: no rule for this form in tests/docs/shim.py")


# ---- pip, pytest, curl, files ------------------------------------------------------------------


def pip(args: list[str]) -> int:
    if not args or args[0] != "install":
        wrong(f"pip {' '.join(args)}: only 'pip install' is documented")
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    pins = " ".join([*project.get("dependencies", []), *(d for v in extras.values() for d in v)])
    for arg in args[1:]:
        if arg in ("-e", "-U", "--upgrade", "."):
            continue
        m = re.fullmatch(r"(?:\.|hallucheck)\[([\w,-]+)\]", arg)
        if m:
            for extra in m.group(1).split(","):
                if extra not in extras:
                    wrong(f"pyproject.toml has no extra {extra!r}")
        elif "==" in arg:
            if arg not in pins:
                wrong(f"{arg} is not the version pinned in pyproject.toml")
        else:
            wrong(f"pip install {arg}: install hallucheck or one of its extras")
    log("pip", args, "checked")
    return 0


def pytest(args: list[str]) -> int:
    for arg in args:
        if not arg.startswith("-") and not (REPO / arg.split("::")[0]).exists():
            wrong(f"no test path {arg}")
    log("pytest", args, "checked")
    return 0


def curl(args: list[str]) -> int:
    urls = [a for a in args if re.match(r"(https?://)?(localhost|127\.0\.0\.1):8000", a)]
    if not urls:
        wrong(f"curl {' '.join(args)}: the docs' server is localhost:8000")
    if not PORT:
        wrong("curl needs the sandbox server (DOCS_PORT)")
    real = [a.replace(":8000", f":{PORT}") if a in urls else a for a in args]
    curl = os.environ.get("DOCS_CURL", "/usr/bin/curl")
    proc = subprocess.run([curl, "-sS", "-w", "\n%{http_code}", *real], capture_output=True, text=True, check=False)
    body, _, status = proc.stdout.rpartition("\n")
    if proc.returncode != 0:
        wrong(f"curl {' '.join(args)}: {proc.stderr.strip()}")
    # A documented example id is not in the sandbox's store: a JSON 404 for it is the right answer.
    example_id = any(re.search(r"/v1/checks/[0-9a-f]{32}", u) for u in urls)
    if not (status.startswith("2") or (status == "404" and example_id and body.startswith("{"))):
        wrong(f"curl {' '.join(args)} answered HTTP {status}: {body[:300]}")
    sys.stdout.write(body + ("\n" if body and not body.endswith("\n") else ""))
    log("curl", args, "ran")
    return 0


def cp(args: list[str]) -> int:
    paths = [a for a in args if not a.startswith("-")]
    if len(paths) < 2 or not (REPO / paths[-1]).exists():
        wrong(f"cp {' '.join(args)}: the destination does not exist in the repository")
    log("cp", args, "checked")
    return 0


def bash_or_source(name: str, args: list[str]) -> int:
    if args and args[0].startswith(".ci/"):
        if not (REPO / args[0]).is_file():
            wrong(f"no script {args[0]}")
        log(name, args, "checked")  # never run: installs system packages, needs root, takes long
        return 0
    if name == "source":
        wrong(f"source {' '.join(args)}: no rule for this form in tests/docs/shim.py")
    return run(["/bin/bash", *args])


def main(argv: list[str]) -> int:
    name, args = argv[0], argv[1:]
    if name == "hallucheck":
        return hallucheck(args)
    if name == "python":
        return python(args)
    if name == "pip":
        return pip(args)
    if name == "pytest":
        return pytest(args)
    if name == "curl":
        return curl(args)
    if name == "cp":
        return cp(args)
    if name == "nice":
        rest = args[2:] if args[:1] == ["-n"] else args
        return run(rest) if rest else 0
    if name in ("bash", "source"):
        return bash_or_source(name, args)
    wrong(f"no stand-in for {name} {shlex.join(args)}")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
