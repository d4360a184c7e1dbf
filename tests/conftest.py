"""Shared test fixtures: small cases, and the path to the RAGTruth training data."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RAGTRUTH = ROOT.parent / "shared" / "data" / "ragtruth" / "train.jsonl.gz"


@pytest.fixture
def ragtruth_path() -> Path:
    if not RAGTRUTH.is_file():
        pytest.skip("RAGTruth training data not found beside the project")
    return RAGTRUTH
