"""Fixtures for command-line tests: fake detectors/policy on the path, and a CLI runner in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import cli_fakes  # noqa: E402,F401 - registers fake_words, fake_crash and fake_any
from cli_fakes import CASE  # noqa: E402


@pytest.fixture
def case_file(tmp_path: Path) -> Path:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(CASE), encoding="utf-8")
    return path


@pytest.fixture
def run_cli(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m hallucheck ARGS`` (with the fakes importable) and capture its output."""

    def run(*args: str, stdin: str | bytes | None = None, fakes_loaded: bool = True) -> subprocess.CompletedProcess[str]:
        path = os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PYTHONPATH": path, "NO_COLOR": "1", "COLUMNS": "120"}
        with_fakes = [sys.executable, "-c", "import cli_fakes; from hallucheck.cli import main; main()"]
        cmd = with_fakes if fakes_loaded else [sys.executable, "-m", "hallucheck"]
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        proc = subprocess.run([*cmd, *args], input=data, capture_output=True, cwd=tmp_path, env=env, timeout=120)
        return subprocess.CompletedProcess(
            proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
        )

    return run


@pytest.fixture
def invoke(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the command line in this process through ``main()`` (the same error handling as the script)."""
    import io

    from hallucheck.cli import main

    def run(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("NO_COLOR", "1")
        monkeypatch.setenv("COLUMNS", "120")
        if stdin is not None:
            data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out = capsys.readouterr()
        return subprocess.CompletedProcess(["hallucheck", *args], code, out.out, out.err)

    return run
