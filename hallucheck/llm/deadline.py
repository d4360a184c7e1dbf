"""The time limit an LLM call must finish within, passed down without changing any signature.

Why a context variable: a check's time budget (``Budget.max_seconds``) is known to the Checker,
the call that must respect it happens three layers down inside a backend, and the backends'
``complete(messages, **settings)`` protocol is shared with user-written clients. The session that
makes a call on a detector's behalf sets the deadline around that call (in the calling thread,
so parallel sampling threads each set their own), and the HTTP backends read it to bound the
request, its retries and any ``Retry-After`` wait. Library users can set one for their own calls
with :func:`time_limit`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["current_deadline", "deadline_scope", "seconds_left", "time_limit"]

# An instant on the time.monotonic() clock, or None for no limit.
_DEADLINE: ContextVar[float | None] = ContextVar("hallucheck_llm_deadline", default=None)


def current_deadline() -> float | None:
    """The monotonic instant by which the current call must be done, or None."""
    return _DEADLINE.get()


def seconds_left(deadline: float | None = None) -> float | None:
    """Seconds until ``deadline`` (default: the current one), never negative; None = unlimited."""
    when = current_deadline() if deadline is None else deadline
    if when is None:
        return None
    return max(0.0, when - time.monotonic())


@contextmanager
def deadline_scope(deadline: float | None) -> Iterator[None]:
    """Calls made inside must end by the monotonic instant ``deadline`` (an earlier one wins)."""
    outer = _DEADLINE.get()
    if deadline is None or (outer is not None and outer <= deadline):
        yield
        return
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """LLM calls made inside must end within ``seconds`` from now (retries and waits included)."""
    with deadline_scope(time.monotonic() + max(0.0, float(seconds))):
        yield
