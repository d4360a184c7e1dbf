"""Two pair models side by side on the same human-labelled pairs: accuracy and AUROC, in all and per language.

    nice python bench/verifier_compare.py OLD/model.onnx NEW/model.onnx --pairs RUN/pairs-calib.jsonl --n 6000

``--pairs``: a training run's ``pairs-calib.jsonl`` (``hallucheck train-pairs`` writes it; the
calib part only, never dev). Both models read the same ``--n`` pairs (a seeded shuffle), each
with the ``tokenizer.json`` beside it, 128 word pieces a pair, on ONNX Runtime as shipped. Prints
one JSON line a model and the per-language accuracy / AUROC of "not entailed"; ``--by-kind`` adds
the accuracy on each kind of pair (``human:contrast:name``, ``human:contrast:figure`` ...).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _scores(model: Path, pairs: list, max_len: int, by_kind: bool = False) -> dict[str, object]:  # type: ignore[type-arg]
    from hallucheck.train.pair_loop import _tokenizer, onnx_pair_probs, pair_metrics

    probs = onnx_pair_probs(model, _tokenizer(str(model.with_name("tokenizer.json")), max_len), pairs)
    res: dict[str, object] = {"all": {k: round(v, 4) for k, v in pair_metrics(probs, pairs).items() if not k.startswith("right:")}}
    for lang in sorted({p.language for p in pairs}):
        idx = [i for i, p in enumerate(pairs) if p.language == lang]
        m = pair_metrics(probs[idx], [pairs[i] for i in idx])
        res[lang] = {"n": len(idx), "accuracy": round(m["accuracy"], 3), "auroc_unsupported": round(m["auroc_unsupported"], 3)}
    if by_kind:
        for kind in sorted({p.kind for p in pairs}):
            idx = [i for i, p in enumerate(pairs) if p.kind == kind]
            right = sum(int(probs[i].argmax() == pairs[i].label) for i in idx)
            res[kind] = {"n": len(idx), "accuracy": round(right / len(idx), 3)}
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="+", type=Path)
    ap.add_argument("--pairs", type=Path, required=True)
    ap.add_argument("--n", type=int, default=6000)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--by-kind", action="store_true", help="also the accuracy on each kind of pair")
    a = ap.parse_args()
    from hallucheck.train.pair_loop import load_pairs

    pairs = load_pairs(a.pairs)
    random.Random(0).shuffle(pairs)
    pairs = pairs[: a.n]
    for model in a.models:
        print(model, json.dumps(_scores(model, pairs, a.max_len, a.by_kind)), flush=True)


if __name__ == "__main__":
    main()
