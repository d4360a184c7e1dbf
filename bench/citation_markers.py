"""Do correct citation markers change the verdict? The bundled examples plus RAGTruth answers.

    python bench/citation_markers.py [--split dev] [--limit 500] [--detectors a,b] [--policy NAME]

For every case, :func:`hallucheck.eval.markers.cite_case` makes the same case without and with a
correct marker on every sentence (the style and placement rotate over all the formats the
citation rules know); both are checked with the same Checker. Prints how many verdicts
(``hallucinated``) and decisions flip and how far the risk moves, per style, and writes
bench/results/citation_markers_<split>.json. The property the tests hold: no verdict flips and
the risk moves by at most 0.02.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, ROOT, machine, write_result

from hallucheck import Checker
from hallucheck.eval.datasets import load_dataset
from hallucheck.eval.markers import MARKER_STYLES, PLACEMENTS, cite_case
from hallucheck.types import Case


def bundled_cases() -> list[Case]:
    out = []
    for path in sorted((ROOT / "hallucheck" / "data" / "examples").glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        raw.pop("metadata", None)
        out.append(Case.model_validate(raw))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", default="dev")
    ap.add_argument("--limit", type=int, default=500)
    ap.add_argument("--detectors", default=None, help="comma-separated detector names (default stack if absent)")
    ap.add_argument("--policy", default=None)
    args = ap.parse_args()
    kwargs: dict[str, Any] = {}
    if args.detectors:
        kwargs["detectors"] = args.detectors.split(",")
    if args.policy:
        kwargs["policy"] = args.policy
    checker = Checker(**kwargs)
    cases = [("example", c) for c in bundled_cases()]
    cases += [(args.split, ex.case) for ex in load_dataset(RAGTRUTH, "ragtruth", split=args.split, limit=args.limit)]
    styles = list(MARKER_STYLES)
    rows: list[dict[str, Any]] = []
    t0 = time.time()
    for i, (origin, case) in enumerate(cases):
        style, placement = styles[i % len(styles)], PLACEMENTS[(i // len(styles)) % len(PLACEMENTS)]
        pair = cite_case(case, style, placement)
        a, b = checker.check(pair.plain), checker.check(pair.cited)
        rows.append({
            "origin": origin, "style": style, "placement": placement, "markers": len(pair.markers),
            "risk_plain": round(a.risk_score, 4), "risk_cited": round(b.risk_score, 4),
            "verdict_flip": a.hallucinated != b.hallucinated, "decision_flip": a.decision != b.decision,
        })
        if (i + 1) % 100 == 0:
            print(f"{i + 1} cases in {time.time() - t0:.0f}s", file=sys.stderr)
    by_style: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_style[r["style"]].append(r)

    def summary(rs: list[dict[str, Any]]) -> dict[str, Any]:
        d = [abs(r["risk_cited"] - r["risk_plain"]) for r in rs]
        return {
            "cases": len(rs),
            "verdict_flips": sum(r["verdict_flip"] for r in rs),
            "decision_flips": sum(r["decision_flip"] for r in rs),
            "mean_abs_risk_change": round(sum(d) / max(len(d), 1), 4),
            "max_abs_risk_change": round(max(d, default=0.0), 4),
            "over_0.02": sum(x > 0.02 for x in d),
        }

    result = {"all": summary(rows), "by_style": {s: summary(rs) for s, rs in by_style.items()}}
    print(f"{'style':<12}{'cases':>6}{'verdict':>9}{'decision':>10}{'mean|d|':>9}{'max|d|':>8}{'>0.02':>7}")
    for name, s in [("all", result["all"]), *result["by_style"].items()]:
        print(f"{name:<12}{s['cases']:>6}{s['verdict_flips']:>9}{s['decision_flips']:>10}"
              f"{s['mean_abs_risk_change']:>9.4f}{s['max_abs_risk_change']:>8.4f}{s['over_0.02']:>7}")
    worst = sorted(rows, key=lambda r: -abs(r["risk_cited"] - r["risk_plain"]))[:10]
    path = write_result(f"citation_markers_{args.split}", {"machine": machine(), **result, "worst": worst})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
