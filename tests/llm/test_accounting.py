"""Price table parsing and cost metering."""

from __future__ import annotations

import json

import pytest

from hallucheck.errors import InputError
from hallucheck.llm.accounting import CostMeter, Price, PriceTable
from hallucheck.llm.base import Completion


def test_prefix_and_exact_prices() -> None:
    t = PriceTable.parse("gpt-4o=2.5/10, gpt-4o-mini=0.15/0.6")
    assert t.price("gpt-4o-mini-2024-07-18") == Price(0.15, 0.6)
    assert t.price("gpt-4o-2024-08-06") == Price(2.5, 10)
    assert t.price("llama3") == Price()
    assert t.usd("gpt-4o", 2_000_000, 1_000_000) == pytest.approx(15.0)


def test_json_file_and_mapping(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "prices.json"
    f.write_text(json.dumps({"m": {"prompt": 1, "completion": 2}, "n": [3, 4]}))
    t = PriceTable.parse(str(f))
    assert t.price("m") == Price(1, 2) and t.price("n") == Price(3, 4)


@pytest.mark.parametrize("bad", ["gpt-4o", "gpt-4o=1", "=1/2", "m=a/b"])
def test_bad_price_spec(bad: str) -> None:
    with pytest.raises(InputError):
        PriceTable.parse(bad)


def test_meter_counts_cached_calls_without_tokens() -> None:
    m = CostMeter()
    m.add(Completion("a", prompt_tokens=10, completion_tokens=2, usd=0.5))
    m.add(Completion("a", prompt_tokens=10, completion_tokens=2, cached=True))
    c = m.cost
    assert (c.llm_calls, c.cached_calls, c.prompt_tokens, c.completion_tokens, c.usd) == (2, 1, 10, 2, 0.5)
