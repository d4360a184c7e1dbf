"""Reading JSON and JSON Lines input (files, ``.gz`` files, or stdin) with errors a user can act on.

Every failure — missing file, empty file, invalid UTF-8, broken gzip, a line that is not JSON —
becomes an ``InputError`` whose message names the file and, for JSON Lines, the line number.
Lines are decoded one by one from bytes, so an invalid byte is reported on its own line instead of
somewhere in a buffered chunk. Records are yielded lazily: a large data set is never held in memory.
"""

from __future__ import annotations

import gzip
import json
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

from hallucheck.errors import InputError

__all__ = ["MAX_JSON_BYTES", "display_name", "open_binary", "read_json", "iter_jsonl"]

# A single case file larger than this is certainly not one case (the checker's own limits on
# answer and source length are far smaller); refusing early avoids parsing gigabytes.
MAX_JSON_BYTES = 64 * 1024 * 1024


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
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: {_json_error(exc)}") from None
    except RecursionError:
        raise InputError(f"{name}: JSON nested too deeply") from None


def iter_jsonl(path: str | Path, *, require_objects: bool = True) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every non-blank line; InputError naming the line on bad input.

    An input with no records at all is an error too (an empty data set would report meaningless
    zeros).
    """
    name = display_name(path)
    stream = open_binary(path)
    seen = 0
    lineno = 0
    try:
        for lineno, raw in enumerate(stream, start=1):
            where = f"{name}: line {lineno}"
            text = _decode(raw, where)
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputError(f"{where}: {_json_error(exc)}") from None
            except RecursionError:
                raise InputError(f"{where}: JSON nested too deeply") from None
            if require_objects and not isinstance(value, dict):
                raise InputError(f"{where}: expected a JSON object, got {type(value).__name__}")
            seen += 1
            yield lineno, value
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{name}: cannot read after line {lineno}: {exc}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if not seen:
        raise InputError(f"{name}: no records (the input is empty)")
