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
