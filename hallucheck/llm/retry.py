"""When and how long to wait before retrying an HTTP call to an LLM.

Why: hosted APIs answer 429 under rate limits and 5xx under load, and both usually go away after
a short wait. Exponential backoff with jitter keeps many workers from retrying in lock-step, and a
server's ``Retry-After`` (seconds or an HTTP date; ``retry-after-ms`` as OpenAI sends it) is
honoured, capped at ``max_delay`` so one bad header cannot stall a check for an hour.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

__all__ = ["RetryPolicy", "RETRY_STATUS", "retry_after_seconds"]

RETRY_STATUS = frozenset({408, 409, 425, 429})


@dataclass(frozen=True)
class RetryPolicy:
    """``max_retries`` extra attempts after the first; waits ``base_delay * 2**attempt`` plus up to
    ``base_delay`` of random jitter, never more than ``max_delay`` seconds."""

    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 30.0

    def retryable(self, status: int) -> bool:
        return status in RETRY_STATUS or status >= 500

    def delay(self, attempt: int, headers: Mapping[str, str] | None = None) -> float:
        told = retry_after_seconds(headers) if headers is not None else None
        if told is not None:
            return min(max(told, 0.0), self.max_delay)
        wait: float = self.base_delay * (2**attempt) + random.uniform(0.0, self.base_delay)
        return min(wait, self.max_delay)


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Seconds the server asked us to wait, or None when it did not say (or said nonsense)."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time())
