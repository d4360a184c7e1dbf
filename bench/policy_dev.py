"""Dev numbers of a fitted learned policy (its English stages) on a ``train-policy`` detector cache.

    python bench/policy_dev.py --cache DIR [--policy POLICY.json] [--data RAGTRUTH]

Refits nothing: the stages of the policy (the shipped one by default) score the dev part of the
cache's answers through the same numpy evaluator and span choice as ``hallucheck train-policy``'s
dev report. Use it to check that a change to the detectors (run ``train-policy --cache DIR`` first
to fill the cache) leaves RAGTruth dev where it was. Prints response P / R / F1, AUROC, per task,
and span P / R / F1 per stage; writes bench/results/policy_dev.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result

from hallucheck.policies.learned import Stage, load_spec
from hallucheck.train.stack import _answers, _dev_report, _rows
from hallucheck.train.stack_data import load_cache


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", required=True)
    ap.add_argument("--policy", default=None)
    ap.add_argument("--data", default=str(RAGTRUTH))
    args = ap.parse_args()
    cache = Path(args.cache)
    spec = load_spec(args.policy)
    gold = load_cache(cache, "gold")
    stage_models = {}
    for name, st in spec["stages"].items():
        stage = Stage(st)
        keys, feats = _rows(cache, list(stage.detectors), gold)
        stage_models[name] = (stage, {k: stage.filled_vector(f)[0] for k, f in zip(keys, feats)})
    report = _dev_report(cache, gold, _answers(args.data), stage_models, spec)
    report.pop("model_alone", None)
    for name, r in report.items():
        s = r["span"]
        print(f"{name}: n {r['n']}  P {r['precision']:.4f}  R {r['recall']:.4f}  F1 {r['f1']:.4f}  AUROC {r['auroc']:.4f}  "
              f"span P {s['precision']:.4f}  R {s['recall']:.4f}  F1 {s['f1']:.4f}")
    path = write_result("policy_dev", {"machine": machine(), "cache": str(cache), "policy": args.policy or "shipped", **report})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
