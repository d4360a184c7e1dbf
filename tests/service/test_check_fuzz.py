"""Fuzzed bodies against a real server with the default detectors and policy: no 500, no stream
that ends without its report or error event, and the server's peak memory stays under 1 GB."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hallucheck.policies.default import default_detectors, default_policy_name

httpx = pytest.importorskip("httpx")

pytestmark = [pytest.mark.service, pytest.mark.slow]

WORDS = ["Lyon", "France", "is", "not", "the", "city", "has", "500", "thousand", "2010", ".", " ", "[1]", "\n\n", "巴黎",
         "。", "\u200b", "\u00ad", "\u202d", "\u202c", "\ufeff", "\x00", "\x1b", "\x7f", "\u2028"]
_piece = st.one_of(
    st.sampled_from(WORDS),
    st.text(st.characters(codec="utf-8"), max_size=10),
    st.text("0123456789", min_size=1, max_size=60),
    st.sampled_from([309, 400]).map(lambda n: "1" * n),  # past what a float holds
)
_text = st.lists(_piece, max_size=20).map("".join)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=8,
)
_case = st.fixed_dictionaries(
    {"question": _text, "answer": _text,
     "contexts": st.one_of(st.lists(_text, min_size=1, max_size=3),
                           st.lists(st.text(st.characters(codec="utf-8"), max_size=1), min_size=1, max_size=200),
                           st.lists(st.fixed_dictionaries({"id": st.text(st.characters(codec="utf-8"), max_size=6), "text": _text}),
                                    min_size=1, max_size=3))},
    optional={
        "task": st.sampled_from(["qa", "summary", "data2txt", "dialogue", "generic", "chat"]),
        "language": st.sampled_from(["en", "zh", "de", "xx"]),
        "metadata": st.dictionaries(_text, _json, max_size=3),
        "citations_expected": st.booleans(),
    },
)
# a case whose fields may be of any JSON type or missing
_odd_case = st.dictionaries(st.sampled_from(["question", "answer", "contexts", "context", "task", "language", "metadata",
                                             "citations_expected", "extra"]), _json, max_size=5)


def _body(case: Any, path: str, surrogate: bool) -> bytes:
    if path == "/v1/check/batch":
        case = {"cases": [case]}
    text = json.dumps(case, ensure_ascii=True)
    if surrogate:  # a lone surrogate, which only an escape can carry in JSON
        text = text.replace('"answer": "', '"answer": "\\ud800', 1)
    return text.encode()


_cases = (st.tuples(st.sampled_from(["/v1/check", "/v1/check/batch", "/v1/check/stream"]), _case,
                   st.sampled_from([False] * 9 + [True]))
          .map(lambda t: (t[0], _body(t[1], t[0], t[2]))))
_bodies = st.one_of(
    _cases, _cases, _cases,
    st.tuples(st.sampled_from(["/v1/check", "/v1/check/stream"]), _json | _odd_case)
      .map(lambda t: (t[0], json.dumps(t[1]).encode())),
    st.tuples(st.just("/v1/check"), st.binary(max_size=200)),
)


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc/<pid>/status")


@pytest.mark.timeout(900)
def test_fuzzed_bodies_never_get_a_500(server_factory: Any, record_property: Any) -> None:
    srv = server_factory(HALLUCHECK_DETECTORS=",".join(default_detectors()), HALLUCHECK_POLICY=default_policy_name())
    client = httpx.Client(base_url=srv.url, timeout=120.0)  # a hang fails the request; the server's own limit is 60 s
    statuses: dict[int, int] = {}

    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(body=_bodies)
    def post(body: tuple[str, bytes]) -> None:
        path, content = body
        r = client.post(path, content=content, headers={"content-type": "application/json"})
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        # 503 (overloaded) and 504 (past the request deadline) are the service's answers to load on a busy host
        assert r.status_code < 500 or r.status_code in (503, 504), (path, r.status_code, r.text[:500], content[:300])
        if path == "/v1/check/stream" and r.status_code == 200:
            events = [json.loads(line)["event"] for line in r.text.splitlines() if line.strip()]
            assert events and events[-1] in ("report", "error"), (events, content[:300])

    try:
        post()
    finally:
        client.close()
    assert statuses.get(200, 0) > 0, statuses  # some bodies were checked, not all refused
    peak = _peak_rss_mb(srv.proc.pid)
    record_property("server_peak_rss_mb", round(peak))
    record_property("statuses", statuses)
    assert peak < 1024, peak
    log = srv.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
