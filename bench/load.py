"""Load test of the HTTP service on loopback: requests/s, p50/p99 latency, errors, and no loss.

    python bench/load.py [--stack rules|default|both] [--requests 400] [--concurrency 8]
                         [--max-seconds 120] [--restart] [--batch 0]
    python bench/load.py --scenario neighbour [--heavy-clients 4] [--small-requests 40]
    python bench/load.py --scenario slow-clients [--slow-clients 100] [--small-requests 40]

Starts its own server (``python -m hallucheck.service``) on 127.0.0.1 with a fresh SQLite file,
sends at most ``--requests`` POST /v1/check requests (RAGTruth train answers when the data is
beside the project, else synthetic cases) from ``--concurrency`` clients, and stops by itself
after ``--max-seconds``. Then it checks that nothing was lost: the set of check ids the server
answered 200 for equals the set of ids in the store.

``--restart`` stops the server with SIGTERM half-way through and starts it again on the same
port and database; clients retry refused connections. Requests in flight at the stop must still
be answered and stored (graceful shutdown), and no request may be stored without an answer.

``--scenario neighbour`` sends small requests (RAGTruth train answers) one after another, first
alone, then while ``--heavy-clients`` clients keep sending cases at the service's size limits
(an answer of ``--heavy-answer-chars`` and sources of ``--heavy-source-chars``, real RAGTruth
text): the small requests' latency beside heavy ones, what the heavy ones got (200, 503, 504),
and the server's peak memory. ``--scenario slow-clients`` opens ``--slow-clients`` connections
that send their headers or their body one byte a second while one client sends ordinary checks:
how long the slow ones are kept, and the ordinary ones' latency.

Traffic goes to 127.0.0.1 only. Writes bench/results/load-<stack>[-restart|-neighbour|-slow-clients].json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, ROOT, machine, write_result

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def stack_detectors(stack: str) -> list[str]:
    from hallucheck.detectors.base import available_detectors
    from hallucheck.policies.default import default_detectors

    if stack == "rules":
        rules = [n for n, layer in sorted(available_detectors().items()) if layer == 1]
        return [n for n in rules if _importable(n)]
    return list(default_detectors())


def _importable(name: str) -> bool:
    from hallucheck.detectors import get_detector

    try:
        get_detector(name)
    except Exception:  # noqa: BLE001 - a detector whose module has not landed is left out
        return False
    return True


def load_cases(n: int) -> list[dict[str, Any]]:
    """Up to ``n`` distinct cases: RAGTruth train answers, else synthetic ones."""
    if RAGTRUTH.is_file():
        from hallucheck.eval.datasets import load_dataset

        out = [ex.case.model_dump(mode="json", exclude={"metadata"}) for ex in load_dataset(RAGTRUTH, split="train", limit=n)]
        if out:
            return out
    src = "The plant opened in 2011 in Lyon. It employs 420 people and makes bicycle frames."
    return [{"question": "Tell me about the plant.", "contexts": [src],
             "answer": f"The plant opened in {2000 + i % 20} in Lyon [1]. It employs {400 + i} people [2]."}
            for i in range(n)]


class Server:
    def __init__(self, port: int, db_url: str, detectors: list[str], policy: str, log: Path,
                 env: dict[str, str] | None = None) -> None:
        self.port, self.db_url, self.detectors, self.policy, self.log = port, db_url, detectors, policy, log
        self.extra_env = dict(env or {})
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self, timeout: float = 120.0) -> float:
        import httpx

        env = dict(os.environ, HALLUCHECK_DB_URL=self.db_url, HALLUCHECK_RATE_PER_SECOND="0",
                   HALLUCHECK_RETENTION_DAYS="off", PYTHONPATH=str(ROOT), **self.extra_env)
        t0 = time.perf_counter()
        with self.log.open("ab") as fh:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "hallucheck.service", "--host", HOST, "--port", str(self.port),
                 "--detectors", ",".join(self.detectors), "--policy", self.policy, "--log-level", "warning"],
                env=env, stdout=fh, stderr=subprocess.STDOUT)
        while time.perf_counter() - t0 < timeout:
            if self.proc.poll() is not None:
                raise SystemExit(f"server exited with {self.proc.returncode}; see {self.log}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1.0).status_code == 200:
                    return time.perf_counter() - t0
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"server did not start in {timeout:.0f}s; see {self.log}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


async def run_load(server: Server, cases: list[dict[str, Any]], total: int, concurrency: int,
                   max_seconds: float, restart: bool) -> dict[str, Any]:
    import httpx

    accepted: list[str] = []
    latencies: list[float] = []
    errors: dict[str, int] = {}
    refused = 0
    issued = 0
    deadline = time.monotonic() + max_seconds
    restart_at = total // 2 if restart else -1
    restart_info: dict[str, Any] = {}
    restarting = asyncio.Event()
    restarted = asyncio.Event()

    async def do_restart() -> None:
        t0 = time.perf_counter()
        await asyncio.to_thread(server.stop)
        stopped = time.perf_counter() - t0
        startup = await asyncio.to_thread(server.start)
        restart_info.update(stop_seconds=round(stopped, 2), start_seconds=round(startup, 2),
                            accepted_before_stop=len(accepted))
        restarted.set()

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal issued, refused
        while time.monotonic() < deadline:
            if issued >= total:
                return
            n = issued
            issued += 1
            if n == restart_at:
                restarting.set()
                asyncio.get_running_loop().create_task(do_restart())
            body = cases[n % len(cases)]
            while time.monotonic() < deadline:
                t0 = time.perf_counter()
                try:
                    r = await client.post(server.url + "/v1/check", json=body)
                except (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError) as exc:
                    # Not accepted; the server is down (restart) — wait and send it again.
                    refused += 1
                    errors.setdefault(f"retried {type(exc).__name__}", 0)
                    errors[f"retried {type(exc).__name__}"] += 1
                    await asyncio.sleep(0.2)
                    continue
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
                    break
                latencies.append(time.perf_counter() - t0)
                if r.status_code == 200:
                    accepted.append(r.json()["id"])
                else:
                    errors[f"http {r.status_code}"] = errors.get(f"http {r.status_code}", 0) + 1
                break

    t_start = time.perf_counter()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(timeout=120.0, limits=limits) as client:
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
        if restart and restarting.is_set():
            await restarted.wait()
    wall = time.perf_counter() - t_start
    lat = sorted(latencies)

    def q(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000.0, 1) if lat else None

    return {"issued": issued, "accepted": len(accepted), "accepted_ids": accepted, "wall_seconds": round(wall, 2),
            "requests_per_second": round(len(accepted) / wall, 2) if wall else None,
            "p50_ms": q(0.50), "p99_ms": q(0.99), "max_ms": round(lat[-1] * 1000.0, 1) if lat else None,
            "errors": {k: v for k, v in errors.items() if not k.startswith("retried")},
            "retried_connections": refused, "restart": restart_info or None}


def stored_ids(db_url: str) -> set[str]:
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    with engine.connect() as conn:
        ids = {row[0] for row in conn.execute(text("SELECT id FROM hc_checks"))}
    engine.dispose()
    return ids


def one_stack(stack: str, args: argparse.Namespace, cases: list[dict[str, Any]]) -> dict[str, Any]:
    detectors = stack_detectors(stack)
    if not detectors:
        raise SystemExit(f"no detector of the {stack!r} stack is installed yet")
    with tempfile.TemporaryDirectory(prefix="hallucheck-load-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'checks.db'}"
        server = Server(free_port(), db_url, detectors, args.policy, Path(tmp) / "server.log")
        startup = server.start()
        try:
            res = asyncio.run(run_load(server, cases, args.requests, args.concurrency, args.max_seconds, args.restart))
        finally:
            server.stop()
            log_tail = (Path(tmp) / "server.log").read_text(errors="replace")[-3000:]
        stored = stored_ids(db_url)
    accepted = set(res.pop("accepted_ids"))
    res.update(
        stack=stack, detectors=detectors, policy=args.policy, concurrency=args.concurrency,
        server_start_seconds=round(startup, 2), stored=len(stored),
        lost=len(accepted - stored), stored_without_answer=len(stored - accepted),
    )
    res["no_loss"] = res["lost"] == 0 and res["stored_without_answer"] == 0 and len(accepted) == res["accepted"]
    if not res["no_loss"] or res["errors"]:
        res["server_log_tail"] = log_tail
    return res


def hostile_run(stack: str, args: argparse.Namespace, cases: list[dict[str, Any]]) -> dict[str, Any]:
    """The neighbour or slow-client scenario against a fresh server of ``stack``."""
    from load_hostile import heavy_case, neighbour_run, peak_rss_mb, slow_client_run

    detectors = stack_detectors(stack)
    with tempfile.TemporaryDirectory(prefix="hallucheck-load-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'checks.db'}"
        server = Server(free_port(), db_url, detectors, args.policy, Path(tmp) / "server.log")
        startup = server.start()
        assert server.proc is not None
        try:
            if args.scenario == "neighbour":
                if not RAGTRUTH.is_file():
                    raise SystemExit(f"the neighbour run needs the RAGTruth train file at {RAGTRUTH}")
                heavy = heavy_case(RAGTRUTH, args.heavy_answer_chars, args.heavy_source_chars)
                res = asyncio.run(neighbour_run(server.url, cases, heavy, args.heavy_clients, args.small_requests))
            else:
                res = asyncio.run(slow_client_run(server.url, HOST, server.port, cases, args.slow_clients,
                                                  args.small_requests))
            res["server_peak_rss_mb"] = peak_rss_mb(server.proc.pid)
        finally:
            server.stop()
    res.update(stack=stack, detectors=detectors, policy=args.policy, scenario=args.scenario,
               server_start_seconds=round(startup, 2))
    return res


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stack", choices=["rules", "default", "both"], default="both")
    p.add_argument("--requests", type=int, default=400, help="at most this many requests per stack")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--max-seconds", type=float, default=120.0, help="stop sending after this long")
    p.add_argument("--policy", default="default")
    p.add_argument("--restart", action="store_true", help="stop and restart the server half-way through")
    p.add_argument("--scenario", choices=["load", "neighbour", "slow-clients"], default="load")
    p.add_argument("--heavy-clients", type=int, default=4)
    p.add_argument("--heavy-answer-chars", type=int, default=50_000)
    p.add_argument("--heavy-source-chars", type=int, default=500_000)
    p.add_argument("--small-requests", type=int, default=40, help="small requests per phase (hostile scenarios)")
    p.add_argument("--slow-clients", type=int, default=100)
    args = p.parse_args(argv)
    if args.requests < 1 or args.concurrency < 1 or args.max_seconds <= 0:
        p.error("--requests, --concurrency and --max-seconds must be positive")
    args.requests = min(args.requests, 100_000)
    args.max_seconds = min(args.max_seconds, 3600.0)
    cases = load_cases(min(args.requests, 2000))
    stacks = ["rules", "default"] if args.stack == "both" else [args.stack]
    if args.scenario != "load":
        for stack in stacks:
            res = hostile_run(stack, args, cases)
            res["machine"] = machine()
            path = write_result(f"load-{stack}-{args.scenario}", res)
            print(json.dumps({k: v for k, v in res.items() if k != "machine"}, indent=1))
            print(f"-> {path.relative_to(ROOT)}")
        return 0
    ok = True
    for stack in stacks:
        res = one_stack(stack, args, cases)
        res["machine"] = machine()
        res["cases_from"] = "RAGTruth train" if RAGTRUTH.is_file() else "synthetic"
        name = f"load-{stack}" + ("-restart" if args.restart else "")
        path = write_result(name, res)
        print(f"{stack:8s} {res['accepted']:5d} accepted / {res['issued']} issued in {res['wall_seconds']:.1f}s: "
              f"{res['requests_per_second']} req/s, p50 {res['p50_ms']} ms, p99 {res['p99_ms']} ms, "
              f"errors {res['errors'] or 0}, stored {res['stored']} "
              + ("(no loss)" if res["no_loss"] else f"(LOSS: {res['lost']} lost, {res['stored_without_answer']} unanswered)")
              + (f", restart {res['restart']}" if res["restart"] else "") + f" -> {path.relative_to(ROOT)}")
        ok = ok and res["no_loss"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
