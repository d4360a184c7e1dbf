"""Time and peak memory of one check at the HTTP service's size limits (library, no server).

    python bench/limits.py [--answer-chars 50000] [--source-chars 500000] [--detectors ...]

The case is real text: RAGTruth train answers joined into one answer of ``--answer-chars``
characters, and distinct RAGTruth train sources adding up to ``--source-chars`` (the service's
HALLUCHECK_MAX_ANSWER_CHARS and HALLUCHECK_MAX_SOURCE_CHARS defaults). The Checker is warmed
up on a small case first, so the time is the check's own. Writes
bench/results/limits-<answer>-<source>.json with the per-detector times.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result
from load_hostile import heavy_case


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--answer-chars", type=int, default=50_000)
    p.add_argument("--source-chars", type=int, default=500_000)
    p.add_argument("--detectors", default=None, help="comma-separated (default: the default stack)")
    args = p.parse_args(argv)
    if not RAGTRUTH.is_file():
        raise SystemExit(f"needs the RAGTruth train file at {RAGTRUTH}")
    from hallucheck.checker import Checker

    case = heavy_case(RAGTRUTH, args.answer_chars, args.source_chars)
    checker = Checker(args.detectors.split(",") if args.detectors else None)
    checker.check(question="?", contexts=["The plant opened in 2011 in Lyon."], answer="The plant opened in 2011.")
    t0 = time.perf_counter()
    report = checker.check(case)
    seconds = time.perf_counter() - t0
    res = {
        "answer_chars": len(case["answer"]), "source_chars": sum(len(c) for c in case["contexts"]),
        "sources": len(case["contexts"]), "detectors": checker.detector_names, "seconds": round(seconds, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1),
        "detector_ms": {k: round(v) for k, v in report.timings_ms.items()}, "machine": machine(),
    }
    path = write_result(f"limits-{args.answer_chars}-{args.source_chars}", res)
    print(f"{res['answer_chars']} + {res['source_chars']} characters: {res['seconds']} s, "
          f"peak {res['peak_rss_mb']} MB, per detector {res['detector_ms']} -> {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
