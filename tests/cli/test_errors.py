"""Every kind of bad input gives one clear line on stderr, a non-zero exit code and no traceback.

Most cases run in this process through ``main()`` (the same error handling as the script, and
fast); ``test_as_a_user_runs_it`` runs a sample of them in a subprocess through
``python -m hallucheck``, exactly as a user would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GOOD = {"question": "q", "contexts": ["The sky is blue."], "answer": "The sky is blue."}


def _assert_error(proc, message: str, code: int = 2) -> None:  # type: ignore[no-untyped-def]
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("hallucheck: error: ")
    assert message in lines[0], lines[0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty input"),
        (b"   \n", "empty input"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "expected a JSON object"),
        (b'"just a string"', "expected a JSON object"),
        (json.dumps({"question": "q", "contexts": ["x"]}).encode(), "invalid case: answer: Field required"),
        (json.dumps({"question": "q", "answer": "a"}).encode(), "invalid case: contexts: Field required"),
        (json.dumps({**GOOD, "answer": 5}).encode(), "invalid case: answer"),
        (json.dumps({**GOOD, "contexts": 7}).encode(), "contexts must be a list"),
        (json.dumps({**GOOD, "contexts": []}).encode(), "at least one source"),
        (json.dumps({**GOOD, "task": "poem"}).encode(), "invalid case: task"),
        (json.dumps({**GOOD, "colour": "red"}).encode(), "invalid case: colour"),
        (b'{"question": "q", "contexts": ["x"], "answer": "\xff\xfe"}', "not valid UTF-8"),
    ],
    ids=lambda v: "" if isinstance(v, str) else str(v[:40]),
)
def test_detect_bad_case_file(invoke, tmp_path: Path, content: bytes, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "case.json"
    path.write_bytes(content)
    _assert_error(invoke("detect", str(path)), message)


def test_detect_huge_answer(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "huge.json"
    path.write_text(json.dumps({**GOOD, "answer": "x" * 200_001}), encoding="utf-8")
    _assert_error(invoke("detect", str(path)), "the limit is 200000")
    path.write_text(json.dumps({**GOOD, "contexts": ["y" * 5_000_001]}), encoding="utf-8")
    _assert_error(invoke("detect", str(path)), "the limit is 5000000")


def test_detect_bad_stdin(invoke) -> None:  # type: ignore[no-untyped-def]
    _assert_error(invoke("detect", "-", stdin="nope"), "<stdin>: not valid JSON")


def test_missing_file_and_directory(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _assert_error(invoke("detect", "missing.json"), "missing.json: no such file")
    _assert_error(invoke("detect", str(tmp_path)), "is a directory")
    _assert_error(invoke("eval", "missing.jsonl"), "missing.jsonl: no such file")
    _assert_error(invoke("detect", "--batch", "missing.jsonl"), "no such file")


def test_bad_options(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "case.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    _assert_error(invoke("detect", str(path), "--detectors", "ngram,nope"), "unknown detector 'nope'")
    _assert_error(invoke("detect", str(path), "--policy", "magic"), "unknown policy 'magic'")
    _assert_error(invoke("detect", str(path), "--format", "xml"), "unknown --format 'xml'")
    _assert_error(invoke("detect", str(path), "--batch", str(path)), "either one CASE.json")
    _assert_error(invoke("detect", "--batch", str(path), "--workers", "0"), "--workers must be at least 1")
    _assert_error(invoke("detect", str(path), "--detectors", " , "), "at least one detector")


def test_train_language_policies_checks_its_options_before_any_detector_runs(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cases = str(tmp_path)
    _assert_error(invoke("train-language-policies", str(tmp_path / "none")), "not a folder")
    _assert_error(invoke("train-language-policies", cases, "--extra-cases", str(tmp_path / "none")), "--extra-cases")
    _assert_error(invoke("train-language-policies", cases, "--extra-parts", "dev"), "give train, calib or both")
    _assert_error(invoke("train-language-policies", cases, "--groups", "xx"), "unknown group(s) xx")
    _assert_error(invoke("train-language-policies", cases, "--tagger-stage-drop", "nope"), "unknown detector(s) nope")
    _assert_error(invoke("train-language-policies", cases), "no *.zh-Hans.jsonl")


def test_batch_bad_lines_name_the_line(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = json.dumps(GOOD)
    cases = {
        "empty.jsonl": (b"", "no records"),
        "broken.jsonl": (f"{good}\n{{oops\n".encode(), "line 2: not valid JSON"),
        "binary.jsonl": (f"{good}\n".encode() + b'{"answer": "\xff"}\n', "line 2: not valid UTF-8"),
        "invalid.jsonl": (f"{good}\n{good}\n" + json.dumps({"answer": "a"}) + "\n", "line 3: invalid case: contexts"),
        "array.jsonl": (b"[1]\n", "line 1: expected a JSON object"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        _assert_error(invoke("detect", "--batch", str(path), "-d", "fake_words", "-p", "fake_any"), message)


def test_batch_keep_going_writes_error_lines(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "mixed.jsonl"
    path.write_text(json.dumps({"id": "a", **GOOD}) + "\n" + json.dumps({"id": "b", "answer": "x"}) + "\n", encoding="utf-8")
    proc = invoke("detect", "--batch", str(path), "-d", "fake_words", "-p", "fake_any", "--keep-going")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert lines[0]["id"] == "a" and "hallucinated" in lines[0]
    assert lines[1]["id"] == "b" and lines[1]["line"] == 2 and "contexts" in lines[1]["error"]
    assert "skipped line 2" in proc.stderr


def test_eval_bad_data(invoke, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "data.jsonl"
    path.write_text(json.dumps({**GOOD, "label": False}) + "\n" + json.dumps({**GOOD}) + "\n", encoding="utf-8")
    _assert_error(invoke("eval", str(path), "--format", "generic", "-d", "fake_words", "-p", "fake_any", "-q"), "line 2: needs 'label'")
    _assert_error(invoke("eval", str(path), "--format", "csv"), "unknown --format 'csv'")
    _assert_error(invoke("eval", str(path), "--split", "dev", "--format", "generic"), "line 1: record has no 'part' field")
    _assert_error(invoke("eval", str(path), "--limit", "0"), "--limit must be at least 1")
    _assert_error(invoke("eval", str(path), "--html", str(tmp_path / "no" / "r.html")), "does not exist")


def test_internal_errors_have_no_traceback(invoke, case_file: Path) -> None:  # type: ignore[no-untyped-def]
    # Writing the output into a folder that does not exist is an OS error: exit 1, one line.
    proc = invoke("detect", str(case_file), "-d", "fake_words", "-p", "fake_any", "--out", "nowhere/out.json")
    _assert_error(proc, "No such file or directory", code=1)


def test_as_a_user_runs_it(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broken = tmp_path / "broken.json"
    broken.write_bytes(b"{not json")
    _assert_error(run_cli("detect", str(broken), fakes_loaded=False), "not valid JSON")
    _assert_error(run_cli("detect", "missing.json", fakes_loaded=False), "missing.json: no such file")
    _assert_error(run_cli("detect", "-", stdin=b"\xff\xfe", fakes_loaded=False), "<stdin>: not valid UTF-8")
    lines = tmp_path / "lines.jsonl"
    lines.write_text(json.dumps(GOOD) + "\n{oops\n", encoding="utf-8")
    _assert_error(run_cli("eval", str(lines), "--format", "generic", fakes_loaded=False), "line 2: not valid JSON")
    proc = run_cli("detect", fakes_loaded=False)  # no argument: usage help, exit 2, no traceback
    assert proc.returncode == 2 and "Traceback" not in proc.stderr + proc.stdout
