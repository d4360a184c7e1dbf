"""Responses per second of the rules + lexical layers on one core, with cold and warm source caches.

    python bench/throughput.py [--limit 600] [--policy weighted] [--profile] [--pin]

RAGTruth repeats every source six times (six models answered the same prompt), and hallucheck
caches source-side analysis by text, so the honest number depends on the cache:

- ``cold``: every source text is made unique (a marker line is appended), so nothing is ever
  reused — the cost of a log where every answer has fresh retrieved passages;
- ``natural``: the dev records in file order in a fresh cache — what a RAGTruth-like log gets;
- ``warm``: the same records again, every source already analysed — the cost of the answer side.

One process, one thread (``--pin`` also pins it to one CPU). Each number is given per wall-clock
second and per CPU second of the process: on a shared machine the second is what one free core
would deliver. The bar for the cheap layers is 500 responses/s on one core. ``--profile`` prints
where the time goes (cProfile, per function and per file).
Writes bench/results/throughput.json.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, cheap_detectors, machine, write_result

from hallucheck.eval.datasets import load_dataset

BAR = 500.0


def _clear_caches() -> None:
    """Forget every source analysis (the process starts from nothing, as a fresh service would)."""
    import hallucheck.analysis as analysis

    with analysis._CACHE_LOCK:
        analysis._CACHE.clear()


def _fresh_sources(cases: list[Any]) -> list[Any]:
    out = []
    for i, case in enumerate(cases):
        contexts = [s.model_copy(update={"text": f"{s.text}\n\n(ref {i}-{k})"}) for k, s in enumerate(case.contexts)]
        out.append(case.model_copy(update={"contexts": contexts}))
    return out


def _run(checker: Any, cases: list[Any]) -> tuple[float, float]:
    """Wall seconds and CPU seconds of this process for checking ``cases``.

    The heap is collected first (outside the timing; the collector stays on during the run), so
    that a run does not pay for a full collection set off by the garbage of the run before it:
    after ``cold`` that one collection was a tenth of the ``natural`` run's time.
    """
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    for case in cases:
        checker.check(case)
    return time.perf_counter() - t0, time.process_time() - c0


def _profile(checker: Any, cases: list[Any], top: int = 25) -> None:
    import cProfile
    import pstats
    from collections import defaultdict

    _clear_caches()
    prof = cProfile.Profile()
    prof.enable()
    _run(checker, cases)
    prof.disable()
    stats = pstats.Stats(prof)
    print("\nTop functions by own time (natural order, fresh cache):")
    stats.sort_stats("tottime").print_stats(top)
    per_file: dict[str, float] = defaultdict(float)
    for (filename, _line, _name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        key = filename.split("site-packages/")[-1] if "site-packages" in filename else filename.split("/main/")[-1]
        per_file[key] += tottime
    total = sum(per_file.values())
    print("Own time per file:")
    for name, seconds in sorted(per_file.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {seconds:7.2f}s {100 * seconds / total:5.1f}%  {name}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(RAGTRUTH))
    ap.add_argument("--split", default="dev", choices=["dev", "calib", "train", "all"])
    ap.add_argument("--limit", type=int, default=600, help="responses to time (default 600)")
    ap.add_argument("--detectors", default=None, help="comma-separated (default: every installed rules/lexical detector)")
    ap.add_argument("--policy", default="weighted")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile breakdown")
    ap.add_argument("--pin", action="store_true", help="pin the process to one CPU")
    args = ap.parse_args(argv)

    if args.pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    from hallucheck.checker import Checker
    from hallucheck.text.language import load_identifier

    detectors = args.detectors.split(",") if args.detectors else cheap_detectors()
    checker = Checker(detectors=detectors, policy=args.policy)
    cases = [ex.case for ex in load_dataset(args.data, "ragtruth", split=args.split, limit=args.limit)]
    sources = len({c.source_text for c in cases})
    fresh = _fresh_sources(cases)
    checker.check(cases[0])  # imports, lazy tables and models load outside the timed runs
    load_identifier()  # the language identifier too: cases[0] may not need it
    _clear_caches()

    results: dict[str, Any] = {}
    _clear_caches()
    cold = _run(checker, fresh)
    _clear_caches()
    natural = _run(checker, cases)
    warm = _run(checker, cases)
    for name, (wall, cpu) in (("cold", cold), ("natural", natural), ("warm", warm)):
        results[name] = {
            "wall_seconds": round(wall, 3),
            "cpu_seconds": round(cpu, 3),
            "responses_per_second": round(len(cases) / wall, 1),
            "responses_per_cpu_second": round(len(cases) / cpu, 1) if cpu > 0 else None,
        }
    info = machine()
    print(
        f"{len(cases)} {args.split} responses ({sources} distinct sources) · detectors {', '.join(checker.detector_names)} "
        f"· policy {checker.policy.name} · one process · load {info['load_average_1m']} on {info['cores']} cores"
    )
    print("  (wall = responses per elapsed second; cpu = per second of CPU this process got, which is what one")
    print("   free core would give when the machine is shared)")
    for name in ("cold", "natural", "warm"):
        rate = results[name]["responses_per_second"]
        cpu_rate = results[name]["responses_per_cpu_second"] or 0.0
        mark = "meets" if cpu_rate >= BAR else "below"
        print(f"  {name:<8} wall {rate:8.1f}/s   cpu {cpu_rate:8.1f}/s  ({mark} the {BAR:.0f}/s bar)")
    per_detector: dict[str, float] = {}
    _clear_caches()
    for case in cases:
        report = checker.check(case)
        for f in report.findings:
            per_detector[f.detector] = per_detector.get(f.detector, 0.0) + f.latency_ms
    print("  mean ms per response by detector (natural order; the first detector also pays the shared analysis):")
    for name, ms in per_detector.items():
        print(f"    {name:<10} {ms / len(cases):7.3f} ms")
    results["mean_ms_by_detector"] = {k: round(v / len(cases), 4) for k, v in per_detector.items()}
    if args.profile:
        _profile(checker, cases)
    payload = {
        "machine": info,
        "split": args.split,
        "responses": len(cases),
        "distinct_sources": sources,
        "detectors": checker.detector_names,
        "policy": checker.policy.name,
        "bar_responses_per_second": BAR,
        **results,
    }
    path = write_result("throughput", payload)
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
