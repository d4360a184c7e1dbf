"""The verifier's thresholds read again over the calib pairs: faithful flagged and changed caught per language.

    nice python bench/threshold_grid.py --per-class 250

Each calib pair of bench/faithful.py (``calib`` set: faithful and changed pairs of the calib part
of the ship-able pairs, per language) is checked once by the default ``Checker()`` with the
strictest thresholds of the grid (an entailed sentence needs P(entailment) >= 0.6 and
P(contradiction) < 0.3 everywhere). A pair the checker accepts then stays accepted at any more
lenient pair of thresholds; a flagged pair with a precise finding stays flagged; one whose verdict
rests on the verifier alone counts as accepted at (E, C) when every sentence it read has
P(entailment) >= E and P(contradiction) < C (the doubt of accepted answers is never stricter than
the reading thresholds, so this holds for doubted answers too). So one run of the checker gives the
whole grid; per-language thresholds (hallucheck.policies.entailment.LANGUAGE_THRESHOLDS) are
cleared for it, so each language's row can choose its own pair. Run the chosen pairs through the
checker afterwards (bench/faithful.py --entailed E --contradicted C, --language LANG=E/C).
Writes bench/results/threshold_grid.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GRID_E = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6)
GRID_C = (0.3, 0.4, 0.5, 0.6, 0.7)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-class", type=int, default=250)
    ap.add_argument("--seed", type=int, default=3)
    a = ap.parse_args()
    from faithful import dev_cases

    import hallucheck.policies.entailment as entailment
    from hallucheck import Checker
    from hallucheck.policies.entailment import verifier_finding

    for name in ("ENTAILED", "ENTAILED_CHINESE"):
        setattr(entailment, name, max(GRID_E))
    for name in ("CONTRADICTED", "CONTRADICTED_CHINESE"):
        setattr(entailment, name, min(GRID_C))
    entailment.LANGUAGE_THRESHOLDS.clear()
    checker = Checker()
    rows: list[tuple[str, str, bool, bool, list[tuple[float, float]] | None]] = []
    for lang, by in dev_cases(a.per_class, a.seed, "calib").items():
        for cls, items in by.items():
            for premise, hypothesis, _ in items:
                rep = checker.check(question="", contexts=[premise], answer=hypothesis)
                vf = verifier_finding(rep.findings)
                read = [(v.entailment, v.contradiction) for v in vf.sentence_verdicts or []] if vf is not None else None
                precise = any(s.kind for f in rep.findings if f.usable for s in f.spans)
                rows.append((lang, cls, rep.decision == "accept", precise, read))

    def flagged(accepted: bool, precise: bool, read: list[tuple[float, float]] | None, e: float, c: float) -> bool:
        if accepted:
            return False
        if precise or not read:
            return True
        return not all(ent >= e and con < c for ent, con in read)

    langs = sorted({r[0] for r in rows})
    table: dict[str, dict[str, dict[str, float]]] = {}
    for c in GRID_C:
        for e in GRID_E:
            key = f"{e}/{c}"
            table[key] = {}
            for lang in langs:
                cell = {}
                for cls in ("faithful", "changed"):
                    mine = [r for r in rows if r[0] == lang and r[1] == cls]
                    cell[cls] = round(sum(flagged(r[2], r[3], r[4], e, c) for r in mine) / max(1, len(mine)), 3)
                table[key][lang] = cell
            print(f"E={e:<4} C={c:<3} " + "  ".join(f"{lang} {v['faithful']:.2f}/{v['changed']:.2f}" for lang, v in table[key].items()))
    out = ROOT / "bench" / "results" / "threshold_grid.json"
    out.write_text(json.dumps({"per_class": a.per_class, "grid": table}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
