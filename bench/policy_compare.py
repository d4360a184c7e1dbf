"""Is one fit of the learned policy really better than another? A paired bootstrap on calib.

    python bench/policy_compare.py BASE_CACHE CANDIDATE_CACHE [--draws 2000] [--seed 13] [--name NAME]

Each argument is the cache directory of a ``hallucheck train-policy --cache DIR`` run (for example
the same cheap detectors with two different English taggers); the run leaves the calib part's
out-of-fold probabilities there (``calib_oof.json``). For the answers both fits saw, the cascade's
verdict (the default: the cheap stage, and the full stage inside the escalation band) is rebuilt
from those probabilities and each fit's own threshold and band, and the difference in response F1
(candidate minus base) is resampled over whole source groups (the answers written from the same
sources are drawn together, as in the folds). Prints the difference, its 95% interval and the
share of draws in which the candidate is worse; the same for the full stage alone.

Both fits chose their threshold and band on these very answers, so each F1 is optimistic by a
similar amount; the paired difference is what this measures. Calib only: it is the part the
policy is chosen on, and nothing here reads dev.
Writes bench/results/policy_compare_<name>.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result

from hallucheck.train.stack import OOF_FILE, cascade_probabilities


def _load(cache: str) -> dict[str, Any]:
    path = Path(cache) / OOF_FILE
    if not path.is_file():
        sys.exit(f"{path} is missing: run `hallucheck train-policy --cache {cache}` first")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _verdicts(fit: dict[str, Any], keys: list[str]) -> dict[str, np.ndarray]:
    """The cascade's and the full stage's verdict for ``keys`` under one fit."""
    at = {k: i for i, k in enumerate(fit["keys"])}
    idx = np.array([at[k] for k in keys])
    full = np.asarray(fit["full"])[idx]
    cheap = np.asarray(fit["cheap"])[idx]
    cascade = cascade_probabilities(cheap, full, *fit["band"])
    return {"cascade": cascade >= fit["threshold"], "full": full >= fit["threshold"]}


def _f1(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    denom = 2 * tp + fp + fn
    out: np.ndarray = np.where(denom > 0, 2 * tp / np.where(denom > 0, denom, 1), 0.0)
    return out


def paired_bootstrap(base: np.ndarray, cand: np.ndarray, y: np.ndarray, groups: list[str], draws: int,
                     seed: int) -> dict[str, float]:
    """F1 of both, the difference, its 2.5 / 97.5% quantiles over group resamples, and P(worse)."""
    uniq, inverse = np.unique(np.asarray(groups), return_inverse=True)

    def counts(pred: np.ndarray) -> np.ndarray:
        c = np.zeros((len(uniq), 3))
        np.add.at(c, inverse, np.column_stack([pred & y, pred & ~y, ~pred & y]).astype(float))
        return c

    cb, cc = counts(base), counts(cand)
    rng = np.random.default_rng(seed)
    w = np.stack([np.bincount(rng.integers(0, len(uniq), len(uniq)), minlength=len(uniq)) for _ in range(draws)]).astype(float)
    fb = _f1(*(w @ cb).T)
    fc = _f1(*(w @ cc).T)
    diff = fc - fb
    point_b = float(_f1(*cb.sum(axis=0)))
    point_c = float(_f1(*cc.sum(axis=0)))
    return {"base_f1": round(point_b, 4), "candidate_f1": round(point_c, 4), "difference": round(point_c - point_b, 4),
            "low": round(float(np.quantile(diff, 0.025)), 4), "high": round(float(np.quantile(diff, 0.975)), 4),
            "share_worse": round(float((diff < 0).mean()), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("candidate")
    ap.add_argument("--draws", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--name", default="run")
    args = ap.parse_args()
    base, cand = _load(args.base), _load(args.candidate)
    label = dict(zip(base["keys"], base["label"]))
    group = dict(zip(base["keys"], base["group"]))
    keys = sorted(set(base["keys"]) & set(cand["keys"]))
    if not keys:
        sys.exit("the two fits share no calib answer")
    y = np.array([bool(label[k]) for k in keys])
    groups = [group[k] for k in keys]
    vb, vc = _verdicts(base, keys), _verdicts(cand, keys)
    out: dict[str, Any] = {"machine": machine(), "base": args.base, "candidate": args.candidate, "answers": len(keys),
                           "groups": len(set(groups)), "draws": args.draws}
    print(f"{len(keys)} calib answers in {len(set(groups))} source groups, {args.draws} draws")
    for view in ("cascade", "full"):
        r = paired_bootstrap(vb[view], vc[view], y, groups, args.draws, args.seed)
        out[view] = r
        print(f"  {view:<8} base F1 {r['base_f1']:.4f}  candidate {r['candidate_f1']:.4f}  difference {r['difference']:+.4f} "
              f"(95%: {r['low']:+.4f} .. {r['high']:+.4f}; candidate worse in {r['share_worse']:.0%} of draws)")
    print(f"wrote {write_result(f'policy_compare_{args.name}', out)}")


if __name__ == "__main__":
    main()
