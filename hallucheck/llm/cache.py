"""A disk cache of LLM answers, keyed by the sha256 of backend, model, messages and settings.

Why only deterministic calls by default: an answer sampled at temperature > 0 is one draw of many;
replaying it from a cache would make self-consistency sampling see the same answer N times. Calls
at temperature 0 are (nearly) reproducible, so re-running a benchmark or re-checking a logged case
costs nothing the second time. ``cache_sampled=True`` on a client caches every call.

Storage is one SQLite file (WAL mode, safe for several processes); the default location is
``$HALLUCHECK_CACHE_DIR`` or ``~/.cache/hallucheck``, file ``llm-cache.sqlite3``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hallucheck.llm.base import Completion, Message

__all__ = ["ResponseCache", "cache_key", "default_cache_path", "open_cache"]


def default_cache_path() -> Path:
    root = os.environ.get("HALLUCHECK_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "hallucheck"
    )
    return Path(root) / "llm-cache.sqlite3"


def cache_key(identity: str, model: str, messages: Sequence[Message], settings: Mapping[str, Any]) -> str:
    """sha256 over everything that changes the answer (endpoint, model, prompt, sampling settings)."""
    payload = {
        "endpoint": identity,
        "model": model,
        "messages": [[m.role, m.content] for m in messages],
        "settings": {k: settings[k] for k in sorted(settings)},
    }
    blob = json.dumps(payload, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """Completions stored by key in one SQLite file."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30)
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, text TEXT NOT NULL, model TEXT,"
                " prompt_tokens INTEGER, completion_tokens INTEGER, created REAL)"
            )
            self._conn.commit()
        self.hits = 0
        self.misses = 0

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.path)!r})"

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT text, model, prompt_tokens, completion_tokens FROM responses WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return Completion(text=row[0], model=row[1] or "", prompt_tokens=row[2] or 0,
                          completion_tokens=row[3] or 0, cached=True)

    def put(self, key: str, completion: Completion) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?)",
                (key, completion.text, completion.model, completion.prompt_tokens,
                 completion.completion_tokens, time.time()),
            )
            self._conn.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def clear(self) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM responses")
            self._conn.commit()

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def open_cache(cache: ResponseCache | str | Path | bool | None) -> ResponseCache | None:
    """``None``/``False`` = no cache, ``True`` = the default file, a path = that file."""
    if cache is None or cache is False:
        return None
    if isinstance(cache, ResponseCache):
        return cache
    if cache is True:
        return ResponseCache()
    return ResponseCache(cache)
