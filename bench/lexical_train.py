"""Measure the lexical detectors (ngram, overlap) on the RAGTruth *train* part of the split.

Prints, per detector configuration: response-level AUROC of the risk and of each feature, F1 of
the detector's own flag, character-level span precision/recall/F1 (micro over all responses),
and throughput. Used to choose span modes, token sets and the weighted policy's role mapping;
never run it on the calib or dev parts for tuning.

    python bench/lexical_train.py --limit 3000
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hallucheck import metrics
from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import CaseFacts
from hallucheck.cases import make_case
from hallucheck.detectors import get_detector
from hallucheck.eval.split import part_of

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ragtruth" / "train.jsonl.gz"
TASKS = {"QA": "qa", "Summary": "summary", "Data2txt": "data2txt"}


def records(path: Path, part: str, limit: int, seed: int) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        rows = [r for r in map(json.loads, fh) if part_of(r) == part]
    random.Random(seed).shuffle(rows)
    rows = rows[:limit] if limit else rows
    rows.sort(key=lambda r: (r["task_type"], r["query"], r["context"]))  # same source together
    return rows


def case_of(r: dict[str, Any]):
    return make_case(question=r["query"], contexts=[r["context"]], answer=r["output"], task=TASKS[r["task_type"]])


def auroc(scores: list[float], labels: list[int]) -> float:
    area = metrics.auroc(scores, [bool(lab) for lab in labels])
    return float("nan") if area is None else area


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    return metrics.prf(tp, tp + fp, tp + fn)


def chars(spans: Iterator[tuple[int, int]]) -> set[int]:
    out: set[int] = set()
    for a, b in spans:
        out.update(range(a, b))
    return out


def analyses(rows: list[dict[str, Any]]) -> list[CaseAnalysis]:
    """Tokenised cases, built once and shared by every configuration (tokenising dominates)."""
    out = []
    for r in rows:
        a = CaseAnalysis(case_of(r))
        a.tokens_by_sentence, a.source.tokens, a.source.sentences  # noqa: B018 - compute now
        out.append(a)
    return out


def evaluate(name: str, options: dict[str, Any], rows: list[dict[str, Any]], cases: list[CaseAnalysis]) -> dict[str, Any]:
    det = get_detector(name, **options)
    for a in cases[:50]:  # warm the source-side caches outside the timing
        det.detect(a)
    labels, risks, flags = [], [], []
    feats: dict[str, list[float]] = {}
    tp = fp = fn = 0
    t0 = time.perf_counter()
    for r, c in zip(rows, cases):
        c.facts = CaseFacts()
        f = det.detect(c)
        y = int(bool(r["labels"]))
        labels.append(y)
        risks.append(f.risk)
        flags.append(int(f.flagged))
        for k, v in f.features.items():
            feats.setdefault(k, []).append(float(v))
        gold = chars((lab["start"], lab["end"]) for lab in r["labels"])
        pred = chars((s.start, s.end) for s in f.spans)
        tp += len(gold & pred)
        fp += len(pred - gold)
        fn += len(gold - pred)
    dt = time.perf_counter() - t0
    ftp = sum(1 for y, p in zip(labels, flags) if y and p)
    ffp = sum(1 for y, p in zip(labels, flags) if not y and p)
    ffn = sum(1 for y, p in zip(labels, flags) if y and not p)
    return {
        "detector": name,
        "options": options,
        "n": len(rows),
        "auroc_risk": round(auroc(risks, labels), 4),
        "flag_prf": [round(x, 4) for x in prf(ftp, ffp, ffn)],
        "span_prf": [round(x, 4) for x in prf(tp, fp, fn)],
        "feature_auroc": {k: round(auroc(v, labels), 4) for k, v in feats.items()},
        "ms_per_answer_detector_only": round(1000 * dt / len(rows), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--limit", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--task", choices=sorted(TASKS), default=None)
    ap.add_argument("--configs", default='[["ngram", {}], ["overlap", {}]]', help="JSON list of [name, options]")
    args = ap.parse_args()
    rows = records(DATA, "train", 0, args.seed)
    if args.task:
        rows = [r for r in rows if r["task_type"] == args.task]
    random.Random(args.seed).shuffle(rows)
    rows = rows[: args.limit]
    rows.sort(key=lambda r: (r["task_type"], r["query"], r["context"]))
    cases = analyses(rows)
    for name, options in json.loads(args.configs):
        print(json.dumps(evaluate(name, options, rows, cases)), flush=True)


if __name__ == "__main__":
    main()
