"""What LLM calls cost: a per-model price table and a meter that sums Completions into a Cost.

Why a table and not built-in prices: list prices change and most deployments run local or
negotiated models, so the default is zero (local models are free) and users set their own
prices, in US dollars per million tokens, in code or via ``HALLUCHECK_LLM_PRICES``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hallucheck.errors import InputError
from hallucheck.llm.base import Completion
from hallucheck.types import Cost

__all__ = ["Price", "PriceTable", "CostMeter"]


@dataclass(frozen=True)
class Price:
    """US dollars per one million prompt / completion tokens."""

    prompt: float = 0.0
    completion: float = 0.0


@dataclass
class PriceTable:
    """Prices by model name; a name matches exactly or by the longest prefix ("gpt-4o" covers
    "gpt-4o-2024-08-06"). Unknown models cost 0."""

    prices: dict[str, Price] = field(default_factory=dict)

    def price(self, model: str) -> Price:
        if model in self.prices:
            return self.prices[model]
        best = ""
        for name in self.prices:
            if model.startswith(name) and len(name) > len(best):
                best = name
        return self.prices[best] if best else Price()

    def usd(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        p = self.price(model)
        return (prompt_tokens * p.prompt + completion_tokens * p.completion) / 1_000_000.0

    @classmethod
    def parse(cls, spec: str | Mapping[str, object] | None) -> PriceTable:
        """From ``"gpt-4o=2.5/10,claude-3-5-haiku=0.8/4"``, a JSON file path, or a mapping
        ``{model: [prompt, completion]}`` / ``{model: {"prompt": .., "completion": ..}}``."""
        if spec is None or spec == "":
            return cls()
        if isinstance(spec, str):
            path = Path(spec)
            if spec.strip().endswith(".json") and path.is_file():
                try:
                    spec = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, json.JSONDecodeError) as exc:
                    raise InputError(f"price table {spec}: {exc}") from None
            else:
                return cls({name: p for name, p in (_parse_item(i) for i in spec.split(",") if i.strip())})
        table: dict[str, Price] = {}
        for name, value in dict(spec).items():  # type: ignore[arg-type]
            if isinstance(value, Mapping):
                table[str(name)] = Price(float(value.get("prompt", 0.0)), float(value.get("completion", 0.0)))
            elif isinstance(value, (list, tuple)) and len(value) == 2:
                table[str(name)] = Price(float(value[0]), float(value[1]))
            else:
                raise InputError(f"price for {name!r} must be [prompt, completion] USD per 1M tokens")
        return cls(table)

    @classmethod
    def from_env(cls) -> PriceTable:
        return cls.parse(os.environ.get("HALLUCHECK_LLM_PRICES"))


def _parse_item(item: str) -> tuple[str, Price]:
    name, sep, rest = item.strip().partition("=")
    a, sep2, b = rest.partition("/")
    try:
        if not sep or not sep2 or not name.strip():
            raise ValueError
        return name.strip(), Price(float(a), float(b))
    except ValueError:
        raise InputError(f"bad price entry {item!r}; expected model=prompt/completion (USD per 1M tokens)") from None


class CostMeter:
    """Sums the Completions of one check into a :class:`~hallucheck.types.Cost`.

    Cached answers count as calls and as ``cached_calls`` but spend no tokens and no money.
    """

    def __init__(self) -> None:
        self.calls = 0
        self.cached = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.usd = 0.0

    def add(self, completion: Completion) -> None:
        self.calls += 1
        if completion.cached:
            self.cached += 1
            return
        self.prompt_tokens += int(completion.prompt_tokens)
        self.completion_tokens += int(completion.completion_tokens)
        self.usd += float(completion.usd)

    @property
    def cost(self) -> Cost:
        return Cost(
            llm_calls=self.calls,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cached_calls=self.cached,
            usd=round(self.usd, 8),
        )
