"""Does ``hallucheck calibrate`` fix a threshold that is off? Calibrate on N answers, score the rest.

    python bench/calibrate_shift.py --data FILE [--format generic|ragtruth] [--split train]
        [--limit 1000] [--calib-size 400] [--base-rate 0.15] [--seed 13] [--name NAME]

Runs the default checker once over the answers, puts whole source groups into a calibration set
of about ``--calib-size`` answers and an evaluation set (the rest), refits the default policy on
the calibration set exactly as ``hallucheck calibrate`` does (Platt scaling and threshold; no
stack refit at this size), and prints response-level P / R / F1 on the evaluation set for the
default policy, the calibrated policy, and the best threshold on the evaluation set itself
(an oracle: the most any threshold could give). ``--base-rate`` drops hallucinated answers at
random until they are that share (a deployment with fewer hallucinations than the training
data). Writes bench/results/calibrate_shift_<name>.json. Use train or calib parts only.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result

from hallucheck import Checker
from hallucheck.analysis import CaseAnalysis
from hallucheck.eval.datasets import load_dataset
from hallucheck.metrics import best_threshold
from hallucheck.metrics import prf_of as prf
from hallucheck.policies.learned import LearnedPolicy
from hallucheck.train.calibration import Sample, calibrate_policy, source_group


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--format", default="generic")
    ap.add_argument("--split", default="train")
    ap.add_argument("--limit", type=int, default=1000)
    ap.add_argument("--calib-size", type=int, default=400)
    ap.add_argument("--base-rate", type=float, default=None)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--name", default="run")
    args = ap.parse_args()
    if args.split == "dev":
        sys.exit("calibrate_shift chooses thresholds: use a train or calib part, never dev")
    rng = np.random.default_rng(args.seed)
    examples = list(load_dataset(args.data, args.format, split=args.split))
    if args.base_rate is not None:
        pos = [e for e in examples if e.gold.hallucinated]
        neg = [e for e in examples if not e.gold.hallucinated]
        keep = int(round(args.base_rate * len(neg) / (1 - args.base_rate)))
        pos = [pos[i] for i in sorted(rng.choice(len(pos), size=min(keep, len(pos)), replace=False))]
        examples = neg + pos
    order = rng.permutation(len(examples))
    examples = [examples[i] for i in order[: args.limit]]
    checker = Checker()
    assert isinstance(checker.policy, LearnedPolicy)
    spec = checker.policy.spec
    samples: list[Sample] = []
    t0 = time.time()
    for i, ex in enumerate(examples):
        report = checker.check(ex.case)
        analysis = CaseAnalysis(ex.case)
        samples.append(Sample(analysis, list(report.findings), bool(ex.gold.hallucinated), source_group(analysis)))
        if (i + 1) % 100 == 0:
            print(f"{i + 1} answers in {time.time() - t0:.0f}s", file=sys.stderr)
    groups = sorted({s.group for s in samples})
    g_order = rng.permutation(len(groups))
    cal_groups: set[str] = set()
    count = 0
    for j in g_order:
        if count >= args.calib_size:
            break
        g = groups[j]
        cal_groups.add(g)
        count += sum(s.group == g for s in samples)
    cal = [s for s in samples if s.group in cal_groups]
    rest = [s for s in samples if s.group not in cal_groups]
    fitted = calibrate_policy(spec, cal, refit_stack=False)
    y = np.array([s.label for s in rest], dtype=bool)

    def scores(policy: LearnedPolicy) -> tuple[np.ndarray, np.ndarray]:
        verdicts = [policy.decide(s.analysis, s.findings) if s.findings else None for s in rest]
        pred = np.array([bool(v and v.hallucinated) for v in verdicts])
        risk = np.array([v.risk_score if v else 0.0 for v in verdicts])
        return pred, risk

    default_pred, default_risk = scores(LearnedPolicy(spec=spec))
    cal_pred, _ = scores(LearnedPolicy(spec=fitted.spec))
    oracle_t, _ = best_threshold(default_risk, y)
    result: dict[str, Any] = {
        "data": args.data, "split": args.split, "answers": len(samples), "base_rate": round(float(np.mean([s.label for s in samples])), 4),
        "calibration_answers": len(cal), "evaluation_answers": len(rest), "evaluation_hallucinated": int(y.sum()),
        "default": {"threshold": float(spec["threshold"]), **prf(default_pred, y)},
        "calibrated": {"threshold": fitted.spec["threshold"], **prf(cal_pred, y)},
        "best_threshold_on_evaluation": {"threshold": oracle_t, **prf(default_risk >= oracle_t, y)},
        "calibration_report": fitted.report,
    }
    gap = result["best_threshold_on_evaluation"]["f1"] - result["calibrated"]["f1"]
    result["gap_to_best"] = round(gap, 4)
    print(f"{args.data} ({args.split}): {len(samples)} answers, base rate {result['base_rate']}; "
          f"calibrated on {len(cal)}, scored on {len(rest)} ({int(y.sum())} hallucinated)")
    for key in ("default", "calibrated", "best_threshold_on_evaluation"):
        r = result[key]
        print(f"  {key:<30} threshold {r['threshold']:.2f}  P {r['precision']:.3f}  R {r['recall']:.3f}  F1 {r['f1']:.3f}")
    print(f"  gap to the best threshold: {gap:.3f}")
    path = write_result(f"calibrate_shift_{args.name}", {"machine": machine(), **result})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
