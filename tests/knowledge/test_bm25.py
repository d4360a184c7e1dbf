"""The local BM25 knowledge index: reading folders, search, verify, save and load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hallucheck.errors import InputError

pytest.importorskip("bm25s")

from hallucheck.knowledge.bm25 import BM25Index, read_passages


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text("Paris is the capital of France.\n\nThe Eiffel Tower was completed in 1889.", encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "b.jsonl").write_text(json.dumps({"id": "de", "text": "Berlin is the capital of Germany."}) + "\n\n", encoding="utf-8")
    (sub / "c.txt").write_text("长城位于中国北方。", encoding="utf-8")
    (tmp_path / "skip.pdf").write_bytes(b"%PDF")
    return tmp_path


def test_read_and_search(folder: Path) -> None:
    passages = read_passages(folder)
    assert [p.id for p in passages] == ["a.md#1", "a.md#2", "de", "sub/c.txt#1"]
    ix = BM25Index(passages)
    hits = ix.search("When was the Eiffel Tower completed?", k=2)
    assert hits and hits[0].id == "a.md#2" and hits[0].score > 0
    assert ix.search("zzzz unknown") == []


def test_verify(folder: Path) -> None:
    ix = BM25Index.from_folder(folder)
    ok = ix.verify("The Eiffel Tower was completed in 1889.")
    assert ok.supported and ok.confidence == 1.0 and "1889" in ok.evidence
    bad = ix.verify("The Eiffel Tower was painted blue.")
    assert not bad.supported


def test_save_and_load(folder: Path, tmp_path: Path) -> None:
    ix = BM25Index.from_folder(folder)
    ix.save(tmp_path / "index")
    again = BM25Index.load(tmp_path / "index")
    assert len(again) == len(ix) and again.search("capital Germany", 1)[0].id == "de"


def test_bad_inputs(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        read_passages(tmp_path / "missing")
    (tmp_path / "bad.jsonl").write_text("{not json}\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1"):
        read_passages(tmp_path)
    with pytest.raises(InputError, match="no BM25 index"):
        BM25Index.load(tmp_path)
    assert BM25Index([]).search("x") == []
