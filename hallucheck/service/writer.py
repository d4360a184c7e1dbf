"""Group commit: concurrent requests share one transaction (and one fsync) for their checks.

Each request still waits until its own rows are committed before it answers, so "answered 200"
keeps meaning "stored"; under load many requests ride on the same commit instead of queueing
for one fsync each. When a shared commit fails, each request's rows are retried in a
transaction of their own, so one bad row (a value the database refuses) fails only its own
request and never another's; a request whose rows fail alone keeps none of them.

``failing`` says why the last write failed when it failed for the store's sake (disk full, file
damaged, database unreachable), not because of one request's data; it clears on the next write
that succeeds. ``/healthz`` reports it.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future

from sqlalchemy.exc import DataError, IntegrityError

from hallucheck.service.store import Store, StoredCheck, store_problem

__all__ = ["GroupWriter"]

_STOP = object()


class GroupWriter:
    def __init__(self, store: Store, max_rows: int = 256) -> None:
        self.store = store
        self.max_rows = max_rows
        self.failing: str | None = None
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="hallucheck-store-writer", daemon=True)
        self._thread.start()

    def add(self, records: Sequence[StoredCheck], timeout: float | None = 120.0) -> list[str]:
        """Store ``records`` (one request's checks); returns their ids once committed."""
        fut: Future[list[str]] = Future()
        self._queue.put((list(records), fut))
        return fut.result(timeout=timeout)

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=30)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            group = [item]
            rows = len(item[0])  # type: ignore[index]
            stop = False
            while rows < self.max_rows:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    stop = True
                    break
                group.append(more)
                rows += len(more[0])  # type: ignore[index]
            self._commit(group)  # type: ignore[arg-type]
            if stop:
                return

    def _commit(self, group: list[tuple[list[StoredCheck], Future[list[str]]]]) -> None:
        try:
            self.store.add([rec for records, _ in group for rec in records])
        except Exception as exc:  # noqa: BLE001 - handed to the waiting requests
            if len(group) == 1:
                self._failed(group[0][1], exc)
                return
            for records, fut in group:  # alone, so that one bad row fails only its own request
                try:
                    self.store.add(records)
                except Exception as one:  # noqa: BLE001
                    self._failed(fut, one)
                else:
                    self.failing = None
                    fut.set_result([r.row.id for r in records])
            return
        self.failing = None
        for records, fut in group:
            fut.set_result([r.row.id for r in records])

    def _failed(self, fut: Future[list[str]], exc: Exception) -> None:
        if not isinstance(exc, (DataError, IntegrityError)):  # not one request's data: the store's
            self.failing = store_problem(exc)
        fut.set_exception(exc)
