"""Would the learned policy gain from more rows? Two checks on the calib part, over the detector
cache `hallucheck train-policy --cache` keeps.

    python bench/policy_rows.py --cache CACHE [--stage full|cheap] [--train-cache DIR] [--repeats 3]

- **Learning curve**: the stage's calib out-of-fold F1 (5 folds grouped by source, the fit's
  own recipe) when each fold's trees see only a share (25 / 50 / 75 / 100%) of the other folds'
  sources, drawn ``--repeats`` times; every share is scored on the same held-out folds. A curve
  still rising at 100% says more rows would help.
- **Train rows** (``--train-cache``: a folder of train-part rows, ``CACHE/train-out-of-fold``
  after ``train-policy --train-taggers``, or cheap detectors alone collected over the train
  part): the same folds with the train rows added to every fold's trees (with and without the
  calib rows). The cheap stage needs no tagger, so its train rows need no cross-fitting.

RAGTruth calib rows only (no extra cases); each F1 is at the best threshold of its Platt-scaled
out-of-fold probabilities, so it is an upper reading for every variant alike. Calib only: nothing
on dev is read. Writes ``bench/results/policy_rows_<stage>.json``.
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

from hallucheck.calibration import stage_fit
from hallucheck.policies.default import DEFAULT_DETECTORS
from hallucheck.train import stack
from hallucheck.train.stack_data import load_cache

SHARES = (0.25, 0.5, 0.75, 1.0)


def _stage_rows(cache: Path, detectors: list[str], part: str) -> tuple[list[str], list[dict[str, float]], dict[str, Any]]:
    gold = {k: g for k, g in load_cache(cache, "gold").items() if g["part"] == part}
    keys, feats = stack._rows(cache, detectors, gold)
    return keys, feats, gold


def _f1(raw: np.ndarray, y: np.ndarray) -> float:
    a, b = stage_fit._platt(raw, y)
    return float(stack._best_threshold(stage_fit.sigmoid(a * raw + b), y)[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, required=True, help="a train-policy cache holding the calib part")
    ap.add_argument("--stage", default="full", choices=("full", "cheap"))
    ap.add_argument("--train-cache", type=Path, default=None, help="a folder of train-part rows of the same detectors")
    ap.add_argument("--repeats", type=int, default=3, help="draws of each share below 100%%")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    from sklearn.model_selection import GroupKFold

    detectors = list(DEFAULT_DETECTORS) + (["opposites", "model"] if args.stage == "full" else [])
    t0 = time.time()
    keys, feats, gold = _stage_rows(args.cache, detectors, "calib")
    train: tuple[list[str], list[dict[str, float]], dict[str, Any]] = ([], [], {})
    if args.train_cache:
        train = _stage_rows(args.train_cache, detectors, "train")
    names = sorted({n for f in feats + train[1] for n in f})
    x, y = stack._matrix(feats, names), np.array([int(gold[k]["label"]) for k in keys])
    groups = np.array([gold[k]["source"] for k in keys])
    folds = list(GroupKFold(n_splits=5).split(x, y, groups))
    rng = np.random.default_rng(args.seed)
    print(f"{args.stage} stage: {len(y)} calib answers, {len(train[0])} train answers", flush=True)

    curve = []
    for share in SHARES:
        scores = []
        for _ in range(args.repeats if share < 1 else 1):
            raw = np.zeros(len(y))
            for tr, te in folds:
                sources = np.unique(groups[tr])
                kept = set(rng.choice(sources, int(round(share * len(sources))), replace=False))
                rows = np.array([i for i in tr if groups[i] in kept])
                raw[te] = stage_fit.boosted_trees(args.seed).fit(x[rows], y[rows]).decision_function(x[te])
            scores.append(_f1(raw, y))
        curve.append({"share": share, "f1": round(float(np.mean(scores)), 4), "draws": [round(s, 4) for s in scores]})
        print(f"  trees fitted on {share:.0%} of the other folds' sources: calib F1 {curve[-1]['f1']:.4f}", flush=True)

    with_train = {}
    if train[0]:
        xt = stack._matrix(train[1], names)
        yt = np.array([int(train[2][k]["label"]) for k in train[0]])
        for name, use_calib in (("train rows only", False), ("train rows + calib folds", True)):
            raw = np.zeros(len(y))
            for tr, te in folds:
                xs, ys = (np.vstack([xt, x[tr]]), np.concatenate([yt, y[tr]])) if use_calib else (xt, yt)
                raw[te] = stage_fit.boosted_trees(args.seed).fit(xs, ys).decision_function(x[te])
            with_train[name] = round(_f1(raw, y), 4)
            print(f"  {name}: calib F1 {with_train[name]:.4f}", flush=True)

    path = write_result(f"policy_rows_{args.stage}", {
        "machine": machine(), "stage": args.stage, "calib_answers": int(len(y)), "train_answers": len(train[0]),
        "curve": curve, "with_train_rows": with_train, "seconds": round(time.time() - t0, 1),
    })
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
