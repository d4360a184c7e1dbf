"""Reading JSON and JSON Lines with messages that name the file and line."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from hallucheck.errors import InputError
from hallucheck.jsonio import iter_jsonl, read_json


def test_read_json(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}')  # a byte-order mark is tolerated
    assert read_json(path) == {"a": 1}
    path.write_bytes(b'{"a": ')
    with pytest.raises(InputError, match=r"a.json: not valid JSON \(.* line 1 column 7\)"):
        read_json(path)
    with pytest.raises(InputError, match="no such file"):
        read_json(tmp_path / "missing.json")


def test_iter_jsonl_gzip_blank_lines_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write('{"n": 1}\n\n{"n": 2}\n')
    assert list(iter_jsonl(path)) == [(1, {"n": 1}), (3, {"n": 2})]
    bad = tmp_path / "b.jsonl"
    bad.write_text('{"n": 1}\n7\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 2: expected a JSON object, got int"):
        list(iter_jsonl(bad))
    assert list(iter_jsonl(bad, require_objects=False))[1] == (2, 7)
    notgz = tmp_path / "c.jsonl.gz"
    notgz.write_bytes(b"plain text, not gzip")
    with pytest.raises(InputError, match="cannot read"):
        list(iter_jsonl(notgz))


def test_json_line_is_one_line_that_reads_back_the_same() -> None:
    from hallucheck.jsonio import json_line

    value = {"answer": "a\u2028b\u2029c\x85d\ne", "lang": "中文"}
    line = json_line(value)
    assert line.endswith("\n") and len(line.splitlines()) == 1
    assert "中文" in line
    import json

    assert json.loads(line) == value
