"""``hallucheck guard``: a guarded answer as JSON or text, and clear errors."""

from __future__ import annotations

import json

import pytest

QUESTION = {"question": "How long is the reset link valid?", "language": "en",
            "contexts": [{"id": "FAQ-2", "text": "The password reset link is valid for 24 hours."}]}


def test_guard_json(invoke, tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps(QUESTION), encoding="utf-8")
    proc = invoke("guard", str(path), "--llm", "extractive")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert "24 hours" in result["answer"] and "[source:FAQ-2]" in result["answer"]
    assert result["attempts"][0]["strategy"] == "generate" and result["action"] in ("synthesize", "refine_search")
    assert any("no language model" in n for n in result["notes"])


def test_guard_text_from_stdin_in_a_loop(invoke):
    proc = invoke("guard", "-", "--llm", "extractive", "--format", "text", "--iteration", "1", "--max-iterations", "5",
                  stdin=json.dumps(QUESTION))
    assert proc.returncode == 0, proc.stderr
    assert "next action" in proc.stdout and "Attempts" in proc.stdout


@pytest.mark.parametrize(
    ("payload", "args", "message"),
    [
        ({"contexts": ["a"]}, [], "'question'"),
        ({"question": "Q", "contexts": 5}, [], "'contexts'"),
        (QUESTION, ["--iteration", "1"], "together"),
        (QUESTION, ["--strategy", "magic"], "--strategy"),
        (QUESTION, ["--correction", "burn"], "--correction"),
    ],
)
def test_guard_bad_input(invoke, payload, args, message):
    proc = invoke("guard", "-", "--llm", "extractive", *args, stdin=json.dumps(payload))
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_guard_stop_early_flag(invoke, tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps(QUESTION), encoding="utf-8")
    proc = invoke("guard", str(path), "--llm", "extractive", "--stop-early")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    # the extractive stand-in writes its answer whole: the guard says so and goes on
    assert result["stopped_early"] is False
    assert any("cannot stream" in n for n in result["notes"])
