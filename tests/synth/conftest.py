"""Fixtures of the case generator tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.synth.corpus_data import write_corpus


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """A folder with ``guide.en.html`` and its translation ``guide.zh-cn.html``."""
    return write_corpus(tmp_path / "docs")
