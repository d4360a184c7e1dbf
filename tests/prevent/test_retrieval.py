"""The retrieval guard keeps confident chunks and says when to fall back."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from hallucheck.errors import InputError
from hallucheck.prevent.retrieval import filter_retrieved


def test_drops_chunks_under_the_threshold_and_sorts_the_rest():
    result = filter_retrieved(
        [{"id": "a", "text": "A", "score": 0.75}, {"id": "b", "text": "B", "score": 0.2}, {"id": "c", "text": "C", "score": 0.9}]
    )
    assert [c.id for c in result.chunks] == ["c", "a"] and [c.id for c in result.dropped] == ["b"]
    assert not result.should_fallback and result.confidence == "high"
    assert [s.id for s in result.contexts] == ["c", "a"]


def test_nothing_confident_means_fall_back():
    result = filter_retrieved([("weak", 0.3), ("weaker", 0.1)], threshold=0.7)
    assert result.should_fallback and result.confidence == "low" and result.chunks == []
    assert "best score 0.3" in result.reason
    assert filter_retrieved([]).should_fallback


def test_distances_and_limits():
    result = filter_retrieved([("near", 0.1), ("far", 0.9), ("mid", 0.3)], threshold=0.5, higher_is_better=False, max_chunks=1)
    assert [c.text for c in result.chunks] == ["near"] and len(result.dropped) == 2
    assert filter_retrieved([("x", 0.9)], min_chunks=2).should_fallback


def test_objects_with_attributes_get_positional_ids():
    @dataclass
    class Doc:
        page_content: str
        score: float

    result = filter_retrieved([Doc("one", 0.8), Doc("two", 0.95)])
    assert [(c.id, c.text) for c in result.chunks] == [("2", "two"), ("1", "one")]


@pytest.mark.parametrize("bad", [{"text": "x"}, {"text": "x", "score": float("nan")}, {"score": 0.9}, {"text": "x", "score": True}])
def test_bad_items_are_input_errors(bad):
    with pytest.raises(InputError, match="retrieved item 1"):
        filter_retrieved([bad])
