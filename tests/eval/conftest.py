"""Evaluation tests share the fake detectors and policy of the command-line tests."""

from __future__ import annotations

import sys
from pathlib import Path

FAKES = Path(__file__).resolve().parents[1] / "cli"
if str(FAKES) not in sys.path:
    sys.path.insert(0, str(FAKES))

import cli_fakes  # noqa: E402,F401 - registers fake_words, fake_crash and fake_any
