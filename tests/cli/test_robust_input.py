"""Inputs that used to stop a batch or end in exit 70: unreadable lines, huge integers, lone
surrogates, a bad database URL, a missing optional part. Exit 70 is for bugs only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GOOD = {"question": "q", "contexts": ["The sky is blue."], "answer": "The sky is blue."}
FAKE = ("-d", "fake_words", "-p", "fake_any")
HUGE_INT = "9" * 5000


def _one_error_line(proc: subprocess.CompletedProcess[str], message: str, code: int) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("hallucheck: error: "), proc.stderr
    assert message in lines[0], lines[0]


def test_keep_going_survives_every_kind_of_bad_line(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "mixed.jsonl"
    rows = [
        json.dumps({"id": "first", **GOOD}).encode(),
        b'{"question": not json',
        b'{"question": "q", "answer": "\xff\xfe"}',
        ('{"question": "q", "contexts": ["a"], "answer": "b", "n": ' + HUGE_INT + "}").encode(),
        b'{"question": "q", "contexts": ["a"], "answer": "b \\ud800"}',
        json.dumps({"id": "last", **GOOD}).encode(),
    ]
    path.write_bytes(b"\n".join(rows) + b"\n")
    proc = invoke("detect", "--batch", str(path), *FAKE, "--keep-going")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == 6  # one line out for every line in, in order
    assert out[0]["id"] == "first" and "hallucinated" in out[0]
    assert out[5]["id"] == "last" and "hallucinated" in out[5]
    errors = {row["line"]: row["error"] for row in out[1:5]}
    assert "not valid JSON" in errors[2]
    assert "not valid UTF-8" in errors[3]
    assert "more than 4300 digits" in errors[4]
    assert "lone surrogate" in errors[5]
    assert "4 invalid" in proc.stderr


def test_without_keep_going_a_bad_line_stops_with_exit_2(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "big.jsonl"
    path.write_text(json.dumps(GOOD) + '\n{"answer": ' + HUGE_INT + "}\n", encoding="utf-8")
    _one_error_line(invoke("detect", "--batch", str(path), *FAKE), "line 2: not usable JSON", 2)


def test_huge_integer_and_lone_surrogate_in_one_case(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    big = tmp_path / "big.json"
    big.write_text('{"question": "q", "contexts": ["a"], "answer": "b", "n": ' + HUGE_INT + "}", encoding="utf-8")
    _one_error_line(invoke("detect", str(big), *FAKE), "an integer has more than 4300 digits", 2)
    for field, text in (
        ("answer", '"answer": "b \\udc00"'),
        ("contexts.0", '"answer": "b", "contexts": ["\\ud83d alone"]'),
    ):
        path = tmp_path / "sur.json"
        body = '{"question": "q", ' + text + ("" if "contexts" in text else ', "contexts": ["a"]') + "}"
        path.write_text(body, encoding="utf-8")
        _one_error_line(invoke("detect", str(path), *FAKE), f"invalid case: {field}: the text contains invalid Unicode", 2)
    # a proper pair (an emoji written as two escapes) is fine
    path = tmp_path / "pair.json"
    path.write_text('{"question": "q", "contexts": ["a"], "answer": "b \\ud83d\\ude00"}', encoding="utf-8")
    assert invoke("detect", str(path), *FAKE).returncode == 0


def test_make_case_refuses_lone_surrogates_like_the_service() -> None:
    from hallucheck.cases import make_case
    from hallucheck.errors import InputError

    with pytest.raises(InputError, match="metadata.a.0: the text contains invalid Unicode"):
        make_case(question="q", contexts=["x"], answer="y", metadata={"a": ["\udfff"]})


@pytest.mark.parametrize(
    ("url", "message", "code"),
    [
        ("foo://bar", "the store must be SQLite or PostgreSQL", 2),
        ("not a url", "not a database URL", 2),
        ("postgresql://nobody@127.0.0.1:1/none", "cannot use the database", 1),
    ],
)
def test_bad_db_url_is_not_an_internal_error(invoke, url: str, message: str, code: int) -> None:  # type: ignore[no-untyped-def]
    _one_error_line(invoke("keys", "list", "--db", url), message, code)


def _without(module: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the command line with ``module`` made unimportable, as if its extra were not installed."""
    code = f"import sys; sys.modules[{module!r}] = None; from hallucheck.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    return proc


@pytest.mark.parametrize(
    ("module", "args", "extra"),
    [
        ("fastapi", ("serve", "--port", "8799"), "service"),
        ("uvicorn", ("serve", "--port", "8799"), "service"),
        ("sqlalchemy", ("keys", "list"), "service"),
        ("torch", ("train", "--max-steps", "1", "--run-dir", "run"), "train"),
    ],
)
def test_missing_extra_says_what_to_install(module: str, args: tuple[str, ...], extra: str, tmp_path: Path) -> None:
    proc = _without(module, *args, cwd=tmp_path)
    _one_error_line(proc, f"pip install 'hallucheck[{extra}]'", 2)  # type: ignore[arg-type]


def test_nli_without_a_model_says_how_to_give_one(invoke, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from hallucheck.detectors.model import nli

    monkeypatch.delenv("HALLUCHECK_NLI_MODEL", raising=False)
    monkeypatch.setattr(nli, "SHIPPED_MODEL", tmp_path / "no-pair-model")  # an installation without it
    case = tmp_path / "case.json"
    case.write_text(json.dumps(GOOD), encoding="utf-8")
    proc = invoke("detect", str(case), "-d", "nli")
    _one_error_line(proc, "HALLUCHECK_NLI_MODEL=", 2)
    assert "pip install 'hallucheck[train]'" in proc.stderr
    monkeypatch.setenv("HALLUCHECK_NLI_MODEL", str(tmp_path / "nowhere"))
    _one_error_line(invoke("detect", str(case), "-d", "nli"), "is not a directory", 2)
