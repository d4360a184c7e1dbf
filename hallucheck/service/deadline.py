"""Request deadlines for checks that run in worker threads.

A thread cannot be killed, so a request whose deadline passes answers at once (504) and leaves
its worker a ``Ticket`` marked abandoned. The worker stops at the next detector (every detector
of the service's Checker is wrapped to look at the ticket of the thread that runs it), or inside
a long one at its next window (the ticket's deadline is the check's, :mod:`hallucheck.deadline`), and never
stores anything: the ticket is either abandoned by the request or committed by the worker before
its write, never both, so "answered 200" keeps meaning "stored" and a 504 means "not stored".
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hallucheck.deadline import deadline_scope

__all__ = ["Abandoned", "Ticket", "TicketedChecker", "current_ticket", "guard_detectors", "working_on"]


class Abandoned(BaseException):
    """The request gave up on this check; a BaseException so that no detector wrapper that
    turns errors into findings can swallow it."""


class Ticket:
    """One request's claim on the work done for it."""

    RUNNING, ABANDONED, COMMITTING = "running", "abandoned", "committing"

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline  # time.monotonic() value
        self.state = self.RUNNING
        self._lock = threading.Lock()

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def abandon(self) -> bool:
        """The request gives up; False when the worker is already writing (wait for it then)."""
        with self._lock:
            if self.state == self.COMMITTING:
                return False
            self.state = self.ABANDONED
            return True

    def commit(self) -> bool:
        """The worker is about to write; False when the request gave up or the deadline passed."""
        with self._lock:
            if self.state == self.RUNNING and time.monotonic() < self.deadline:
                self.state = self.COMMITTING
                return True
            self.state = self.ABANDONED if self.state == self.RUNNING else self.state
            return False

    def check(self) -> None:
        """Raise Abandoned when the request gave up or its deadline passed."""
        if self.state == self.ABANDONED or (self.state == self.RUNNING and time.monotonic() >= self.deadline):
            raise Abandoned


_local = threading.local()


def current_ticket() -> Ticket | None:
    return getattr(_local, "ticket", None)


@contextmanager
def working_on(ticket: Ticket) -> Iterator[Ticket]:
    """Mark this thread as working for ``ticket`` (what the detector wrappers look at), and make
    its deadline the deadline of the checks run here (long detectors stop at their next window)."""
    _local.ticket = ticket
    try:
        with deadline_scope(ticket.deadline):
            yield ticket
    finally:
        _local.ticket = None


class _Guarded:
    """A detector that first checks the ticket of the thread running it; otherwise the same."""

    def __init__(self, inner: Any) -> None:
        self.__dict__["_inner"] = inner

    def detect(self, analysis: Any) -> Any:
        ticket = current_ticket()
        if ticket is not None:
            ticket.check()
        return self._inner.detect(analysis)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._inner, name, value)

    def __repr__(self) -> str:
        return f"guarded({self._inner!r})"


def guard_detectors(checker: Any) -> Any:
    """Wrap the detectors of ``checker`` (in place) so that abandoned checks stop between them."""
    checker.detectors = [d if isinstance(d, _Guarded) else _Guarded(d) for d in checker.detectors]
    return checker


class TicketedChecker:
    """A Checker whose every check works for ``ticket`` (so it stops once the request gave up),
    and that can say when its last running check has ended.

    Why: a route that drives several checks itself (the guard: generate, check, repair, check)
    runs them on threads of its own; past the deadline the route answers at once, and its
    admission slot must be given back only when the check still running has really stopped.
    """

    def __init__(self, inner: Any, ticket: Ticket) -> None:
        self._inner = inner
        self._ticket = ticket
        self._lock = threading.Lock()
        self._running = 0
        self._on_idle: Callable[[], None] | None = None

    def check(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self._running += 1
        try:
            self._ticket.check()
            with working_on(self._ticket):
                return self._inner.check(*args, **kwargs)
        finally:
            with self._lock:
                self._running -= 1
                callback = self._on_idle if self._running == 0 else None
                if callback is not None:
                    self._on_idle = None
            if callback is not None:
                callback()

    def when_idle(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once no check is running: now, or when the running one ends."""
        with self._lock:
            if self._running:
                self._on_idle = callback
                return
        callback()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
