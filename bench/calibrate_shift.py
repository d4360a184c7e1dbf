"""Does ``hallucheck calibrate`` fix a threshold that is off? Calibrate on N answers, score the rest.

    python bench/calibrate_shift.py --data FILE [--format generic|ragtruth] [--split train]
        [--limit 1000] [--calib-size 400] [--base-rate 0.15] [--seed 13 | --seeds 13-42]
        [--threshold-method shifted|expected|resampled] [--plain-threshold] [--pool 3000 [--pool-seed 7]] [--cache FILE] [--name NAME]

Runs the default checker once over the answers, puts whole source groups into a calibration set
of about ``--calib-size`` answers and an evaluation set (the rest), refits the default policy on
the calibration set exactly as ``hallucheck calibrate`` does (Platt scaling and threshold; no
stack refit at this size), and prints response-level P / R / F1 on the evaluation set for the
default policy, the calibrated policy, and the best threshold on the evaluation set itself
(an oracle: the most any threshold could give). ``--base-rate`` drops hallucinated answers at
random until they are that share (a deployment with fewer hallucinations than the training
data). ``--seeds`` repeats all of it for several seeds (other answers dropped, other groups
drawn; each answer is checked once) and prints the mean and the worst gap to the best threshold,
and the same gap for a reference threshold known to be right for the part (the best over all
draws' answers together), which shows how much of the gap no method could close.
``--pool`` first keeps whole source groups (drawn with a fixed seed, the same for every
``--seed``; ``--pool-seed`` draws another) until about that many answers: the draws then come from one part of the size of the
calib part, which keeps a run over the large train part short. ``--cache`` keeps the detectors'
findings in a file and reuses them in the next run (delete it after changing a detector).
Writes bench/results/calibrate_shift_<name>.json. Methods are compared and chosen on train or
calib parts only; ``--split dev --report-dev`` reports the chosen method on the dev part, whose
answers neither the tagger (trained on train) nor the policy (fitted on calib) has seen.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result

from hallucheck import Checker
from hallucheck.analysis import CaseAnalysis
from hallucheck.calibration.calibrate import Sample, calibrate_policy, source_group
from hallucheck.eval.datasets import Example, load_dataset
from hallucheck.metrics import best_threshold
from hallucheck.metrics import prf_of as prf
from hallucheck.policies.learned import LearnedPolicy
from hallucheck.types import Finding


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi) + 1)) if hi else [int(lo)]
    return out


POOL_SEED = 7  # the draw of the source groups behind --pool, the same for every --seed


def _pool(examples: list[Example], size: int, seed: int = POOL_SEED) -> list[Example]:
    """Whole source groups of ``examples`` (drawn by ``seed``) until about ``size`` answers."""
    by_group: dict[str, list[Example]] = {}
    for e in examples:
        by_group.setdefault(source_group(CaseAnalysis(e.case)), []).append(e)
    keys = sorted(by_group)
    out: list[Example] = []
    for j in np.random.default_rng(seed).permutation(len(keys)):
        if len(out) >= size:
            break
        out += by_group[keys[j]]
    return out


def _case_key(example: Example) -> str:
    c = example.case
    blob = "\x1f".join([c.question or "", c.answer, *(s.text for s in c.contexts)])
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()


class Draw(NamedTuple):
    """One draw's default-policy risks, kept for the reference threshold (not written out):
    all its answers, and the evaluation part with the best F1 any threshold gives there."""

    risk: np.ndarray
    label: np.ndarray
    rest_risk: np.ndarray
    rest_label: np.ndarray
    rest_best_f1: float


def run_seed(args: argparse.Namespace, seed: int, examples: list[Example], checker: Checker,
             findings: dict[int, list[Finding]], checked: set[int]) -> tuple[dict[str, Any], Draw]:
    """One draw: the answers kept, the calibration / evaluation split, the three scores, and the
    risks the reference threshold needs."""
    rng = np.random.default_rng(seed)
    idx = list(range(len(examples)))
    if args.base_rate is not None:
        pos = [i for i in idx if examples[i].gold.hallucinated]
        neg = [i for i in idx if not examples[i].gold.hallucinated]
        keep = int(round(args.base_rate * len(neg) / (1 - args.base_rate)))
        pos = [pos[i] for i in sorted(rng.choice(len(pos), size=min(keep, len(pos)), replace=False))]
        idx = neg + pos
    order = rng.permutation(len(idx))
    idx = [idx[i] for i in order[: args.limit]]
    spec = checker.policy.spec  # type: ignore[attr-defined]
    samples: list[Sample] = []
    t0 = time.time()
    for n, i in enumerate(idx):
        if i not in findings:
            findings[i] = list(checker.check(examples[i].case).findings)
            checked.add(i)
        analysis = CaseAnalysis(examples[i].case)
        samples.append(Sample(analysis, findings[i], bool(examples[i].gold.hallucinated), source_group(analysis)))
        if (n + 1) % 100 == 0:
            print(f"{n + 1} answers in {time.time() - t0:.0f}s", file=sys.stderr)
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
    plain = {"threshold_rounds": 0, "threshold_width": 1} if args.plain_threshold else {}
    fitted = calibrate_policy(spec, cal, refit_stack=False, threshold_method=args.threshold_method, **plain)
    y = np.array([s.label for s in rest], dtype=bool)
    default = LearnedPolicy(spec=spec)
    default_pred, default_risk = scores(default, rest)
    cal_pred, _ = scores(LearnedPolicy(spec=fitted.spec), rest)
    oracle_t, _ = best_threshold(default_risk, y)
    result: dict[str, Any] = {
        "seed": seed, "answers": len(samples), "base_rate": round(float(np.mean([s.label for s in samples])), 4),
        "calibration_answers": len(cal), "calibration_hallucinated": int(sum(s.label for s in cal)),
        "evaluation_answers": len(rest), "evaluation_hallucinated": int(y.sum()),
        "default": {"threshold": float(spec["threshold"]), **prf(default_pred, y)},
        "calibrated": {"threshold": fitted.spec["threshold"], **prf(cal_pred, y)},
        "best_threshold_on_evaluation": {"threshold": oracle_t, **prf(default_risk >= oracle_t, y)},
        "calibration_report": fitted.report,
    }
    result["gap_to_best"] = round(result["best_threshold_on_evaluation"]["f1"] - result["calibrated"]["f1"], 4)
    draw = Draw(risk=np.concatenate([scores(default, cal)[1], default_risk]),
                label=np.concatenate([np.array([s.label for s in cal], dtype=bool), y]),
                rest_risk=default_risk, rest_label=y, rest_best_f1=result["best_threshold_on_evaluation"]["f1"])
    return result, draw


def scores(policy: LearnedPolicy, samples: list[Sample]) -> tuple[np.ndarray, np.ndarray]:
    """The policy's verdict and risk for each sample (not flagged, risk 0 without findings)."""
    verdicts = [policy.decide(s.analysis, s.findings) if s.findings else None for s in samples]
    pred = np.array([bool(v and v.hallucinated) for v in verdicts])
    risk = np.array([v.risk_score if v else 0.0 for v in verdicts])
    return pred, risk


