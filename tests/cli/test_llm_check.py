"""``hallucheck llm-check`` against a scripted chat server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "llm"))

from llm_testkit import ChatServer, Reply, openai_reply

from hallucheck.cli import main


def run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_reports_a_usable_backend(capsys: pytest.CaptureFixture[str]) -> None:
    with ChatServer() as server:
        server.push(openai_reply("```json\n{\"hallucination_risk\": 0.0, \"claims\": [],}\n```", prompt_tokens=30))
        code = run(["llm-check", "--llm-base-url", server.url + "/v1", "--llm-model", "m"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["json_usable"] is True and out["json_repaired"] is True and out["prompt_tokens"] == 30


def test_failing_backend_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HALLUCHECK_LLM_MAX_RETRIES", "0")
    with ChatServer() as server:
        server.default = Reply(500, {"error": "down"})
        code = run(["llm-check", "--llm-base-url", server.url + "/v1", "--llm-model", "m"])
    err = capsys.readouterr().err
    assert code == 1 and "HTTP 500" in err and "Traceback" not in err


def test_nothing_configured(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BACKEND", "BASE_URL", "MODEL", "MODEL_PATH", "DEPLOYMENT"):
        monkeypatch.delenv(f"HALLUCHECK_LLM_{name}", raising=False)
    assert run(["llm-check"]) == 2 and "no LLM configured" in capsys.readouterr().err
