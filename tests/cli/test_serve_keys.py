"""``hallucheck keys`` and ``hallucheck serve`` end to end: a key created with the CLI turns
authentication on for a running server, and revoking it shuts that key out."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

pytestmark = [pytest.mark.service, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hallucheck", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_keys_lifecycle_with_a_running_server(tmp_path):
    env = dict(os.environ, HALLUCHECK_DB_URL=f"sqlite:///{tmp_path / 'k.db'}", PYTHONPATH=str(ROOT))
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "hallucheck", "serve", "--port", str(port), "--detectors",
                             "citations", "--policy", "weighted", "--log-level", "warning"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        body = {"question": "q", "contexts": ["Lyon is in France."], "answer": "Lyon is in France [1]."}
        assert httpx.post(url + "/v1/check", json=body).status_code == 200  # no key exists: open

        made = cli("keys", "create", "test", env=env)
        assert made.returncode == 0, made.stderr
        key = json.loads(made.stdout)
        assert key["key"].startswith("hc_" + key["id"])
        listed = cli("keys", "list", env=env).stdout
        assert key["id"] in listed and key["key"] not in listed

        deadline = time.monotonic() + 15
        while httpx.post(url + "/v1/check", json=body).status_code != 401:
            assert time.monotonic() < deadline, "the new key did not turn authentication on"
            time.sleep(0.5)
        ok = httpx.post(url + "/v1/check", json=body, headers={"Authorization": "Bearer " + key["key"]})
        assert ok.status_code == 200
        # the check made before keys existed belongs to no key: the key sees only its own
        assert httpx.get(url + "/v1/checks", headers={"X-API-Key": key["key"]}).json()["total"] == 1

        assert cli("keys", "revoke", key["id"], env=env).returncode == 0
        assert cli("keys", "revoke", key["id"], env=env).returncode == 1
        deadline = time.monotonic() + 15
        while httpx.get(url + "/v1/checks", headers={"X-API-Key": key["key"]}).status_code != 401:
            assert time.monotonic() < deadline, "the revoked key was still accepted"
            time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(timeout=60)
