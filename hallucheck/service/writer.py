"""Group commit: concurrent requests share one transaction (and one fsync) for their checks.

Each request still waits until its own rows are committed before it answers, so "answered 200"
keeps meaning "stored"; under load many requests ride on the same commit instead of queueing
for one fsync each. A failed commit fails every request in it (none of their rows is kept).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from concurrent.futures import Future

from hallucheck.service.store import Store, StoredCheck

__all__ = ["GroupWriter"]

_STOP = object()


class GroupWriter:
    def __init__(self, store: Store, max_rows: int = 256) -> None:
        self.store = store
        self.max_rows = max_rows
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
        except BaseException as exc:  # noqa: BLE001 - handed to every waiting request
            for _, fut in group:
                fut.set_exception(exc)
            return
        for records, fut in group:
            fut.set_result([r.row.id for r in records])
