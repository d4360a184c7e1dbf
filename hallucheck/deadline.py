"""The instant by which the work of a check must be done, passed down without changing any signature.

Why a context variable: the time limit is known far above the code that must respect it. A
Checker's ``Budget.max_seconds`` or the service's request deadline is set around a check; a long
detector three calls down (the span tagger's windows, an LLM judge's windows) stops at its next
window when the time is up, and the HTTP LLM backends (whose ``complete(messages, **settings)``
protocol is shared with user-written clients) bound each request, its retries and any
``Retry-After`` wait by it. The scope is per thread (a context variable set in the thread that
does the work, so parallel sampling threads each set their own). Library users can set one for
their own calls with :func:`time_limit`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["current_deadline", "deadline_scope", "seconds_left", "time_limit"]

# An instant on the time.monotonic() clock, or None for no limit.
_DEADLINE: ContextVar[float | None] = ContextVar("hallucheck_deadline", default=None)


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
    """Work done inside must end by the monotonic instant ``deadline`` (an earlier one wins)."""
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
    """Work done inside (checks, LLM calls with their retries and waits) must end within ``seconds`` from now."""
    with deadline_scope(time.monotonic() + max(0.0, float(seconds))):
        yield
