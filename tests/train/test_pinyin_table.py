"""The shipped pinyin table is what its builder makes."""

from __future__ import annotations

from pathlib import Path

import pytest

import hallucheck

pytest.importorskip("pypinyin")


def test_the_shipped_table_is_rebuilt_the_same(tmp_path: Path) -> None:
    from hallucheck.train.pinyin_table import build

    out = tmp_path / "pinyin.txt"
    assert build(out) > 20_000
    assert out.read_text(encoding="utf-8") == (Path(hallucheck.__file__).parent / "data" / "pinyin.txt").read_text(encoding="utf-8")