def reference_gaps(runs: list[dict[str, Any]], draws: list[Draw]) -> dict[str, Any]:
    """How far a threshold known in advance to be right falls below each draw's own best.

    The target "the best threshold on the rest" is chosen on the very answers it is scored on,
    so it is optimistic: with about 60 hallucinated answers among 500, some other threshold fits
    those particular answers better than the one right for the data they came from. The
    reference is the default policy's threshold with the best F1 over the answers of all draws
    together (every draw is one sample of the same part at the same hallucinated share); its gap
    on each draw's rest is the part of the gap that no calibration on 400 answers can close.
    It is itself chosen with those answers in view, so it is a lenient lower bound.
    """
    t_ref, _ = best_threshold(np.concatenate([d.risk for d in draws]), np.concatenate([d.label for d in draws]))
    gaps = []
    for r, d in zip(runs, draws, strict=True):
        f1 = prf(d.rest_risk >= t_ref, d.rest_label)["f1"]
        r["reference_threshold"] = {"threshold": t_ref, "f1": f1}
        r["reference_gap_to_best"] = round(d.rest_best_f1 - f1, 4)
        gaps.append(r["reference_gap_to_best"])
    return {"reference_threshold": t_ref, "reference_gap_mean": round(float(np.mean(gaps)), 4),
            "reference_gap_worst": round(float(np.max(gaps)), 4),
            "reference_draws_within_0.02": int(sum(g <= 0.02 for g in gaps))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--format", default="generic")
    ap.add_argument("--split", default="train")
    ap.add_argument("--limit", type=int, default=1000)
    ap.add_argument("--calib-size", type=int, default=400)
    ap.add_argument("--base-rate", type=float, default=None)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--seeds", default=None, help="several seeds: 13,14,15 or 13-42 (overrides --seed)")
    ap.add_argument("--threshold-method", choices=["shifted", "expected", "resampled"], default="shifted",
                    help="how calibrate chooses the threshold (its --threshold-method; shifted is the default)")
    ap.add_argument("--plain-threshold", action="store_true",
                    help="with --threshold-method resampled: the plain best threshold of the calibration answers "
                         "(the method before 2026-11-24)")
    ap.add_argument("--pool", type=int, default=None,
                    help="draw from about this many answers of the part (whole source groups, a fixed draw)")
    ap.add_argument("--pool-seed", type=int, default=POOL_SEED, help="another fixed draw of the pool's source groups")
    ap.add_argument("--cache", default=None, help="a file keeping the findings between runs")
    ap.add_argument("--name", default="run")
    ap.add_argument("--report-dev", action="store_true",
                    help="allow --split dev: the answers neither the tagger nor the policy was fitted on, as a "
                         "user's are; a report of the method as it is, never a way to choose or tune it")
    args = ap.parse_args()
    if args.split == "dev" and not args.report_dev:
        sys.exit("calibrate_shift on dev is a report only: add --report-dev (and choose nothing by it)")
    if args.plain_threshold and args.threshold_method != "resampled":
        sys.exit("--plain-threshold goes with --threshold-method resampled")
    seeds = _seeds(args.seeds) if args.seeds else [args.seed]
    examples = list(load_dataset(args.data, args.format, split=args.split))
    if args.pool:
        examples = _pool(examples, args.pool, args.pool_seed)
    checker = Checker()
    assert isinstance(checker.policy, LearnedPolicy)
    keys = [_case_key(e) for e in examples]
    cached: dict[str, list[Finding]] = {}
    if args.cache and Path(args.cache).exists():
        cached = pickle.loads(Path(args.cache).read_bytes())
    findings: dict[int, list[Finding]] = {i: cached[k] for i, k in enumerate(keys) if k in cached}
    checked: set[int] = set()
    runs: list[dict[str, Any]] = []
    draws: list[Draw] = []
    for seed in seeds:
        r, draw = run_seed(args, seed, examples, checker, findings, checked)
        draws.append(draw)
        if args.cache and checked:
            cached.update({keys[i]: findings[i] for i in checked})
            Path(args.cache).write_bytes(pickle.dumps(cached))
            checked.clear()
        runs.append(r)
        print(f"{args.data} ({args.split}), seed {seed}: {r['answers']} answers, base rate {r['base_rate']}; "
              f"calibrated on {r['calibration_answers']} ({r['calibration_hallucinated']} hallucinated), "
              f"scored on {r['evaluation_answers']} ({r['evaluation_hallucinated']} hallucinated)")
        for key in ("default", "calibrated", "best_threshold_on_evaluation"):
            s = r[key]
            print(f"  {key:<30} threshold {s['threshold']:.2f}  P {s['precision']:.3f}  R {s['recall']:.3f}  F1 {s['f1']:.3f}")
        print(f"  gap to the best threshold: {r['gap_to_best']:.3f}", flush=True)
    gaps = [r["gap_to_best"] for r in runs]
    reference = reference_gaps(runs, draws) if len(runs) > 1 else {}
    payload: dict[str, Any] = {"machine": machine(), "data": args.data, "split": args.split, "base_rate_asked": args.base_rate,
                               "pool": args.pool, "pool_seed": args.pool_seed if args.pool else None,
                               "threshold_method": args.threshold_method,
                               "plain_threshold": args.plain_threshold,
                               **(runs[0] if len(runs) == 1 else {"seeds": runs}),
                               "gap_mean": round(float(np.mean(gaps)), 4), "gap_worst": round(float(np.max(gaps)), 4),
                               "draws_within_0.02": int(sum(g <= 0.02 for g in gaps)), **reference}
    if len(runs) > 1:
        print(f"gap to the best threshold over {len(runs)} seeds: mean {np.mean(gaps):.4f}, worst {np.max(gaps):.4f} "
              f"(seed {seeds[int(np.argmax(gaps))]}), {payload['draws_within_0.02']} draws within 0.02")
        print(f"the same for the reference threshold {reference['reference_threshold']:.2f} (best over all draws' answers): "
              f"mean {reference['reference_gap_mean']:.4f}, worst {reference['reference_gap_worst']:.4f}, "
              f"{reference['reference_draws_within_0.02']} draws within 0.02")
    print(f"wrote {write_result(f'calibrate_shift_{args.name}', payload)}")


if __name__ == "__main__":
    main()
