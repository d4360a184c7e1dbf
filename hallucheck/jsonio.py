"""Reading JSON and JSON Lines input (files, ``.gz`` files, or stdin) with errors a user can act on.

Every failure — missing file, empty file, invalid UTF-8, broken gzip, a line that is not JSON —
becomes an ``InputError`` whose message names the file and, for JSON Lines, the line number.
Lines are decoded one by one from bytes, so an invalid byte is reported on its own line instead of
somewhere in a buffered chunk. Records are yielded lazily: a large data set is never held in memory.

A batch that must not lose its later lines (``detect --batch --keep-going``) asks
:func:`iter_jsonl` for ``on_error="yield"``: a line that cannot be read then comes out as a
:class:`BadLine` in its place and reading goes on with the next line.
"""

from __future__ import annotations

import gzip
import json
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal, cast

from hallucheck.errors import InputError

__all__ = ["MAX_JSON_BYTES", "BadLine", "display_name", "json_line", "one_line", "open_binary", "read_json", "iter_jsonl",
           "loads_text"]

# A single case file larger than this is certainly not one case (the checker's own limits on
# answer and source length are far smaller); refusing early avoids parsing gigabytes.
MAX_JSON_BYTES = 64 * 1024 * 1024


# Characters that JSON leaves as they are inside strings but that many line readers break lines at
# (Python's str.splitlines, older JavaScript): escaped, so that one record stays one line.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def one_line(text: str) -> str:
    """``text`` (JSON) with every character a line reader may break at escaped (JSON reads it back the same)."""
    return text.translate(_LINE_BREAKS)


def json_line(value: Any) -> str:
    """``value`` as one JSON Lines line, newline included: UTF-8 text kept as it is, and the
    characters :func:`one_line` escapes escaped, so that any line reader reads one record a line."""
    return one_line(json.dumps(value, ensure_ascii=False)) + "\n"


@dataclass(frozen=True)
class BadLine:
    """A JSON Lines line that could not be read; ``error`` says why (without the file name)."""

    line: int
    error: str


def display_name(path: str | Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def open_binary(path: str | Path) -> IO[bytes]:
    """The bytes of ``path`` (``-`` = stdin; ``.gz`` is decompressed); InputError when unreadable."""
    if str(path) == "-":
        return sys.stdin.buffer
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if p.is_dir():
        raise InputError(f"{p}: is a directory, not a file")
    try:
        if p.suffix == ".gz":
            return cast(IO[bytes], gzip.open(p, "rb"))
        return p.open("rb")
    except OSError as exc:
        raise InputError(f"{p}: cannot open: {exc.strerror or exc}") from None


def _decode(raw: bytes, where: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where}: not valid UTF-8 (byte {exc.start}: {raw[exc.start:exc.start + 1]!r})") from None
    return text[1:] if text.startswith("\ufeff") else text


def _json_error(exc: json.JSONDecodeError) -> str:
    return f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"


def loads_text(text: str) -> Any:
    """``json.loads`` whose every failure is a ValueError with a message a user can act on.

    Besides syntax errors this covers what the standard parser raises otherwise: an integer of
    more than 4,300 digits (Python refuses to convert it) and nesting deep enough to exhaust the
    stack.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(_json_error(exc)) from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            limit = sys.get_int_max_str_digits()
            raise ValueError(f"not usable JSON (an integer has more than {limit} digits)") from None
        raise ValueError(f"not usable JSON ({' '.join(str(exc).split())[:200]})") from None


def read_json(path: str | Path) -> Any:
    """One JSON document from a file or stdin."""
    name = display_name(path)
    stream = open_binary(path)
    try:
        raw = stream.read(MAX_JSON_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{name}: cannot read: {exc}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if len(raw) > MAX_JSON_BYTES:
        raise InputError(f"{name}: larger than {MAX_JSON_BYTES // (1024 * 1024)} MB; one case must be smaller")
    text = _decode(raw, name)
    if not text.strip():
        raise InputError(f"{name}: empty input, expected a JSON object")
    try:
        return loads_text(text)
    except ValueError as exc:
        raise InputError(f"{name}: {exc}") from None


def iter_jsonl(
    path: str | Path, *, require_objects: bool = True, on_error: Literal["raise", "yield"] = "raise"
) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every non-blank line; InputError naming the line on bad input.

    With ``on_error="yield"`` a line that is not valid UTF-8, not JSON, or (with
    ``require_objects``) not an object is yielded as ``(line number, BadLine)`` and reading goes
    on; only a stream that cannot be read at all still raises.

    An input with no records at all is an error too (an empty data set would report meaningless
    zeros).
    """
    name = display_name(path)
    stream = open_binary(path)
    seen = 0
    lineno = 0
    try:
        for lineno, raw in enumerate(stream, start=1):
            try:
                value = _line_value(raw, require_objects)
            except ValueError as exc:
                if on_error == "raise":
                    raise InputError(f"{name}: line {lineno}: {exc}") from None
                seen += 1
                yield lineno, BadLine(lineno, str(exc))
                continue
            if value is _BLANK:
                continue
            seen += 1
            yield lineno, value
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{name}: cannot read after line {lineno}: {exc}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if not seen:
        raise InputError(f"{name}: no records (the input is empty)")


_BLANK = object()


def _line_value(raw: bytes, require_objects: bool) -> Any:
    """The JSON value of one line, ``_BLANK`` for a blank line; ValueError saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not valid UTF-8 (byte {exc.start}: {raw[exc.start:exc.start + 1]!r})") from None
    text = text[1:] if text.startswith("\ufeff") else text
    if not text.strip():
        return _BLANK
    value = loads_text(text)
    if require_objects and not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value
