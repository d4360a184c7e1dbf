"""A real server process on loopback for the service tests (``python -m hallucheck.service``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TEST_DETECTORS = "citations,lexicon,test_marker"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    proc: subprocess.Popen[bytes]
    log: Path
    env: dict[str, str]
    port: int
    wrapped: bool = False  # started under a wrapper command (strace)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> None:
        """Signal the server. Under a wrapper (``strace -f``) the signal goes to the server itself,
        not the wrapper: strace would detach and exit and leave the server running."""
        if self.proc.poll() is None:
            target = (_only_child(self.proc.pid) if self.wrapped else None) or self.proc.pid
            os.kill(target, sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                if target != self.proc.pid:
                    _kill_quietly(target)
                self.proc.kill()
                self.proc.wait()


def _only_child(pid: int) -> int | None:
    """The one child process of ``pid`` (a wrapper's server), or None."""
    try:
        kids = [int(k) for task in Path(f"/proc/{pid}/task").iterdir()
                for k in (task / "children").read_text().split()]
    except OSError:
        return None
    return kids[0] if len(kids) == 1 else None


def _kill_quietly(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def start_server(tmp: Path, port: int | None = None, *, wrapper: Sequence[str] = (), **env_overrides: str) -> Server:
    """``wrapper``: a command the server runs under (``strace -f ...``)."""
    import httpx

    port = port or free_port()
    env = dict(os.environ)
    env.update({
        "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT), env.get("PYTHONPATH", "")]),
        "HALLUCHECK_PLUGINS": "hc_test_plugin",
        "HALLUCHECK_DB_URL": f"sqlite:///{tmp / 'checks.db'}",
        "HALLUCHECK_DETECTORS": TEST_DETECTORS,
        "HALLUCHECK_POLICY": "test_max",
        "HALLUCHECK_RATE_PER_SECOND": "1000",
        "HALLUCHECK_RATE_BURST": "1000",
        "HALLUCHECK_WARMUP": "en",
    })
    env.update(env_overrides)
    log = tmp / f"server-{port}.log"
    with log.open("ab") as fh:
        proc = subprocess.Popen(
            [*wrapper, sys.executable, "-m", "hallucheck.service", "--host", "127.0.0.1", "--port", str(port),
             "--log-level", "warning"],
            env=env, stdout=fh, stderr=subprocess.STDOUT, cwd=str(tmp),
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(url + "/healthz", timeout=1.0).status_code == 200:
                return Server(url=url, proc=proc, log=log, env=env, port=port, wrapped=bool(wrapper))
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"server did not start:\n{log.read_text()}")


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    started: list[Server] = []

    def make(wrapper: Sequence[str] = (), **env: str) -> Server:
        s = start_server(tmp_path, wrapper=wrapper, **env)
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server shared by a module's tests (starting one takes seconds); tests that count
    rows filter on their own batch or time window."""
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    s = start_server(tmp_path_factory.mktemp("server"))
    yield s
    s.stop()
