"""The per-record function and the process pool behind ``detect --batch`` and ``eval --workers``."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "cli"))

import cli_fakes  # noqa: F401 - registers fake_words and fake_any
from cli_fakes import CASE

from hallucheck.batch import CheckerSpec, apply_overrides, check_record, check_record_safe, checker_for, parallel_map
from hallucheck.errors import InputError

SPEC = CheckerSpec.of(["fake_words"], "fake_any")


def test_spec_is_hashable_picklable_and_cached() -> None:
    again = CheckerSpec.of(["fake_words"], "fake_any", detector_options={})
    assert again == SPEC and hash(again) == hash(SPEC)
    assert pickle.loads(pickle.dumps(SPEC)) == SPEC
    assert checker_for(SPEC) is checker_for(again)


def test_check_record_keeps_id_and_applies_overrides() -> None:
    out = check_record({"id": 7, **CASE}, SPEC, {"task": "summary", "language": None})
    assert list(out)[0] == "id" and out["id"] == 7
    assert out["hallucinated"] is True and out["task"] == "summary"
    assert apply_overrides({"id": 1, "task": "qa"}, {"task": "summary", "language": None}) == {"task": "summary"}


def test_invalid_records() -> None:
    with pytest.raises(InputError, match="contexts"):
        check_record({"answer": "a"}, SPEC)
    with pytest.raises(InputError, match="expected a JSON object"):
        check_record([1, 2], SPEC)  # type: ignore[arg-type]
    out = check_record_safe((4, {"id": "x", "answer": "a"}), SPEC)
    assert out["id"] == "x" and out["line"] == 4 and "contexts" in out["error"]


def _square(x: int) -> int:
    return x * x


def test_parallel_map_keeps_order() -> None:
    assert list(parallel_map(_square, range(20), workers=2, chunksize=3)) == [x * x for x in range(20)]
    assert list(parallel_map(_square, iter(range(5)), workers=1)) == [0, 1, 4, 9, 16]
    with pytest.raises(InputError):
        list(parallel_map(_square, range(3), workers=0))
