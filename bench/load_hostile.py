"""The heavy-neighbour and slow-client runs of ``bench/load.py`` (``--scenario neighbour`` and
``--scenario slow-clients``): what small requests see while heavy ones run, and how fast slow
clients are dropped while normal ones are served. Both run against a server that
``bench/load.py`` started on 127.0.0.1 and report the server's peak memory (VmHWM)."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from pathlib import Path
from typing import Any

__all__ = ["heavy_case", "neighbour_run", "peak_rss_mb", "quantiles", "slow_client_run"]


def quantiles(values: list[float]) -> dict[str, float | None]:
    lat = sorted(values)

    def q(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000.0, 1) if lat else None

    return {"n": len(lat), "p50_ms": q(0.5), "p99_ms": q(0.99), "max_ms": round(lat[-1] * 1000.0, 1) if lat else None}


def peak_rss_mb(pid: int) -> float | None:
    """Peak resident memory of a process (Linux /proc VmHWM), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024.0, 1)
    except OSError:
        return None
    return None


def heavy_case(data: Path, answer_chars: int, source_chars: int) -> dict[str, Any]:
    """One case at the size limits, of real text: RAGTruth train answers joined into one long
    answer, and distinct RAGTruth train sources (deduplicated) as its sources."""
    outputs: list[str] = []
    contexts: list[str] = []
    seen: set[str] = set()
    have_a = have_s = 0
    with gzip.open(data, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if have_a < answer_chars:
                outputs.append(rec["output"])
                have_a += len(rec["output"]) + 1
            ctx = rec["context"] if isinstance(rec["context"], str) else json.dumps(rec["context"], ensure_ascii=False)
            if have_s < source_chars and ctx not in seen:
                seen.add(ctx)
                ctx = ctx[: source_chars - have_s]
                contexts.append(ctx)
                have_s += len(ctx)
            if have_a >= answer_chars and have_s >= source_chars:
                break
    return {"question": "What do the sources say?", "contexts": contexts, "answer": " ".join(outputs)[:answer_chars]}


async def _post(client: Any, url: str, body: dict[str, Any]) -> tuple[int, float]:
    t0 = time.perf_counter()
    try:
        r = await client.post(url + "/v1/check", json=body)
        status = r.status_code
    except Exception as exc:  # noqa: BLE001 - a transport failure is a result here
        status = -1
        print(f"  transport error: {type(exc).__name__}: {exc}")
    return status, time.perf_counter() - t0


async def neighbour_run(url: str, small: list[dict[str, Any]], heavy: dict[str, Any], heavy_clients: int,
                        small_requests: int) -> dict[str, Any]:
    """Small requests one after another, first alone, then while ``heavy_clients`` clients keep
    sending ``heavy`` cases."""
    import httpx

    async with httpx.AsyncClient(timeout=600.0) as client:
        alone = [await _post(client, url, small[i % len(small)]) for i in range(small_requests)]
        stop = asyncio.Event()
        heavy_results: list[tuple[int, float]] = []

        async def heavy_client() -> None:
            while not stop.is_set():
                heavy_results.append(await _post(client, url, heavy))

        tasks = [asyncio.create_task(heavy_client()) for _ in range(heavy_clients)]
        await asyncio.sleep(2.0)  # let the heavy requests take their slots
        beside = []
        for i in range(small_requests):
            beside.append(await _post(client, url, small[(i + small_requests) % len(small)]))
        stop.set()
        await asyncio.gather(*tasks)

    def codes(rs: list[tuple[int, float]]) -> dict[str, int]:
        out: dict[str, int] = {}
        for s, _ in rs:
            out[str(s)] = out.get(str(s), 0) + 1
        return out

    return {
        "small_alone": {**quantiles([t for s, t in alone if s == 200]), "statuses": codes(alone)},
        "small_beside_heavy": {**quantiles([t for s, t in beside if s == 200]), "statuses": codes(beside)},
        "heavy": {**quantiles([t for s, t in heavy_results]), "statuses": codes(heavy_results)},
        "heavy_case_chars": {"answer": len(heavy["answer"]), "sources": sum(len(c) for c in heavy["contexts"])},
        "heavy_clients": heavy_clients,
    }


async def _slow_connection(host: str, port: int, kind: str, limit: float) -> float:
    """Open a connection that sends its headers (kind "headers") or its body ("body") one byte
    a second; seconds until the server closed it (``limit`` if it never did)."""
    reader, writer = await asyncio.open_connection(host, port)
    body = b'{"question": "q", "contexts": ["a"], "answer": "' + b"x" * 200 + b'"}'
    if kind == "headers":
        first, drip = b"POST /v1/check HTTP/1.1\r\nHost: bench\r\n", b"X-Slow: " + b"a" * 400
    else:
        first = (b"POST /v1/check HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                 b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
        drip = body
    t0 = time.perf_counter()
    try:
        writer.write(first)
        await writer.drain()
        for b in drip:
            if time.perf_counter() - t0 > limit:
                break
            writer.write(bytes([b]))
            await writer.drain()
            try:
                got = await asyncio.wait_for(reader.read(4096), 1.0)
                if not got or reader.at_eof():
                    break
            except TimeoutError:
                continue
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()
    return time.perf_counter() - t0


async def slow_client_run(url: str, host: str, port: int, small: list[dict[str, Any]], slow_clients: int,
                          requests: int, limit: float = 120.0) -> dict[str, Any]:
    """``slow_clients`` connections dripping headers or bodies, while one client sends ``requests``
    ordinary checks one after another."""
    import httpx

    slow = [asyncio.create_task(_slow_connection(host, port, "headers" if i % 2 == 0 else "body", limit))
            for i in range(slow_clients)]
    await asyncio.sleep(1.0)
    async with httpx.AsyncClient(timeout=120.0) as client:
        normal = [await _post(client, url, small[i % len(small)]) for i in range(requests)]
    held = await asyncio.gather(*slow)
    statuses: dict[str, int] = {}
    for s, _ in normal:
        statuses[str(s)] = statuses.get(str(s), 0) + 1
    return {
        "slow_clients": slow_clients,
        "dropped_within_s": {"max": round(max(held), 1), "min": round(min(held), 1)},
        "never_dropped": sum(1 for h in held if h >= limit),
        "normal": {**quantiles([t for s, t in normal if s == 200]), "statuses": statuses},
    }
