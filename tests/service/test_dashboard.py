"""The dashboard in headless Chromium: one check opened, its flagged spans highlighted.

Drives /usr/bin/chromium (Debian's package; .ci/setup-chromium.sh installs it) with plain
``--screenshot`` and ``--dump-dom`` against a real server on loopback, then checks the DOM
marks and counts screenshot pixels of the label colours the stylesheet gives those marks.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

pytestmark = [pytest.mark.browser, pytest.mark.service, pytest.mark.slow]

CHROMIUM = os.environ.get("HALLUCHECK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# The label colours of hallucheck/service/static/dashboard.css.
FABRICATION = (255, 140, 140)
INVALID_CITATION = (255, 90, 180)
SPECULATION = (190, 190, 255)

CASE = {
    "question": "Tell me about Paris.",
    "contexts": ["Paris is the capital of France. It has about two million inhabitants."],
    "answer": "Paris is the capital of France [1]. It was FABRICATED by the kings of the old empire, "
              "probably around the year 1200 [3]. It has about two million inhabitants.",
}


def read_png(path: Path) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and RGB pixels of an 8-bit RGB/RGBA PNG (what Chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and ctype in (2, 6)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        pixels.extend(tuple(line[x * bpp:x * bpp + 3]) for x in range(width))  # type: ignore[misc]
        prev = line
    return width, height, pixels


def chromium(url: str, out_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", f"--user-data-dir={out_dir / 'profile'}", "--window-size=1280,1000",
            "--hide-scrollbars", "--virtual-time-budget=15000", *extra, url]
    return subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=out_dir)


def test_check_view_highlights_spans(server, tmp_path):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("Chromium not installed (run .ci/setup-chromium.sh)")
    r = httpx.post(server.url + "/v1/check", json=CASE)
    assert r.status_code == 200, r.text
    check = r.json()
    labels = {s["label"] for s in check["report"]["spans"]}
    assert {"fabrication", "invalid_citation", "speculation"} <= labels
    url = f"{server.url}/dashboard#check={check['id']}"

    dom = chromium(url, tmp_path, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    html = dom.stdout
    assert check["id"] in html
    assert '<mark class="span lbl-fabrication"' in html and ">FABRICATED</mark>" in html
    assert html.count('<mark class="span ') == len(check["report"]["spans"])
    assert "Paris is the capital of France. It has about two million inhabitants." in html  # evidence shown
    assert 'data-figure="avg_risk"' in html and 'data-chart="high_risk_share"' in html

    shot = tmp_path / "check.png"
    res = chromium(url, tmp_path, f"--screenshot={shot}")
    assert res.returncode == 0 and shot.is_file(), res.stderr[-2000:]
    keep = os.environ.get("HALLUCHECK_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / "dashboard-check.png")
    width, height, pixels = read_png(shot)
    assert (width, height) == (1280, 1000)
    counts = Counter(pixels)
    # The marked words and the legend/tags are filled with the label colours: hundreds of pixels each.
    assert counts[FABRICATION] > 300, counts.most_common(12)
    assert counts[INVALID_CITATION] > 150
    assert counts[SPECULATION] > 300
    # ...and the page is not one flat colour (it rendered text, cards, tables).
    assert len(counts) > 50


class _DevTools:
    """A headless Chromium driven over the DevTools protocol (a websocket, stdlib + websockets)."""

    def __init__(self, profile: Path) -> None:
        import re
        import time

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
             "--disable-background-networking", "--disable-component-update", "--disable-dev-shm-usage",
             f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert self.proc.stderr is not None
        deadline = time.monotonic() + 60
        port = None
        while time.monotonic() < deadline and port is None:
            line = self.proc.stderr.readline()
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
        assert port, "Chromium did not open its DevTools port"
        pages = [t for t in httpx.get(f"http://127.0.0.1:{port}/json/list").json() if t["type"] == "page"]
        from contextlib import ExitStack

        from websockets.sync.client import connect

        self._stack = ExitStack()
        self.ws = self._stack.enter_context(connect(pages[0]["webSocketDebuggerUrl"], max_size=None))
        self.next_id = 0
        self.console: list[str] = []

    def call(self, method: str, **params: object) -> dict:  # type: ignore[type-arg]
        import json

        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=60))
            if msg.get("method") in ("Runtime.consoleAPICalled", "Log.entryAdded"):
                self.console.append(json.dumps(msg["params"]))
            if msg.get("id") == self.next_id:
                assert "error" not in msg, msg
                return msg["result"]  # type: ignore[no-any-return]

    def js(self, expression: str) -> object:
        out = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        return out["result"].get("value")

    def wait_for(self, expression: str, seconds: float = 30.0) -> object:
        import time

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {expression}")

    def close(self) -> None:
        self._stack.close()
        self.proc.kill()
        self.proc.wait()


def test_key_is_kept_in_session_storage_under_the_csp(server_factory, tmp_path):
    """With keys on, the page asks for a key; the key typed in is used for the API and kept in
    sessionStorage only; nothing on the page is blocked by its Content-Security-Policy."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("Chromium not installed (run .ci/setup-chromium.sh)")
    pytest.importorskip("websockets")
    key = "hc_dddd4444_secret-d-0123456789"
    srv = server_factory(HALLUCHECK_API_KEYS=key)
    assert httpx.post(srv.url + "/v1/check", json=CASE, headers={"X-API-Key": key}).status_code == 200
    browser = _DevTools(tmp_path / "profile")
    try:
        browser.call("Runtime.enable")
        browser.call("Log.enable")
        browser.call("Page.enable")
        browser.call("Page.navigate", url=srv.url + "/dashboard")
        assert browser.wait_for("document.readyState === 'complete' && !document.getElementById('keybox').hidden")
        browser.js(f"document.getElementById('apikey').value = {key!r}; document.getElementById('savekey').click(); 1")
        assert browser.wait_for("document.querySelectorAll('[data-figure]').length > 0")
        assert browser.js("sessionStorage.getItem('hallucheck.key')") == key
        assert browser.js("localStorage.getItem('hallucheck.key')") is None
        assert browser.js("document.cookie") == ""
        assert browser.js("document.getElementById('apikey').value") == ""
        blocked = [m for m in browser.console if "Content Security Policy" in m or "Refused to" in m]
        assert not blocked, blocked
    finally:
        browser.close()


def test_findings_table_shows_each_detector_flagged_state(server, tmp_path):
    """The findings table's "flagged" column is each finding's own ``flagged`` verdict, as the
    API serialises it: a detector that flagged the answer reads "true", one that did not "false"."""
    import re

    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip("Chromium not installed (run .ci/setup-chromium.sh)")
    r = httpx.post(server.url + "/v1/check", json=CASE)
    assert r.status_code == 200, r.text
    check = r.json()
    stored = httpx.get(f"{server.url}/v1/checks/{check['id']}").json()
    expected = {f["detector"]: ("error" if f.get("error") else str(bool(f["flagged"])).lower())
                for f in stored["report"]["findings"]}
    assert "true" in expected.values(), expected  # the case is built to be flagged by some detectors
    dom = chromium(f"{server.url}/dashboard#check={check['id']}", tmp_path, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    body = re.search(r'<table id="check-findings".*?<tbody>(.*?)</tbody>', dom.stdout, re.S)
    assert body is not None
    shown = {m.group(1): m.group(2) for m in re.finditer(r"<tr><td>([^<]*)</td><td>[^<]*</td><td>([^<]*)</td>", body.group(1))}
    assert shown == expected
