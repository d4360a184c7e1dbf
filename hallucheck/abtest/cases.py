"""A/B test cases: a question, its sources, and what a good answer must mention.

Cases load from JSON Lines, a JSON list, or YAML (a list, or ``{cases: [...]}``). The demo set
ships in the package: the RAG prompting guide's customer-service questions in Traditional Chinese with English
counterparts, plus the RAG prompting guide's refund example (a condition that is easy to drop) and a question
the sources cannot answer (a phone number that tempts the model to invent one).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from hallucheck.errors import InputError
from hallucheck.types import Source

__all__ = ["ABCase", "load_cases", "demo_cases", "DEMO_SET"]

DEMO_SET = "customer_service"


class ABCase(BaseModel):
    """One test case; ``expected_keywords`` are matched case- and space-insensitively."""

    model_config = ConfigDict(extra="forbid")

    id: str = ""
    question: str = Field(min_length=1)
    contexts: list[Source] = Field(min_length=1)
    expected_keywords: list[str] = Field(default_factory=list)
    expected_answer: str = ""
    category: str = "general"
    language: str | None = None

    @field_validator("contexts", mode="before")
    @classmethod
    def _contexts(cls, v: Any) -> Any:
        from hallucheck.prevent.prompt_strategies import as_sources  # lazy: already loaded by the package; kept where it is used

        if isinstance(v, str):
            v = [v]
        return as_sources(v) if isinstance(v, list) else v


def _records(path: Path) -> list[Any]:
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        import yaml  # lazy: heavy: yaml loads only when this path runs

        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise InputError(f"{path}: not valid YAML ({exc})") from None
        except UnicodeDecodeError:
            raise InputError(f"{path}: not valid UTF-8") from None
        if isinstance(data, dict) and "cases" in data:
            data = data["cases"]
        if not isinstance(data, list):
            raise InputError(f"{path}: expected a list of cases (or a 'cases:' list)")
        return data
    if suffix == ".json":
        from hallucheck.jsonio import read_json  # lazy: loaded only on this path

        data = read_json(path)
        if isinstance(data, dict) and "cases" in data:
            data = data["cases"]
        if not isinstance(data, list):
            raise InputError(f"{path}: expected a JSON list of cases")
        return data
    from hallucheck.jsonio import iter_jsonl  # lazy: loaded only on this path

    return [value for _, value in iter_jsonl(path)]


def load_cases(path: str | Path) -> list[ABCase]:
    """Cases from a .jsonl / .json / .yaml file; InputError naming the case that is wrong."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    return _validate(_records(p), str(p))


def _validate(records: Iterable[Any], where: str) -> list[ABCase]:
    cases: list[ABCase] = []
    seen: set[str] = set()
    for n, rec in enumerate(records, start=1):
        if not isinstance(rec, dict):
            raise InputError(f"{where}: case {n}: expected an object, got {type(rec).__name__}")
        try:
            case = ABCase.model_validate(rec)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err.get("loc", ())) or "case"
            raise InputError(f"{where}: case {n}: {loc}: {err.get('msg', 'invalid')}") from None
        if not case.id:
            case.id = f"case-{n}"
        if case.id in seen:
            raise InputError(f"{where}: case {n}: duplicate id {case.id!r}")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise InputError(f"{where}: no cases")
    return cases


def demo_cases(name: str = DEMO_SET) -> list[ABCase]:
    """A demo set shipped in the package (``customer_service``)."""
    f = resources.files("hallucheck").joinpath("data", "abtest", f"{name}.jsonl")
    if not f.is_file():
        raise InputError(f"no demo set {name!r} (shipped: {DEMO_SET})")
    import json  # lazy: loaded only on this path

    lines = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    return _validate(lines, f"demo set {name}")
