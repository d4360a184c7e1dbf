"""POST /v1/guard in-process: a scripted LLM and checker, the stored result, and the errors."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from scripted_checker import ScriptedChecker

from hallucheck.llm.fake import FakeLLM
from hallucheck.service.app import create_app
from hallucheck.service.context import ServiceContext
from hallucheck.service.routes_guard import set_guard_llm
from hallucheck.service.settings import Settings

BODY = {"question": "How long is the link valid?", "contexts": [{"id": "FAQ-2", "text": "The link is valid for 24 hours."}]}


@pytest.fixture
def app(tmp_path, monkeypatch):
    for name in ("BACKEND", "MODEL", "MODEL_PATH", "BASE_URL", "DEPLOYMENT"):
        monkeypatch.delenv(f"HALLUCHECK_LLM_{name}", raising=False)
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'g.db'}", detectors=("citations",), policy="tiered", auth=False,
                        retention_days=None, rate_per_second=1000.0, rate_burst=1000)
    ctx = ServiceContext.build(settings)
    ctx.checker = ScriptedChecker()  # type: ignore[assignment]
    return create_app(settings, context=ctx)


def test_guard_generates_repairs_and_stores(app):
    llm = FakeLLM(["It is valid for HIGH HIGH.", "The link is valid for 24 hours [source:FAQ-2]."])
    set_guard_llm(app, llm)
    with TestClient(app) as client:
        r = client.post("/v1/guard", json={**BODY, "max_attempts": 2})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["answer"] == "The link is valid for 24 hours [source:FAQ-2]."
        assert [a["strategy"] for a in body["attempts"]] == ["generate", "temperature_adjustment", "pass_through"]
        assert body["action"] == "synthesize" and body["risk_level"] == "low" and body["repaired"]
        assert "[source:FAQ-2]" in llm.calls[0].prompt
        stored = client.get(f"/v1/checks/{body['id']}")
        assert stored.status_code == 200
        got = stored.json()
        assert got["case"]["answer"] == body["answer"]
        assert got["case"]["metadata"]["guard"]["strategies"][0] == "generate"


def test_guard_in_a_loop_near_the_limit(app):
    set_guard_llm(app, FakeLLM(["HIGH HIGH."]))
    with TestClient(app) as client:
        r = client.post("/v1/guard", json={**BODY, "iteration": 4, "max_iterations": 5, "contexts": ["plain text"]})
        body = r.json()
        assert r.status_code == 200, r.text
        assert body["forced_accept"] and body["risk_level"] == "high" and body["action"] == "synthesize"


def test_guard_without_llm_is_503(app):
    with TestClient(app) as client:
        r = client.post("/v1/guard", json=BODY)
        assert r.status_code == 503 and r.json()["error"]["code"] == "llm_not_configured"


@pytest.mark.parametrize(
    "payload",
    [{"contexts": []}, {**BODY, "strategy": "magic"}, {**BODY, "max_attempts": 99}, {**BODY, "iteration": 1},
     {**BODY, "extra": 1}],
)
def test_guard_bad_requests(app, payload):
    set_guard_llm(app, FakeLLM(["x"]))
    with TestClient(app) as client:
        r = client.post("/v1/guard", json=payload)
        assert r.status_code == 422 and "error" in r.json()


class _SlowLLM(FakeLLM):
    """Answers like FakeLLM, but only after ``delay`` seconds (an LLM server that hangs)."""

    def __init__(self, *args, delay: float, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.delay = delay

    async def acomplete(self, messages, **settings):
        import asyncio

        await asyncio.sleep(self.delay)
        return self.complete(messages, **settings)


def test_guard_past_the_request_deadline_is_504_and_stores_nothing(tmp_path, monkeypatch):
    import time

    for name in ("BACKEND", "MODEL", "MODEL_PATH", "BASE_URL", "DEPLOYMENT"):
        monkeypatch.delenv(f"HALLUCHECK_LLM_{name}", raising=False)
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'slow.db'}", detectors=("citations",), policy="tiered", auth=False,
                        retention_days=None, rate_per_second=1000.0, rate_burst=1000, request_timeout_s=0.5)
    ctx = ServiceContext.build(settings)
    ctx.checker = ScriptedChecker()  # type: ignore[assignment]
    app = create_app(settings, context=ctx)
    set_guard_llm(app, _SlowLLM(["The link is valid for 24 hours [source:FAQ-2]."], delay=5.0))
    with TestClient(app) as client:
        t0 = time.monotonic()
        r = client.post("/v1/guard", json=BODY)
        took = time.monotonic() - t0
        assert r.status_code == 504, r.text
        assert r.json()["error"]["code"] == "timeout"
        assert took < 4.0
        assert client.get("/v1/checks").json()["total"] == 0


# ---- admission by cost, like /v1/check -------------------------------------------------------

def _admission_app(tmp_path, monkeypatch, **overrides):
    for name in ("BACKEND", "MODEL", "MODEL_PATH", "BASE_URL", "DEPLOYMENT"):
        monkeypatch.delenv(f"HALLUCHECK_LLM_{name}", raising=False)
    options = {"db_url": f"sqlite:///{tmp_path / 'adm.db'}", "detectors": ("citations",), "policy": "tiered", "auth": False,
               "retention_days": None, "rate_per_second": 1000.0, "rate_burst": 1000, "workers": 2,
               "small_request_chars": 1000, **overrides}
    settings = Settings(**options)
    ctx = ServiceContext.build(settings)
    ctx.checker = ScriptedChecker()  # type: ignore[assignment]
    return create_app(settings, context=ctx), ctx


def _guard_in_background(client):  # type: ignore[no-untyped-def]
    """A guard request sent from another thread: join the thread, then read ``out["guard"]``."""
    import threading

    out = {}
    t = threading.Thread(target=lambda: out.setdefault("guard", client.post("/v1/guard", json=BODY)))
    t.start()
    return t, out


SMALL_CHECK = {"question": "How long?", "contexts": ["The link is valid for 24 hours."], "answer": "24 hours [1]."}
HEAVY_CHECK = {**SMALL_CHECK, "answer": "The link is valid for 24 hours [1]. " * 40}


def test_a_guard_is_admitted_by_cost_and_heavy_ones_leave_small_checks_alone(tmp_path, monkeypatch):
    """One heavy slot, one small: a guard (its prompt plus the answer it may get is over the small
    lane's 1,000 characters) holds the heavy slot while its LLM writes, so a heavy check waits for
    it, and a small check goes straight through."""
    import time

    from hallucheck.service.routes_guard import guard_chars
    from hallucheck.types import Source

    assert guard_chars(BODY["question"], [Source(**BODY["contexts"][0])]) > 1000
    app, ctx = _admission_app(tmp_path, monkeypatch)
    set_guard_llm(app, _SlowLLM(["The link is valid for 24 hours [source:FAQ-2]."], delay=1.5))
    with TestClient(app) as client:
        t, out = _guard_in_background(client)
        time.sleep(0.4)
        assert ctx.admission.snapshot()["heavy"]["running"] == 1  # the guard holds the heavy slot
        t0 = time.monotonic()
        small = client.post("/v1/check", json=SMALL_CHECK)
        small_s = time.monotonic() - t0
        t0 = time.monotonic()
        heavy = client.post("/v1/check", json=HEAVY_CHECK)
        heavy_s = time.monotonic() - t0
        t.join()
        assert small.status_code == 200 and small_s < 0.8, (small.status_code, small_s)
        assert out["guard"].status_code == 200, out["guard"].text
        assert heavy.status_code == 200 and heavy_s > 0.5, (heavy.status_code, heavy_s)  # waited for the guard
        assert ctx.admission.snapshot()["heavy"]["running"] == 0  # handed back


def test_a_guard_over_capacity_or_rate_gets_the_same_json_as_a_check(tmp_path, monkeypatch):
    import time

    app, ctx = _admission_app(tmp_path, monkeypatch, max_waiting=0)
    set_guard_llm(app, _SlowLLM(["The link is valid for 24 hours [source:FAQ-2]."], delay=1.0))
    with TestClient(app) as client:
        t, out = _guard_in_background(client)
        time.sleep(0.3)
        refused = [client.post("/v1/guard", json=BODY), client.post("/v1/check", json=HEAVY_CHECK)]
        t.join()
        assert out["guard"].status_code == 200
        for r in refused:
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "overloaded" and int(r.headers["retry-after"]) >= 1
        assert client.get("/v1/checks").json()["total"] == 1  # the first guard only

    app, ctx = _admission_app(tmp_path, monkeypatch, rate_per_second=0.001, rate_burst=4)
    set_guard_llm(app, FakeLLM(["The link is valid for 24 hours [source:FAQ-2]."]))
    with TestClient(app) as client:
        assert client.post("/v1/guard", json={**BODY, "max_attempts": 2}).status_code == 200  # 1 + 2 tokens
        limited = [client.post("/v1/guard", json={**BODY, "max_attempts": 2}), client.post("/v1/check", json=SMALL_CHECK),
                   client.post("/v1/check", json=SMALL_CHECK)]
        assert limited[1].status_code == 200  # the last token
        for r in (limited[0], limited[2]):
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited" and "retry-after" in r.headers
