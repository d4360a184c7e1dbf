"""The tagger's source views: cached across answers, within a bound on the characters they cover."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from hallucheck.models import tagger_evidence


def test_view_cache_is_bounded_in_characters(monkeypatch: pytest.MonkeyPatch, tokenizer) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(tagger_evidence, "_CACHE", OrderedDict())
    monkeypatch.setattr(tagger_evidence, "_CACHE_CHARS", 5_000)
    for i in range(12):
        texts = (f"The plant in town {i} opened in {1950 + i}. " * 40, "It employs 300 people.")  # ~1,600 chars
        view = tagger_evidence.source_view(texts, "en", tokenizer)
        assert tagger_evidence.source_view(texts, "en", tokenizer) is view
        held = sum(sum(map(len, key[0])) for key in tagger_evidence._CACHE)
        assert held <= 5_000
    assert len(tagger_evidence._CACHE) == 3
    huge = ("A very long source. " * 500,)
    tagger_evidence.source_view(huge, "en", tokenizer)
    assert [key[0] for key in tagger_evidence._CACHE] == [huge]
