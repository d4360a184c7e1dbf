"""Span F1 of the report on a RAGTruth part, with the tagger's findings read from a cache.

    python bench/report_spans.py --cache DIR [--part calib] [--data RAGTRUTH]

The span tagger is the slow part of the default stack; ``hallucheck train-policy --cache DIR``
keeps its findings (risk, features, spans) per answer. This bench runs every other detector, the
policy, the floors and the report-span tidying live, and takes the ``model`` finding from the
cache, so a change to the report spans or to the cheap detectors can be measured on calib in a
minute instead of an hour. Prints response P / R / F1 and character span P / R / F1 of the report,
and the same spans before ``tidy_spans`` (merged only); writes bench/results/report_spans_<part>.json.
On main at the time of writing it reproduced ``bench/evaluate.py``'s dev numbers to four decimals.
Use calib (or train) to choose; dev only to report.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result

from hallucheck.analysis import CaseAnalysis
from hallucheck.checker import Checker
from hallucheck.eval.datasets import load_dataset
from hallucheck.metrics import prf, span_prf
from hallucheck.policies.safeguards import final_verdict
from hallucheck.spans import merge_spans
from hallucheck.train.stack_data import load_cache
from hallucheck.types import Finding, Span


class CachedDetector:
    """Stands in for a detector: its finding for the answer being checked, from the cache."""

    def __init__(self, real: Any, rows: dict[str, dict[str, Any]]) -> None:
        self.real, self.rows, self.key = real, rows, ""
        self.name, self.layer, self.role = real.name, real.layer, real.role

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.real, attr)

    def detect(self, analysis: CaseAnalysis) -> Finding:
        row = self.rows[self.key]
        answer = analysis.answer
        spans = [Span(start=a, end=b, text=answer[a:b], label=label, score=score, detector=self.name)
                 for a, b, score, label in row["spans"]]
        return Finding(detector=self.name, risk=row["risk"], flagged=row["flagged"], features=row["features"],
                       spans=spans, role=self.role, error=row.get("error"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", required=True, help="a train-policy cache holding model.jsonl")
    ap.add_argument("--part", default="calib", choices=["train", "calib", "dev"])
    ap.add_argument("--data", default=str(RAGTRUTH))
    args = ap.parse_args()
    checker = Checker()
    rows = load_cache(args.cache, "model")
    cached = [CachedDetector(d, rows) for d in checker.detectors if d.name == "model"]
    checker.detectors = [cached[0] if d.name == "model" else d for d in checker.detectors]
    tp = fp = fn = 0
    tidy: list[list[tuple[int, int]]] = []
    merged_only: list[list[tuple[int, int]]] = []
    gold: list[list[tuple[int, int]]] = []
    for ex in load_dataset(args.data, "ragtruth", split=args.part):
        key = f"{args.part}:{ex.line}"
        if key not in rows:
            continue
        cached[0].key = key
        report = checker.check(ex.case)
        flagged = report.hallucinated
        tp += flagged and ex.gold.hallucinated
        fp += flagged and not ex.gold.hallucinated
        fn += (not flagged) and ex.gold.hallucinated
        verdict = final_verdict(checker.policy, CaseAnalysis(ex.case), report.findings, checker.floors,
                                skipped=checker.skipped, coverage=report.coverage)
        chosen = verdict.spans if verdict.spans is not None else [s for f in report.findings for s in f.spans]
        tidy.append([(s.start, s.end) for s in report.spans] if flagged else [])
        merged_only.append([(s.start, s.end) for s in merge_spans(list(chosen), ex.case.answer)] if flagged else [])
        gold.append(list(ex.gold.spans))
    p, r, f1 = prf(tp, tp + fp, tp + fn)
    out: dict[str, Any] = {"machine": machine(), "part": args.part, "answers": len(gold),
                           "response": {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4)},
                           "span": span_prf(tidy, gold), "span_merged_only": span_prf(merged_only, gold)}
    print(f"{args.part}: {len(gold)} answers  response P {p:.4f} R {r:.4f} F1 {f1:.4f}")
    for name in ("span", "span_merged_only"):
        s = out[name]
        print(f"  {name:17} P {s['precision']:.4f} R {s['recall']:.4f} F1 {s['f1']:.4f}")
    print(f"wrote {write_result(f'report_spans_{args.part}', out)}")


if __name__ == "__main__":
    main()
