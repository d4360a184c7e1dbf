"""Structured output from models that do not reliably write JSON.

Small and local models wrap JSON in prose or code fences, write Python literals (``True``,
``None``), single quotes, unquoted keys, comments, trailing commas, or stop mid-object when they run
out of tokens. Instead of failing the check (the most common complaint about judge-based
evaluators), this module

1. finds the JSON in the reply (code fences first, then every ``{`` / ``[`` in turn),
2. repairs it with a tolerant tokenizer that re-emits valid JSON (closing what was left open),
3. validates it with a pydantic model,

and returns a :class:`StructuredResult` that is either a value or a typed failure saying at which
stage it broke. The work is bounded whatever the reply: only its first ``MAX_PARSE_CHARS``
characters are read and brackets nested deeper than ``MAX_DEPTH`` end a candidate (a reply of a
million ``{`` once took minutes of CPU). Callers (the LLM detectors) turn a failure into a Finding with ``error`` set,
never an exception. One optional re-ask with the validation error is done by
:func:`hallucheck.llm.session.LLMSession.structured`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

__all__ = [
    "StructuredResult",
    "Stage",
    "extract_json",
    "repair_json",
    "loads_lenient",
    "parse_structured",
    "validation_message",
    "MAX_PARSE_CHARS",
    "MAX_DEPTH",
]

# A judge's reply is a few thousand characters; anything past this is not read.
MAX_PARSE_CHARS = 200_000
# No schema of ours nests deeper than a handful of levels.
MAX_DEPTH = 64
# How many opening brackets are tried as the start of the JSON, per bracket kind.
_MAX_CANDIDATES = 12

T = TypeVar("T", bound=BaseModel)
Stage = Literal["ok", "empty", "no_json", "invalid", "llm_error", "budget"]

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n?(.*?)(?:```|\Z)", re.S)
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.S | re.I)
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_OPEN_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "\u201d": "\u201d", "\u2019": "\u2019"}
_CLOSE_AFTER = set(",}]:") | {""}
_LITERALS = {
    "true": "true", "false": "false", "null": "null", "none": "null", "undefined": "null",
    "nil": "null", "nan": "null", "infinity": "null", "-infinity": "null", "+infinity": "null",
}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\", '"': '"', "'": "'"}


@dataclass
class StructuredResult(Generic[T]):
    """A validated value, or why there is none (``stage`` and ``error``), plus the raw reply."""

    value: T | None
    stage: Stage = "ok"
    error: str | None = None
    raw: str = ""
    repaired: bool = False
    reasked: bool = False

    @property
    def ok(self) -> bool:
        return self.value is not None


# ---- extraction -------------------------------------------------------------------------------


def _balanced_end(text: str, start: int) -> int:
    """Index after the bracket closing ``text[start]``, len(text) when the JSON is truncated, or
    -1 when brackets nest deeper than ``MAX_DEPTH`` (not JSON we can use)."""
    stack: list[str] = []
    quote: str | None = None
    i = start
    n = len(text)
    while i < n:
        ch = text[i]
        if quote is not None:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'":
            # an apostrophe inside a word (don't, l'eau) is not a quote
            if ch == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                pass
            else:
                quote = ch
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
            if len(stack) > MAX_DEPTH:
                return -1
        elif ch in "}]":
            if stack and stack[-1] == ch:
                stack.pop()
                if not stack:
                    return i + 1
        i += 1
    return n


def extract_json(text: str) -> list[str]:
    """Candidate JSON texts in ``text``, best first (fenced blocks, then bracketed spans)."""
    text = _THINK.sub("", (text or "")[:MAX_PARSE_CHARS])
    out: list[str] = []
    for m in _FENCE.finditer(text):
        body = m.group(2).strip()
        if body[:1] in "{[":
            out.append(body)
        elif "{" in body:
            s = body.index("{")
            end = _balanced_end(body, s)
            if end != -1:
                out.append(body[s:end])
    found: list[tuple[int, str]] = []
    for opener in "{[":
        pos = text.find(opener)
        tries = 0
        while pos != -1 and tries < _MAX_CANDIDATES:
            end = _balanced_end(text, pos)
            tries += 1
            if end == -1:  # too deep from here: try the next bracket
                pos = text.find(opener, pos + 1)
                continue
            found.append((pos, text[pos:end]))
            pos = text.find(opener, pos + 1 if end == len(text) else end)
    out.extend(c for _, c in sorted(found, key=lambda x: x[0]))
    seen: set[str] = set()
    return [c for c in out if not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]


# ---- repair -----------------------------------------------------------------------------------


def _tokens(s: str) -> list[tuple[str, Any]]:
    toks: list[tuple[str, Any]] = []
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch.isspace():
            i += 1
        elif ch in "{}[]:,":
            toks.append((ch, ch))
            i += 1
        elif s.startswith("//", i) or ch == "#":
            j = s.find("\n", i)
            i = n if j == -1 else j
        elif s.startswith("/*", i):
            j = s.find("*/", i + 2)
            i = n if j == -1 else j + 2
        elif ch in _OPEN_QUOTES:
            value, i = _read_string(s, i)
            toks.append(("str", value))
        else:
            j = i
            while j < n and s[j] not in "{}[]:,\n\"\u201c\u201d" and not s.startswith(("//", "/*"), j) \
                    and not (s[j] == "#" and s[j - 1].isspace()):
                j += 1
            word = s[i:j].strip()
            parts = word.split()
            if len(parts) > 1 and all(_NUMBER.fullmatch(p) or p.lower() in _LITERALS for p in parts):
                toks.extend(("word", p) for p in parts)  # [1, 2 3]: a missing comma, not a phrase
            elif word:
                toks.append(("word", word))
            i = max(j, i + 1)
    return toks


def _next_significant(s: str, i: int) -> str:
    while i < len(s) and s[i].isspace():
        i += 1
    return s[i] if i < len(s) else ""


def _read_string(s: str, i: int) -> tuple[str, int]:
    """Read a string opened at ``s[i]``; a quote closes it only when followed by , } ] : or the
    end (so unescaped quotes inside the text survive)."""
    close = _OPEN_QUOTES[s[i]]
    closers = {close, '"'} if close in "\u201d" else {close}
    buf: list[str] = []
    j = i + 1
    n = len(s)
    while j < n:
        ch = s[j]
        if ch == "\\" and j + 1 < n:
            nxt = s[j + 1]
            if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", s[j + 2 : j + 6] or ""):
                buf.append(chr(int(s[j + 2 : j + 6], 16)))
                j += 6
                continue
            buf.append(_ESCAPES.get(nxt, nxt))
            j += 2
            continue
        if ch in closers and _next_significant(s, j + 1) in _CLOSE_AFTER:
            return "".join(buf), j + 1
        buf.append(ch)
        j += 1
    return "".join(buf), n  # unterminated: the reply was cut off


def _scalar(kind: str, value: Any) -> str:
    if kind == "str":
        return json.dumps(value, ensure_ascii=False)
    word = str(value).strip()
    lit = _LITERALS.get(word.lower())
    if lit is not None:
        return lit
    if _NUMBER.fullmatch(word):
        try:
            num = float(word)
            if num.is_integer() and "." not in word and "e" not in word.lower():
                return str(int(num))
            return json.dumps(num)
        except (ValueError, OverflowError):
            pass
    return json.dumps(word, ensure_ascii=False)


def repair_json(text: str) -> str:
    """Valid JSON re-emitted from almost-JSON (see the module docstring for what is fixed)."""
    out: list[str] = []
    # each frame: [kind "{" or "[", state, count]; states: key, colon, value, after
    stack: list[list[Any]] = []
    started = False
    for kind, value in _tokens(text[:MAX_PARSE_CHARS]):
        if not stack:
            if started:
                break
            if kind in "{[" and kind in ("{", "["):
                stack.append([kind, "key" if kind == "{" else "value", 0])
                out.append(kind)
                started = True
            continue
        frame = stack[-1]
        if kind in ("{", "["):
            if frame[0] == "{" and frame[1] in ("key", "after"):
                out.append(("," if frame[2] else "") + '"_":')
                frame[2] += 1
            elif frame[0] == "{" and frame[1] == "colon":
                out.append(":")
            elif frame[0] == "[" and frame[2]:
                out.append(",")
            frame[2] += 0 if frame[0] == "{" else 1
            frame[1] = "after"
            stack.append([kind, "key" if kind == "{" else "value", 0])
            if len(stack) > MAX_DEPTH:
                return ""  # nested deeper than any answer of ours: not repairable
            out.append(kind)
        elif kind in ("}", "]"):
            if not any(f[0] == ("{" if kind == "}" else "[") for f in stack):
                continue
            while stack:
                f = stack.pop()
                _close(f, out)
                if f[0] == ("{" if kind == "}" else "["):
                    break
            if not stack:
                break
        elif kind == ":":
            if frame[0] == "{" and frame[1] == "colon":
                out.append(":")
                frame[1] = "value"
        elif kind == ",":
            if frame[0] == "{":
                if frame[1] == "value":
                    out.append("null")
                elif frame[1] == "colon":
                    out.append(":null")
                frame[1] = "key"
            else:
                frame[1] = "value"
        else:
            if frame[0] == "{":
                if frame[1] in ("key", "after"):
                    out.append(("," if frame[2] else "") + json.dumps(str(value), ensure_ascii=False))
                    frame[2] += 1
                    frame[1] = "colon"
                else:
                    if frame[1] == "colon":
                        out.append(":")
                    out.append(_scalar(kind, value))
                    frame[1] = "after"
            else:
                out.append(("," if frame[2] else "") + _scalar(kind, value))
                frame[2] += 1
                frame[1] = "after"
    while stack:
        _close(stack.pop(), out)
    return "".join(out)


def _close(frame: list[Any], out: list[str]) -> None:
    if frame[0] == "{":
        if frame[1] == "colon":
            out.append(":null")
        elif frame[1] == "value":
            out.append("null")
        out.append("}")
    else:
        out.append("]")


def loads_lenient(text: str) -> tuple[Any, bool]:
    """Parse the first JSON value found in ``text``: ``(value, repaired)``; ValueError if none."""
    candidates = extract_json(text)
    best: tuple[Any, bool] | None = None
    for cand in candidates:
        try:
            value, repaired = json.loads(cand), False
        except (json.JSONDecodeError, RecursionError):
            fixed = repair_json(cand)
            if not fixed:
                continue
            try:
                value, repaired = json.loads(fixed), True
            except (json.JSONDecodeError, RecursionError):
                continue
        if (isinstance(value, dict) and value) or (
            isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
        ):
            return value, repaired
        if best is None and value not in ({}, []):
            best = (value, repaired)
    if best is not None:
        return best
    raise ValueError("no JSON object found in the reply")


def validation_message(exc: ValidationError, limit: int = 3) -> str:
    parts = []
    for err in exc.errors()[:limit]:
        loc = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    more = len(exc.errors()) - limit
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def parse_structured(text: str, schema: type[T],
                     fallback: Callable[[str], Any] | None = None) -> StructuredResult[T]:
    """Extract, repair and validate; never raises for bad model output. ``fallback`` reads a
    reply without any JSON (e.g. a verdict in a line format) into a value to validate, or None."""
    if not text or not text.strip():
        return StructuredResult(None, "empty", "the model returned an empty reply", text or "")
    text = text[:MAX_PARSE_CHARS]
    try:
        value, repaired = loads_lenient(text)
    except ValueError as exc:
        value = fallback(text) if fallback is not None else None
        if value is None:
            return StructuredResult(None, "no_json", str(exc), text)
        repaired = True
    try:
        return StructuredResult(schema.model_validate(value), "ok", None, text, repaired)
    except ValidationError as exc:
        alt = fallback(text) if fallback is not None else None
        if alt is not None and alt != value:  # brackets in prose ("[1]") are not the answer's JSON
            try:
                return StructuredResult(schema.model_validate(alt), "ok", None, text, True)
            except ValidationError:
                pass
        return StructuredResult(None, "invalid", f"the JSON does not fit: {validation_message(exc)}", text, repaired)
