"""Where the cheap layers settle an English answer: the bound below which the span tagger need not run.

    nice python bench/settling.py --part calib
    nice python bench/settling.py --part dev

Each RAGTruth answer of the part is checked by the default ``Checker()`` twice: once with the
span tagger on every answer (no settling bound), and once with the model layer skipped wherever
the learned policy's cheap stage gives a probability below the largest bound of the grid. For a
bound ``b`` of the grid, an answer whose cheap probability is below ``b`` takes the second report
and every other answer the first, so one pass gives the whole grid: per bound, the answers
skipped, the decisions that change, response and span F1, and the checking time of the part.
The shipped bound (``cheap_settles_below`` in hallucheck/policies/learned.json) is chosen on
calib; dev is reported. Writes bench/results/settling_<part>.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GRID = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.3246, 0.35, 0.4, 0.5)


def _prediction(report: Any) -> tuple[bool, float, list[tuple[int, int]]]:
    spans = [(s.start, s.end) for s in report.spans] if report.hallucinated else []
    return bool(report.hallucinated), float(report.risk_score), spans


def _checked(part: str, limit: int | None, top: float) -> list[dict[str, Any]]:
    from _common import RAGTRUTH

    from hallucheck.checker import Checker
    from hallucheck.eval.datasets import load_dataset
    from hallucheck.policies.learned import LearnedPolicy

    always = LearnedPolicy()
    always.cheap_settles_below = None
    for group in always.languages.values():
        group.cheap_settles_below = None
    skipping = LearnedPolicy()
    skipping.cheap_settles_below = top
    seen: dict[str, float] = {}
    probability = skipping._cheap_probability

    def recorded(analysis: Any, findings: Any) -> float | None:
        p = probability(analysis, findings)
        if p is not None:
            seen["p"] = p
        return p

    skipping._cheap_probability = recorded  # type: ignore[method-assign]
    full, fast = Checker(policy=always), Checker(policy=skipping)
    rows = []
    for ex in load_dataset(RAGTRUTH, "ragtruth", split=part, limit=limit):
        seen.clear()
        t0 = time.perf_counter()
        quick = fast.check(ex.case)
        t_quick = time.perf_counter() - t0
        skipped = "model not run: the layers before it settle this answer" in quick.notes
        if skipped:
            t0 = time.perf_counter()
            whole = full.check(ex.case)
            t_whole = time.perf_counter() - t0
        else:
            whole, t_whole = quick, t_quick
        rows.append({"task": ex.case.task, "gold": ex.gold.hallucinated, "gold_spans": list(ex.gold.spans),
                     "p": seen.get("p", 1.0), "whole": _prediction(whole), "t_whole": t_whole,
                     "quick": _prediction(quick), "t_quick": t_quick})
    return rows


def _grid(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from hallucheck.metrics import MetricsAccumulator

    out = []
    for bound in GRID:
        acc = MetricsAccumulator()
        seconds, skipped, changed = 0.0, 0, 0
        for r in rows:
            quick = r["p"] < bound
            pred = r["quick"] if quick else r["whole"]
            skipped += quick
            changed += quick and r["quick"][0] != r["whole"][0]
            seconds += r["t_quick"] if quick else r["t_whole"]
            acc.add(r["task"], gold=r["gold"], gold_spans=r["gold_spans"], predicted=pred[0], risk=pred[1], predicted_spans=pred[2])
        s = acc.summary()["overall"]
        out.append({"bound": bound, "answers": len(rows), "skipped": skipped, "decisions_changed": changed,
                    "response_f1": round(s["response"]["f1"], 4), "span_f1": round(s["span"]["f1"], 4),
                    "seconds": round(seconds, 1)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", default="calib", choices=("calib", "dev"))
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    from _common import machine, write_result

    rows = _checked(a.part, a.limit, max(GRID))
    grid = _grid(rows)
    print(f"{'bound':>7} {'skipped':>8} {'changed':>8} {'F1':>7} {'span F1':>8} {'seconds':>8}")
    for g in grid:
        print(f"{g['bound']:>7} {g['skipped']:>8} {g['decisions_changed']:>8} {g['response_f1']:>7} {g['span_f1']:>8} {g['seconds']:>8}")
    path = write_result(f"settling_{a.part}", {"machine": machine(), "part": a.part, "grid": grid})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
