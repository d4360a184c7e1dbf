"""POST /v1/guard with stop_early: the streamed first answer is stopped at its rejected sentence."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from scripted_checker import ScriptedChecker

from hallucheck.llm.fake import FakeLLM
from hallucheck.service.app import create_app
from hallucheck.service.context import ServiceContext
from hallucheck.service.routes_guard import set_guard_llm
from hallucheck.service.settings import Settings

BODY = {"question": "How long is the link valid?", "contexts": [{"id": "FAQ-2", "text": "The link is valid for 24 hours."}]}
BAD = "The link is valid for 24 hours [source:FAQ-2]. It is CRIT forever. Then more text follows, and more after it."
GOOD = "The link is valid for 24 hours [source:FAQ-2]."


def test_guard_stop_early_over_http(tmp_path, monkeypatch):
    for name in ("BACKEND", "MODEL", "MODEL_PATH", "BASE_URL", "DEPLOYMENT"):
        monkeypatch.delenv(f"HALLUCHECK_LLM_{name}", raising=False)
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'g.db'}", detectors=("citations",), policy="tiered", auth=False,
                        retention_days=None, rate_per_second=1000.0, rate_burst=1000, warmup=())
    ctx = ServiceContext.build(settings)
    ctx.checker = ScriptedChecker()  # type: ignore[assignment]
    app = create_app(settings, context=ctx)
    llm = FakeLLM([BAD, GOOD], stream_piece=4)
    set_guard_llm(app, llm)
    with TestClient(app) as client:
        r = client.post("/v1/guard", json={**BODY, "stop_early": True})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["stopped_early"] is True and llm.calls[0].stopped
        assert body["attempts"][0]["answer"] == "The link is valid for 24 hours [source:FAQ-2]. It is CRIT forever."
        assert body["answer"] == GOOD
        stored = client.get(f"/v1/checks/{body['id']}").json()
        assert stored["case"]["answer"] == GOOD
        assert stored["case"]["metadata"]["guard"]["stopped_early"] is True
