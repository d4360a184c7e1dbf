"""Structured sources (JSON or Python-literal records) flattened to readable ``key: value`` lines.

Data-to-text answers are written from records such as a business listing. A tagger reading raw
JSON wastes its short input on braces and quotes, and cannot see which attributes were empty.
Flattening gives one line per leaf (``attributes.WiFi: no``) and keeps empty leaves as
``key: null`` lines, because an answer that states something about a null attribute is one of the
most common Data2txt hallucinations.
"""

from __future__ import annotations

import ast
import json
import re
from functools import lru_cache
from typing import Any, NamedTuple

__all__ = ["FlatLine", "flatten_structured", "parse_structured", "readable_key"]


class FlatLine(NamedTuple):
    key: str  # dotted path, e.g. "attributes.Ambience.casual"
    text: str  # the readable line, "attributes ambience casual: true"
    is_null: bool


def parse_structured(text: str) -> Any | None:
    """The record inside ``text`` when it is a JSON object/list or a Python literal, else None."""
    s = text.strip()
    if not s or s[0] not in "{[":
        return None
    end = s.rfind("}" if s[0] == "{" else "]")
    body = s[: end + 1]
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(body)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, (dict, list)):
            return value
    return None


def _leaf(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    s = str(value).strip()
    return s if s else "null"


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|_")


def readable_key(path: str) -> str:
    """``attributes.BusinessParking`` -> ``attributes business parking`` (words a sentence uses)."""
    parts = []
    for comp in re.split(r"[.\[\]]+", path):
        if not comp:
            continue
        parts.append(f"#{int(comp) + 1}" if comp.isdigit() else _CAMEL.sub(" ", comp).lower())
    return " ".join(parts)


def _line(path: str, leaf: str) -> FlatLine:
    return FlatLine(path, f"{readable_key(path)}: {leaf}", leaf == "null")


def _walk(value: Any, path: str, out: list[FlatLine]) -> None:
    if isinstance(value, dict):
        if not value and path:
            out.append(_line(path, "null"))
        for k, v in value.items():
            _walk(v, f"{path}.{k}" if path else str(k), out)
    elif isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        for i, v in enumerate(value):
            _walk(v, f"{path}[{i}]" if path else f"[{i}]", out)
    else:
        if isinstance(value, list):
            leaf = ", ".join(_leaf(v) for v in value) if value else "null"
        else:
            leaf = _leaf(value)
        out.append(_line(path or "value", leaf))


@lru_cache(maxsize=512)
def flatten_structured(text: str) -> tuple[FlatLine, ...] | None:
    """One ``key: value`` line per leaf of the record in ``text`` (None when it is not a record).

    Text after the record (Data2txt sources append customer reviews) is kept as a final line.
    """
    value = parse_structured(text)
    if value is None:
        return None
    out: list[FlatLine] = []
    _walk(value, "", out)
    s = text.strip()
    end = s.rfind("}" if s[0] == "{" else "]")
    rest = s[end + 1 :].strip()
    if rest:
        out.append(FlatLine("text", rest, False))
    return tuple(out)
