"""Measure the rule-given policies (tiered, vote, weighted) on the RAGTruth *train* part.

Runs the default cheap detectors once per answer, hands the same findings to every policy, and
prints per policy: response-level precision / recall / F1 of ``hallucinated``, the share of
accept / review / reject, and AUROC of ``risk_score``; first, character-level span P/R/F1 of the merged spans of all
detectors (what a report shows; the same for every policy). Used to choose the weighted policy's
role combination; never tune on the calib or dev parts.

    python bench/policies_train.py --limit 2000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lexical_train import DATA, analyses, auroc, chars, prf, records

from hallucheck.detectors import get_detector
from hallucheck.policies import get_policy
from hallucheck.spans import merge_spans

DETECTORS = ("citations", "lexicon", "numbers", "ngram", "overlap")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--limit", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--policies", default='[["tiered", {}], ["vote", {}], ["weighted", {}]]', help="JSON list of [name, options]")
    args = ap.parse_args()
    rows = records(DATA, "train", 0, 0)
    random.Random(args.seed).shuffle(rows)
    rows = rows[: args.limit]
    rows.sort(key=lambda r: (r["task_type"], r["query"], r["context"]))
    cases = analyses(rows)
    dets = [get_detector(n) for n in DETECTORS]
    findings = [[d.detect(a) for d in dets] for a in cases]
    labels = [int(bool(r["labels"])) for r in rows]
    tp = fp = fn = 0
    for r, a, fs in zip(rows, cases, findings):
        gold = chars((lab["start"], lab["end"]) for lab in r["labels"])
        pred = chars((s.start, s.end) for s in merge_spans([s for f in fs for s in f.spans], a.case.answer))
        tp, fp, fn = tp + len(gold & pred), fp + len(pred - gold), fn + len(gold - pred)
    print(json.dumps({"merged_spans_char_prf": [round(x, 4) for x in prf(tp, fp, fn)], "detectors": list(DETECTORS)}))
    for name, options in json.loads(args.policies):
        policy = get_policy(name, **options)
        verdicts = [policy.decide(a, fs) for a, fs in zip(cases, findings)]
        tp = sum(1 for v, y in zip(verdicts, labels) if v.hallucinated and y)
        fp = sum(1 for v, y in zip(verdicts, labels) if v.hallucinated and not y)
        fn = sum(1 for v, y in zip(verdicts, labels) if not v.hallucinated and y)
        share = {d: round(sum(v.decision == d for v in verdicts) / len(verdicts), 3) for d in ("accept", "review", "reject")}
        print(
            json.dumps(
                {
                    "policy": name,
                    "options": options,
                    "n": len(rows),
                    "hallucinated_rate": round(sum(labels) / len(labels), 3),
                    "prf": [round(x, 3) for x in prf(tp, fp, fn)],
                    "decisions": share,
                    "auroc_risk": round(auroc([v.risk_score for v in verdicts], labels), 4),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
