"""Fixtures for the repair tests."""

from __future__ import annotations

import pytest
from scripted_checker import ScriptedChecker


@pytest.fixture
def checker() -> ScriptedChecker:
    return ScriptedChecker()
