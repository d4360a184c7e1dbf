"""Fixtures of the model tests: the shipped English tagger's tokenizer."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    """The shipped tagger's word-piece tokenizer, without padding or truncation (skips without it)."""
    from hallucheck.models.tagger import TAGGER_DIR, tagger_available

    if not tagger_available():
        pytest.skip("no shipped tagger")
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(TAGGER_DIR / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return tok
