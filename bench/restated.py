"""Answers whose every sentence restates a source sentence: how often are they hallucinated?

    nice python bench/restated.py --data DIR/debref.zh-Hans.jsonl --data data/reworded/zh-Hans.jsonl \
        --data ../shared/data/ragtruth/train.jsonl.gz --parts train,calib

The measure behind the safeguard of ``hallucheck.policies.safeguards`` (rule 3): an answer whose
every content sentence restates one source sentence (``hallucheck.detectors.model.restated``: all
its content words and figures there, the same negations, no swapped sides) is sent to review
instead of rejected when only word-order detectors flagged it. For each labelled file and part,
it counts such answers and the share of them labelled hallucinated. Answers whose only labelled
error is a citation marker are counted apart: the citation rules judge markers, and their floor
and never-accepted kinds still decide after the safeguard. Only the parts given are read (the
default, train and calib, leaves dev for reports). Writes bench/results/restated.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result


def _measure(path: Path, part: str, limit: int | None) -> dict[str, Any]:
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.detectors.model.restated import every_sentence_restated
    from hallucheck.eval.datasets import load_dataset

    fmt = "ragtruth" if path.name.endswith(".gz") else "generic"
    n = restated = hallucinated = citation_only = 0
    kinds: Counter[str] = Counter()
    for ex in load_dataset(path, fmt, split=part, limit=limit):
        n += 1
        analysis = CaseAnalysis(ex.case)
        if not every_sentence_restated(analysis):
            continue
        restated += 1
        if not ex.gold.hallucinated:
            continue
        markers = analysis.citation_markers
        if ex.gold.spans and all(any(m.start <= a and b <= m.end for m in markers) for a, b in ex.gold.spans):
            citation_only += 1
            continue
        hallucinated += 1
        kinds[str((ex.case.metadata or {}).get("edit", ex.case.task))] += 1
    judged = restated - citation_only
    return {
        "answers": n,
        "restated": restated,
        "citation_only_errors": citation_only,
        "hallucinated": hallucinated,
        "share_hallucinated": round(hallucinated / judged, 4) if judged else None,
        "hallucinated_kinds": dict(kinds.most_common()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, action="append", required=True,
                    help="a labelled file (RAGTruth .jsonl.gz or generic .jsonl); repeatable")
    ap.add_argument("--parts", default="train,calib", help="comma-separated parts to read (train, calib, dev)")
    ap.add_argument("--limit", type=int, default=None, help="at most N answers per file and part")
    ap.add_argument("--name", default="restated")
    args = ap.parse_args()
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    t0 = time.time()
    rows: dict[str, dict[str, Any]] = {}
    total: Counter[str] = Counter()
    print("| data | part | answers | every sentence restated | of them: citation-only errors | hallucinated otherwise | share |")
    print("|---|---|---|---|---|---|---|")
    for path in args.data:
        for part in parts:
            row = _measure(path, part, args.limit)
            rows[f"{path.name}:{part}"] = row
            for k in ("answers", "restated", "citation_only_errors", "hallucinated"):
                total[k] += row[k]
            share = "—" if row["share_hallucinated"] is None else f"{100 * row['share_hallucinated']:.1f}%"
            print(f"| {path.name} | {part} | {row['answers']} | {row['restated']} | {row['citation_only_errors']} "
                  f"| {row['hallucinated']} {row['hallucinated_kinds'] or ''} | {share} |", flush=True)
    judged = total["restated"] - total["citation_only_errors"]
    share_all = round(total["hallucinated"] / judged, 4) if judged else None
    print(f"\nall: {total['restated']} restated answers, {total['hallucinated']} hallucinated beyond citation markers "
          f"({'—' if share_all is None else f'{100 * share_all:.1f}%'})")
    write_result(args.name, {"machine": machine(), "parts": parts, "seconds": round(time.time() - t0, 1),
                             "rows": rows, "total": {**total, "share_hallucinated": share_all}})


if __name__ == "__main__":
    main()
