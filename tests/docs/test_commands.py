"""Every shell command shown in README.md and docs/*.md is run, so the docs cannot drift.

Each ```bash block runs in real bash (``set -eo pipefail``) inside a sandbox that looks like a
checkout (the package, bench, tests and .ci linked in; small ``case.json``, ``log.jsonl``,
``data.jsonl``, a few RAGTruth answers under ``../shared``), with the stand-ins of
``shim.py`` first on PATH. The fast test checks every command against the real definitions (the
subcommand and each option exist, the bench script takes its options, the extra is in
pyproject.toml, the route answers on a real server); the slow one also runs the cheap commands
for real. A block that should not be run at all does not belong in a ```bash fence.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SHIM = HERE / "shim.py"
PROGRAMS = ("hallucheck", "python", "pip", "pytest", "curl", "cp", "nice", "bash")
RAGTRUTH = REPO.parent / "shared" / "data" / "ragtruth" / "train.jsonl.gz"
_FENCE = re.compile(r"^```(bash|sh|shell)[ \t]*\n(.*?)^```", re.S | re.M)

CASE = {
    "question": "How long is the reset link valid?",
    "contexts": [{"id": "FAQ-2", "text": "The reset link is valid for 24 hours."}],
    "answer": "The reset link is valid for 48 hours [FAQ-2].",
}


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def shell_blocks() -> list[tuple[str, int, str]]:
    """(file, line, text) of every ```bash / ```sh / ```shell block."""
    out = []
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append((str(path.relative_to(REPO)), line, m.group(2)))
    return out


BLOCKS = shell_blocks()


def _ids(block: tuple[str, int, str]) -> str:
    return f"{block[0]}:{block[1]}"


def test_the_docs_have_shell_blocks() -> None:
    files = {f for f, _, _ in BLOCKS}
    assert "README.md" in files and len(BLOCKS) >= 10


@pytest.fixture
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh checkout-like folder per block (blocks write files the next ones must not see)."""
    root = tmp_path_factory.mktemp("docs")
    repo = root / "repo"
    repo.mkdir()
    for name in ("hallucheck", "bench", "tests", ".ci", "pyproject.toml", "docs"):
        (repo / name).symlink_to(REPO / name)
    (repo / "case.json").write_text(json.dumps(CASE), encoding="utf-8")
    question = {"question": CASE["question"], "contexts": CASE["contexts"]}
    (repo / "question.json").write_text(json.dumps(question), encoding="utf-8")
    lines = "".join(json.dumps({"id": f"c{i}", **CASE}) + "\n" for i in range(3))
    for name in ("log.jsonl", "cases.jsonl"):
        (repo / name).write_text(lines, encoding="utf-8")
    labelled = [{**CASE, "label": True}, {**CASE, "answer": "The reset link is valid for 24 hours.", "label": False}]
    (repo / "data.jsonl").write_text("".join(json.dumps(r) + "\n" for r in labelled), encoding="utf-8")
    shared = root / "shared" / "data" / "ragtruth"
    shared.mkdir(parents=True)
    if RAGTRUTH.exists():  # a few hundred real answers, enough for every part of the split
        with gzip.open(RAGTRUTH, "rt", encoding="utf-8") as src:
            sample = [next(src) for _ in range(300)]
        for target in (shared / "train.jsonl.gz", repo / "data.jsonl.gz"):
            with gzip.open(target, "wt", encoding="utf-8") as dst:
                dst.writelines(sample)
    sys.path.insert(0, str(REPO / "tests" / "synth"))
    from corpus_data import write_corpus

    corpus = write_corpus(root / "corpus")
    for i in range(12):  # documents enough for every part of the split by document
        for src in sorted(corpus.glob("guide.*.html")):
            (corpus / src.name.replace("guide.", f"guide{i}.")).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    for name in ("my_docs", "SOURCE_DIR", "runs"):
        (repo / name).mkdir()
    bin_dir = root / "bin"
    bin_dir.mkdir()
    for program in PROGRAMS:
        script = bin_dir / program
        script.write_text(f'#!/bin/sh\nexec "$DOCS_PYTHON" "$DOCS_SHIM" {program} "$@"\n', encoding="utf-8")
        script.chmod(0o755)
    return repo


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real service on loopback for the docs' curl commands (cheap detectors)."""
    store = tmp_path_factory.mktemp("store")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HALLUCHECK_")}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hallucheck", "serve", "--port", str(port), "--db",
         f"sqlite:///{store / 'checks.db'}", "-d", "citations,lexicon,numbers", "-p", "tiered",
         "--log-level", "warning"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"the service did not start: {proc.stderr.read().decode()[-500:]}") from None
            time.sleep(0.2)
    try:
        yield str(port)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def run_block(text: str, sandbox: Path, mode: str, port: str = "") -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    log = sandbox.parent / f"calls-{time.monotonic_ns()}.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HALLUCHECK_")}
    env.update({
        "PATH": f"{sandbox.parent / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        "PYTHONPATH": str(REPO),
        "DOCS_REPO": str(REPO), "DOCS_MODE": mode, "DOCS_PORT": port, "DOCS_LOG": str(log),
        "DOCS_PYTHON": sys.executable, "DOCS_SHIM": str(SHIM), "DOCS_CORPUS": str(sandbox.parent / "corpus"),
        "DOCS_CURL": shutil.which("curl") or "/usr/bin/curl",
        "HALLUCHECK_CACHE_DIR": str(sandbox.parent / "cache"), "NO_COLOR": "1",
    })
    script = 'set -eo pipefail\nsource() { "$DOCS_PYTHON" "$DOCS_SHIM" source "$@"; }\n' + text
    proc = subprocess.run(["/bin/bash", "-c", script], cwd=sandbox, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=900, check=False)
    calls = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    return proc, calls


def _check(block: tuple[str, int, str], sandbox: Path, request: pytest.FixtureRequest, mode: str) -> list[dict]:
    where, line, text = block
    port = request.getfixturevalue("server") if "curl " in text else ""
    proc, calls = run_block(text, sandbox, mode, port)
    assert proc.returncode == 0, f"{where}:{line}: the block fails ({mode}):\n{text}\n{proc.stderr[-2000:]}"
    assert calls, f"{where}:{line}: no command of the block was reached"
    return calls


@pytest.mark.parametrize("block", BLOCKS, ids=_ids)
def test_every_documented_command_exists(block: tuple[str, int, str], sandbox: Path, request: pytest.FixtureRequest) -> None:
    _check(block, sandbox, request, "check")


@pytest.mark.slow
@pytest.mark.parametrize("block", BLOCKS, ids=_ids)
def test_every_documented_command_runs(block: tuple[str, int, str], sandbox: Path, request: pytest.FixtureRequest) -> None:
    if "ragtruth" in block[2] and not RAGTRUTH.exists():
        pytest.skip("needs the RAGTruth train file for its sample")
    _check(block, sandbox, request, "run")


def test_a_wrong_option_is_caught(sandbox: Path) -> None:
    """The check can fail: the README's old guard command is refused."""
    proc, _ = run_block("hallucheck guard --question ... --context ...", sandbox, "check")
    assert proc.returncode == 3 and "has no option --question" in proc.stderr
    proc, _ = run_block("pip install 'hallucheck[nonsense]'", sandbox, "check")
    assert proc.returncode == 3 and "no extra 'nonsense'" in proc.stderr
    proc, _ = run_block("python bench/load.py --no-such-flag", sandbox, "check")
    assert proc.returncode == 3
