"""The shipped place table is what its builder makes."""

from __future__ import annotations

from pathlib import Path

import pytest

import hallucheck

pytest.importorskip("babel")


def test_the_shipped_table_is_rebuilt_the_same(tmp_path: Path) -> None:
    from hallucheck.train.place_table import build

    out = tmp_path / "places.tsv"
    assert build(out) > 500
    assert out.read_text(encoding="utf-8") == (Path(hallucheck.__file__).parent / "data" / "places.tsv").read_text(encoding="utf-8")
