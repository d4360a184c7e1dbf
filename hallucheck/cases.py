"""Building a validated Case from what callers hand in: a Case, a mapping or keyword fields.

Every entry point (Python API, CLI, HTTP service, streaming, data loaders) goes through
``make_case`` so that a bad case fails the same way everywhere: one ``InputError`` naming the
field, never a pydantic traceback, and the size limits below hold for all of them. It sits at the
bottom floor so that detectors and loaders can build cases without importing the checker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from hallucheck.errors import InputError
from hallucheck.types import Case

__all__ = ["make_case", "check_size", "MAX_ANSWER_CHARS", "MAX_SOURCE_CHARS"]

MAX_ANSWER_CHARS = 200_000
MAX_SOURCE_CHARS = 5_000_000


def check_size(answer_chars: int, source_chars: int, *, max_answer_chars: int | None = None,
               max_source_chars: int | None = None, where: str = "") -> None:
    """InputError when a field is over its limit, naming the limit that applied.

    One limit per field: the caller's own (a service's settings) when it is tighter than the
    package's, else the package's. Every entry point words the refusal the same way, so the
    CLI, the Python API and the HTTP service (422) say the same thing about the same case.
    """
    answer_limit = min(max_answer_chars or MAX_ANSWER_CHARS, MAX_ANSWER_CHARS)
    if answer_chars > answer_limit:
        raise InputError(f"{where}answer is {answer_chars} characters; the limit is {answer_limit}")
    source_limit = min(max_source_chars or MAX_SOURCE_CHARS, MAX_SOURCE_CHARS)
    if source_chars > source_limit:
        raise InputError(f"{where}sources are {source_chars} characters; the limit is {source_limit}")


def make_case(case: Case | Mapping[str, Any] | None = None, **fields: Any) -> Case:
    """A validated Case from a Case, a mapping, or keyword fields; InputError on bad input."""
    if isinstance(case, Case):
        return case
    data: dict[str, Any] = dict(case or {})
    data.update({k: v for k, v in fields.items() if v is not None})
    where = _lone_surrogate_at(data)
    if where is not None:
        # JSON may carry a lone surrogate (\ud800) that no UTF-8 output or store can hold; the
        # HTTP service refuses it too.
        raise InputError(f"invalid case: {where}: the text contains invalid Unicode (a lone surrogate)")
    if "contexts" not in data and "context" in data:
        data["contexts"] = data.pop("context")
    try:
        built = Case.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "case"
        raise InputError(f"invalid case: {where}: {err.get('msg', 'invalid value')}") from None
    if not built.contexts:
        raise InputError("invalid case: contexts: at least one source is needed to check an answer against")
    check_size(len(built.answer), sum(len(s.text) for s in built.contexts))
    return built


_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate_at(data: Mapping[str, Any]) -> str | None:
    """The path of the first string (key or value) holding a surrogate code point, else None.

    Iterative, so metadata nested thousands of levels deep cannot exhaust the stack here.
    """
    stack: list[tuple[str, Any]] = [(str(k), v) for k, v in data.items()]
    for key in data:
        if isinstance(key, str) and _SURROGATE.search(key):
            return key
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return where
        elif isinstance(value, Mapping):
            for k, v in value.items():
                if isinstance(k, str) and _SURROGATE.search(k):
                    return where
                stack.append((f"{where}.{k}", v))
        elif isinstance(value, (list, tuple)):
            stack.extend((f"{where}.{i}", v) for i, v in enumerate(value))
    return None
