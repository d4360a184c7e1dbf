"""Admission of checks by their cost, in two lanes, so heavy requests cannot starve small ones.

A check's cost grows with the text it reads and the detectors that read it, so a request is
admitted by its cost (characters x detectors), not counted as one. Requests of at most
``small_chars`` characters go to the *small* lane, which has its own worker slots: however many
heavy requests are running or waiting, a small one starts at once when a small slot is free.
Heavy requests share the *heavy* lane, bounded both by slots and by the cost in flight
(``capacity``; one request costing more runs alone). Each lane is first come, first served.

A request waits at most until its deadline; a lane whose queue is full refuses at once. Both
raise ``Overloaded`` (the service answers 503 with Retry-After, nothing stored). The event loop
owns the lanes; a worker thread hands its slot back with ``release_threadsafe``.
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from dataclasses import dataclass, field

from hallucheck.errors import HallucheckError

__all__ = ["Admission", "Grant", "Overloaded"]


class Overloaded(HallucheckError):
    """No capacity within the request's deadline (or its lane's queue is full)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class _Lane:
    name: str
    slots: int
    capacity: float
    running: int = 0
    in_flight: float = 0.0
    waiting: deque[tuple[float, asyncio.Future[Grant]]] = field(default_factory=deque)

    def fits(self, cost: float) -> bool:
        return self.running < self.slots and (self.running == 0 or self.in_flight + cost <= self.capacity)


@dataclass(eq=False)
class Grant:
    """One admitted request's slot; give it back exactly once."""

    lane: _Lane
    cost: float
    loop: asyncio.AbstractEventLoop
    released: bool = False

    @property
    def lane_name(self) -> str:
        return self.lane.name


class Admission:
    """Two lanes of worker slots; see the module docstring."""

    def __init__(self, *, capacity: float, small_chars: int, heavy_slots: int, small_slots: int,
                 max_waiting: int = 64) -> None:
        if heavy_slots < 1 or small_slots < 0 or capacity <= 0:
            raise ValueError("admission needs at least one heavy slot and a positive capacity")
        self.small_chars = small_chars
        self.max_waiting = max_waiting
        self.heavy = _Lane("heavy", heavy_slots, float(capacity))
        self.small = _Lane("small", small_slots, math.inf)

    @property
    def slots(self) -> int:
        return self.heavy.slots + self.small.slots

    def lane_for(self, chars: int) -> _Lane:
        return self.small if self.small.slots and chars <= self.small_chars else self.heavy

    async def acquire(self, chars: int, cost: float, timeout: float) -> Grant:
        """A slot for a request of ``chars`` characters and ``cost``, within ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        lane = self.lane_for(chars)
        cost = min(float(cost), lane.capacity)
        if not lane.waiting and lane.fits(cost):
            return self._take(lane, cost, loop)
        if len(lane.waiting) >= self.max_waiting:
            raise Overloaded(f"the server is busy: {len(lane.waiting)} {lane.name} requests are waiting", 5.0)
        fut: asyncio.Future[Grant] = loop.create_future()
        entry = (cost, fut)
        lane.waiting.append(entry)
        try:
            return await asyncio.wait_for(asyncio.shield(fut), timeout)
        except (TimeoutError, asyncio.CancelledError) as exc:
            if fut.done() and not fut.cancelled():
                self.release(fut.result())  # granted at the last moment: hand it on
            else:
                fut.cancel()
                try:
                    lane.waiting.remove(entry)
                except ValueError:
                    pass
                self._dispatch(lane)
            if isinstance(exc, asyncio.CancelledError):
                raise
            raise Overloaded(f"the server is busy: no {lane.name} slot within the request deadline",
                             max(1.0, timeout)) from None

    def _take(self, lane: _Lane, cost: float, loop: asyncio.AbstractEventLoop) -> Grant:
        lane.running += 1
        lane.in_flight += cost
        return Grant(lane=lane, cost=cost, loop=loop)

    def _dispatch(self, lane: _Lane) -> None:
        while lane.waiting:
            cost, fut = lane.waiting[0]
            if fut.done():
                lane.waiting.popleft()
                continue
            if not lane.fits(cost):
                return
            lane.waiting.popleft()
            fut.set_result(self._take(lane, cost, fut.get_loop()))

    def release(self, grant: Grant) -> None:
        """Give the slot back (on the event loop's thread)."""
        if grant.released:
            return
        grant.released = True
        lane = grant.lane
        lane.running -= 1
        lane.in_flight = max(0.0, lane.in_flight - grant.cost)
        self._dispatch(lane)

    def release_threadsafe(self, grant: Grant) -> None:
        """Give the slot back from a worker thread."""
        grant.loop.call_soon_threadsafe(self.release, grant)

    def snapshot(self) -> dict[str, dict[str, float]]:
        """Running, waiting and cost in flight per lane (for /healthz and tests)."""
        return {lane.name: {"running": lane.running, "waiting": len(lane.waiting), "cost": lane.in_flight,
                            "slots": lane.slots}
                for lane in (self.small, self.heavy)}
