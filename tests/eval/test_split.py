"""The source-grouped split and its folds."""

from __future__ import annotations

import pytest

from hallucheck.eval.split import part_of, source_fold, source_key


def _record(i: int) -> dict[str, str]:
    return {"task_type": "QA", "query": f"question {i}", "context": f"passage {i}"}


def test_a_fold_is_a_function_of_the_source_and_independent_of_the_part() -> None:
    records = [_record(i) for i in range(600)]
    train = [r for r in records if part_of(r) == "train"]
    folds = [source_fold(source_key(r), 2) for r in train]
    # the six answers of a source share its key, so they share its fold
    assert folds == [source_fold(source_key(dict(r)), 2) for r in train]
    # both folds hold about half the train sources: the fold does not repeat the part's bucket
    assert 0.4 < sum(folds) / len(folds) < 0.6
    assert {source_fold(source_key(r), 3) for r in train} == {0, 1, 2}


def test_one_fold_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        source_fold(source_key(_record(0)), 1)
