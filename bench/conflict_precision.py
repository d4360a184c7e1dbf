"""How often is a RAGTruth answer the tagger marks as contradicting its sources really hallucinated?

    python bench/conflict_precision.py CACHE [--part calib] [--name NAME]

CACHE is the cache directory of a ``hallucheck train-policy --cache CACHE`` run, which holds the
tagger's finding for every calib answer (``model.jsonl``, feature ``model_conflict_max``: the
highest score of a token typed ``conflict``) and the labels (``gold.jsonl``). For each score s
this prints how many answers of the part have a conflict token at s or above and the share of
them labelled hallucinated: the precision a floor on the tagger's contradictions would have.
Calib (or train) only; nothing here reads dev. Writes bench/results/conflict_precision_<name>.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result

from hallucheck.train.stack_data import load_cache

SCORES = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cache", help="a `hallucheck train-policy --cache` directory")
    ap.add_argument("--part", default="calib", choices=("calib", "train"))
    ap.add_argument("--name", default="calib")
    args = ap.parse_args()
    gold = load_cache(args.cache, "gold")
    model = load_cache(args.cache, "model")
    rows = [(float(model[k]["features"].get("model_conflict_max", 0.0)), bool(g["label"]))
            for k, g in gold.items() if g["part"] == args.part and k in model]
    if not rows:
        sys.exit(f"{args.cache}: no {args.part} answers with a model finding")
    table = []
    print(f"{len(rows)} {args.part} answers, {sum(y for _, y in rows)} hallucinated")
    print("score  answers  hallucinated")
    for s in SCORES:
        sel = [y for c, y in rows if c >= s]
        share = round(sum(sel) / len(sel), 3) if sel else None
        table.append({"score": s, "answers": len(sel), "hallucinated_share": share})
        print(f"{s:5.2f}  {len(sel):7d}  {'-' if share is None else f'{share:.3f}'}")
    path = write_result(f"conflict_precision_{args.name}", {"machine": machine(), "cache": args.cache,
                                                            "part": args.part, "answers": len(rows), "by_score": table})
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
