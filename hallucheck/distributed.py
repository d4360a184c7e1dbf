"""Checking large logs on more than one machine: the same per-record function on Ray.

The unit of work is the one the local process pool runs (``hallucheck.batch.check_record_safe``
with a picklable ``CheckerSpec``): Ray tasks receive chunks of records, each worker process
builds its Checker once (``checker_for`` caches it per process) and returns one JSON-ready dict
per record. Results come back in input order, with a bounded number of chunks in flight so a
log of any size streams through without being held in memory.

``ray`` is the extra ``distributed``; it is imported only when a Ray backend is asked for.
Address: ``"local"`` starts a private Ray instance on this machine; ``"auto"`` joins the
cluster this machine belongs to (``ray start``); ``"ray://host:10001"`` uses Ray Client.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from itertools import islice
from typing import Any, TypeVar

from hallucheck.errors import InputError

__all__ = ["ray_map", "map_records", "iter_checked_ray"]

T = TypeVar("T")
R = TypeVar("R")


def _run_chunk(fn: Callable[[Any], Any], chunk: list[Any]) -> list[Any]:
    return [fn(x) for x in chunk]


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def ray_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    *,
    address: str = "local",
    num_cpus: int | None = None,
    chunk_size: int = 32,
    max_in_flight: int | None = None,
) -> Iterator[R]:
    """``map(fn, items)`` in order, as Ray tasks of ``chunk_size`` items.

    Starts (and afterwards shuts down) a Ray instance unless one is already initialised in this
    process, in which case it is used as is. ``fn`` must be picklable.
    """
    try:
        import ray  # lazy: optional extra (distributed)
    except ImportError:
        raise InputError("Ray is not installed: pip install 'hallucheck[distributed]'") from None
    if chunk_size < 1:
        raise InputError("chunk size must be at least 1")
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if address == "local":
            if num_cpus is not None:
                kwargs["num_cpus"] = num_cpus
            ray.init(**kwargs)
        else:
            ray.init(address=address, **kwargs)
        started = True
    try:
        task = ray.remote(num_cpus=1)(_run_chunk)
        fn_ref = ray.put(fn)
        limit = max_in_flight or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending: deque[Any] = deque()
        for chunk in _chunks(items, chunk_size):
            pending.append(task.remote(fn_ref, chunk))
            if len(pending) >= limit:
                yield from ray.get(pending.popleft())
        while pending:
            yield from ray.get(pending.popleft())
    finally:
        if started:
            ray.shutdown()


def map_records(
    fn: Callable[[T], R], items: Iterable[T], *, workers: int = 1, ray_address: str | None = None,
    chunk_size: int = 32,
) -> Iterator[R]:
    """One entry for every backend: Ray when ``ray_address`` is given, else local processes."""
    if ray_address:
        return ray_map(fn, items, address=ray_address, chunk_size=chunk_size,
                       num_cpus=workers if ray_address == "local" and workers > 1 else None)
    from hallucheck.batch import parallel_map  # lazy: loaded only on this path

    return parallel_map(fn, items, workers=workers, chunksize=chunk_size)


def iter_checked_ray(
    records: Iterable[tuple[int, Mapping[str, Any]]],
    spec: Any,
    overrides: Mapping[str, Any] | None = None,
    *,
    address: str = "local",
    num_cpus: int | None = None,
    chunk_size: int = 32,
) -> Iterator[dict[str, Any]]:
    """``hallucheck.batch.iter_checked`` on Ray: reports (or per-record errors) in input order."""
    from hallucheck.batch import check_record_safe  # lazy: loaded only on this path

    fn = partial(check_record_safe, spec=spec, overrides=dict(overrides or {}))
    return ray_map(fn, records, address=address, num_cpus=num_cpus, chunk_size=chunk_size)
