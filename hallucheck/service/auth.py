"""API keys and per-key rate limits.

Keys look like ``hc_<id>_<secret>``: the id part names the key in logs, the store and the
``keys`` commands; only the SHA-256 digest of the whole key is kept (in the store, or in a key
file as ``<id> sha256:<hex>`` lines). A salted slow hash buys nothing here: keys are 192 random
bits, not passwords, and every request must verify one. Comparison is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["KeyRing", "RateLimiter", "generate_key", "digest_key", "key_id_of", "read_key_file", "digests_of"]

_PREFIX = "hc_"


def digest_key(key: str) -> str:
    return "sha256:" + hashlib.sha256(key.encode("utf-8")).hexdigest()


def generate_key() -> tuple[str, str]:
    """A new (key id, key); the key is shown once and never stored."""
    key_id = secrets.token_hex(4)
    return key_id, f"{_PREFIX}{key_id}_{secrets.token_urlsafe(24)}"


def key_id_of(key: str) -> str:
    """The id part of a key; keys not in the hc_ format are named by a digest prefix."""
    if key.startswith(_PREFIX):
        rest = key[len(_PREFIX) :]
        head, sep, _ = rest.partition("_")
        if sep and head:
            return head
    return "env-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]


def digests_of(keys: Iterable[str]) -> dict[str, str]:
    """id -> digest for plain keys (from HALLUCHECK_API_KEYS); the plain keys are not kept."""
    return {key_id_of(k): digest_key(k) for k in keys}


def read_key_file(path: str | Path) -> dict[str, str]:
    """``<id> sha256:<hex>`` per line (``#`` comments); id -> digest."""
    out: dict[str, str] = {}
    for n, line in enumerate(Path(path).read_text("utf-8").splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[1].startswith("sha256:"):
            raise ValueError(f"{path}:{n}: expected '<key id> sha256:<hex digest>'")
        out[parts[0]] = parts[1]
    return out


class KeyRing:
    """Resolves a presented key to its id, from digests only; reloads from the store on a miss
    (throttled) so keys created or revoked while the server runs take effect."""

    def __init__(self, static: Mapping[str, str], loader: object = None, reload_every_s: float = 5.0) -> None:
        self._static = dict(static)
        self._loader = loader  # callable returning ({id: digest}, any key ever created)
        self._dynamic: dict[str, str] = {}
        self._ever = False
        self._loaded_at = 0.0
        self._reload_every = reload_every_s
        self._lock = threading.Lock()
        self.reload()

    def reload(self) -> None:
        if self._loader is not None:
            with self._lock:
                active, ever = self._loader()  # type: ignore[operator]
                self._dynamic, self._ever = dict(active), bool(ever)
                self._loaded_at = time.monotonic()

    def refresh(self) -> None:
        """Reload from the store when the last load is older than ``reload_every_s``."""
        if self._loader is not None and time.monotonic() - self._loaded_at > self._reload_every:
            self.reload()

    @property
    def configured(self) -> bool:
        """Whether any key exists (a key created while the server runs counts within seconds)."""
        self.refresh()
        return bool(self._static or self._dynamic or self._ever)

    def _match(self, key: str) -> str | None:
        digest = digest_key(key)
        kid = key_id_of(key)
        for table in (self._static, self._dynamic):
            want = table.get(kid)
            if want is not None and hmac.compare_digest(want, digest):
                return kid
        return None

    def identify(self, key: str | None) -> str | None:
        """The key id for a valid, unrevoked key, else None."""
        if not key:
            return None
        self.refresh()  # picks up revocations within reload_every_s
        found = self._match(key)
        if found is None and self._loader is not None and time.monotonic() - self._loaded_at > 0.5:
            self.reload()  # a key created a moment ago
            found = self._match(key)
        return found


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """A token bucket per key: ``rate`` requests per second on average, bursts up to ``burst``.

    A batch costs one token per case, taken at once, so a batch cannot dodge the limit. A cost
    above the burst (a batch of 100 with a burst of 40) is admitted when the bucket is full and
    leaves it in debt: the key then waits until the whole cost is paid back at ``rate``.
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = float(rate)
        self.burst = float(max(burst, 1))
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def take(self, key: str, cost: float = 1.0) -> float:
        """0.0 when allowed; otherwise seconds to wait before retrying."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        with self._lock:
            b = self._buckets.get(key)
            if b is None:
                b = self._buckets[key] = _Bucket(self.burst, now)
            b.tokens = min(self.burst, b.tokens + (now - b.stamp) * self.rate)
            b.stamp = now
            need = min(cost, self.burst)
            if b.tokens >= need:
                b.tokens -= cost
                return 0.0
            return (need - b.tokens) / self.rate
