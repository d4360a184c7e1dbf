"""Retention: stored checks older than ``retention_days`` are deleted at start and then every
``retention_interval_s``.

Deleting is the one thing the service does that cannot be undone, so each pass first counts
what it is about to delete and logs it (how many, created before when, from which store), and
the window itself is refused unless it is a finite number of days, at least one
(``Store.cutoff``): a negative, tiny, NaN or infinite setting never reaches a delete.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from anyio import to_thread

from hallucheck.service.store import Store

__all__ = ["purge_once", "retention_loop"]

log = logging.getLogger("hallucheck.service")


def purge_once(store: Store, days: float, now: datetime | None = None) -> int:
    """One retention pass: log what will be deleted, then delete it; returns how many."""
    cutoff = store.cutoff(days, now)
    due = store.count_before(cutoff)
    if not due:
        return 0
    log.info("retention: deleting %d checks created before %s UTC (older than %g days) from %s",
             due, cutoff.isoformat(timespec="seconds"), days, store.where)
    removed = store.delete_before(cutoff)
    log.info("retention: deleted %d checks from %s", removed, store.where)
    return removed


async def retention_loop(store: Store, days: float | None, interval_s: float) -> None:
    """Run ``purge_once`` now and every ``interval_s`` (nothing when ``days`` is None)."""
    if days is None:
        log.info("retention off: stored checks are kept until deleted by hand")
        return
    store.cutoff(days)  # refuses a nonsensical window before the first pass
    log.info("retention: checks older than %g days are deleted from %s every %g s", days, store.where, interval_s)
    while True:
        try:
            await to_thread.run_sync(purge_once, store, days)
        except Exception:  # a failed pass must not stop the server; the next one retries
            log.exception("retention: the purge failed; it is retried in %g s", interval_s)
        await asyncio.sleep(interval_s)
