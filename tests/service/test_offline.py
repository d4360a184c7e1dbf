"""A running service makes no name lookup and opens no connection beyond loopback.

The server runs under ``strace -f`` with the ONNX tagger loaded (the ``model`` detector): the
telemetry uploader of official ONNX Runtime builds resolves its vendor host about ten seconds
after the runtime starts, so the trace covers 25 s after start-up, with a check in between.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

pytestmark = [pytest.mark.service, pytest.mark.slow]

_LOOPBACK = ('inet_addr("127.', 'inet_pton(AF_INET6, "::1"', "sun_path=")
_LOOKUP = re.compile(r"htons\(53\)|nscd|systemd-resolve|/run/dbus", re.IGNORECASE)


def outside_calls(trace: str) -> list[str]:
    """Trace lines that resolve a name or reach a host other than this one."""
    bad = []
    for line in trace.splitlines():
        if "connect(" not in line and "sendto(" not in line and "sendmsg(" not in line:
            continue
        if _LOOKUP.search(line) or ("AF_INET" in line) and not any(tag in line for tag in _LOOPBACK[:2]):
            bad.append(line)
    return bad


def test_outside_calls_sees_a_lookup():
    """The filter itself: a DNS query and a remote connect are caught, loopback is not."""
    dns = '912 connect(8, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = 0'
    remote = '912 connect(9, {sa_family=AF_INET6, sin6_port=htons(443), inet_pton(AF_INET6, "2603:1030::1", ...)}, 28)'
    local = '912 connect(7, {sa_family=AF_INET, sin_port=htons(8000), sin_addr=inet_addr("127.0.0.1")}, 16) = 0'
    assert outside_calls(f"{dns}\n{remote}\n{local}") == [dns, remote]


def test_running_service_makes_no_name_lookup(server_factory, tmp_path: Path, monkeypatch):
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    pytest.importorskip("onnxruntime")
    from hallucheck.models.tagger import tagger_available

    if not tagger_available():
        pytest.skip("no shipped tagger to load")
    monkeypatch.delenv("ORT_DISABLE_TELEMETRY", raising=False)
    trace = tmp_path / "trace.txt"
    t0 = time.monotonic()
    srv = server_factory(
        wrapper=[strace, "-f", "-e", "trace=connect,sendto,sendmsg", "-o", str(trace)],
        HALLUCHECK_DETECTORS="citations,model", HALLUCHECK_POLICY="weighted",
    )
    body = {"question": "Where is the plant?", "contexts": ["The plant opened in 2011 in Lyon."],
            "answer": "The plant opened in 2011 in Paris."}
    r = httpx.post(srv.url + "/v1/check", json=body, timeout=60)
    assert r.status_code == 200, r.text
    assert any(f["detector"] == "model" and f["error"] is None for f in r.json()["report"]["findings"])
    time.sleep(max(0.0, 25.0 - (time.monotonic() - t0)))
    srv.stop()
    text = trace.read_text(errors="replace")
    assert "+++ exited" in text, "strace did not trace the server"
    bad = outside_calls(text)
    assert not bad, "the service reached outside the machine:\n" + "\n".join(bad[:10])
