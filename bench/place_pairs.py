"""How often the replaced-place rule fires on faithful translations, and how often on a place swapped in them.

    python bench/place_pairs.py [--limit N] [--parts train,calib] [--out bench/results/place_pairs.json]

The translation files of the human-labelled pairs (``../shared/data/pairs``: NTREX/FLORES en+de,
en+fr, en+zh-Hans, Tatoeba en+zh-Hans and en+zh-Hant) hold a sentence and its human translation.
Each pair is read both ways (either side as the source, the other as the answer, so answers are in
all five languages) with the cross-language place rule of the ``opposites`` detector
(:mod:`hallucheck.detectors.rules.replaced_places`):

- faithful: the translation as it is; every ``replaced_name`` span there is a false mark;
- swapped: where the answer names a place its source names too, that name is replaced by another
  place of the same kind, written in the answer's language (the next one in the table); a
  ``replaced_name`` span on it is a catch.

Only the parts named by ``--parts`` are read (default: train and calib, split by group as
:func:`hallucheck.train.human_pairs.part_of` splits them), so that the dev part of the pairs stays
unread by what chooses the rule's conditions.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, machine

PAIRS = ROOT.parent / "shared" / "data" / "pairs"
FILES = ("ntrex_flores_en+de", "ntrex_flores_en+fr", "ntrex_flores_en+zh-Hans", "tatoeba_cmn_en+zh-Hans", "tatoeba_cmn_en+zh-Hant")
COLUMNS = ("en", "de", "fr", "zh-Hans", "zh-Hant")


def _table() -> list[tuple[str, str, dict[str, str]]]:
    """(kind, id, the first name in each language) of every place of the shipped table."""
    import hallucheck

    out = []
    for line in (Path(hallucheck.__file__).parent / "data" / "places.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        kind, pid, *cols = line.split("\t")
        out.append((kind, pid, {lang: c.split("|")[0] for lang, c in zip(COLUMNS, cols) if c}))
    return out


def _marks(source: str, answer: str, language: str) -> list[tuple[int, int]]:
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.detectors.rules.opposites import OppositesDetector
    from hallucheck.types import Case

    analysis = CaseAnalysis(Case(question="", contexts=[source], answer=answer, language=language))
    finding = OppositesDetector().detect(analysis)
    return [(s.start, s.end) for s in finding.spans if s.kind == "replaced_name"] if analysis.cross_lingual else []


def _swap(source: str, answer: str, language: str, table: list[tuple[str, str, dict[str, str]]]) -> tuple[str, int, int] | None:
    """The answer with its first place that the source names too replaced by the next place of its kind in the table."""
    from hallucheck.text.places import place_ids, place_mentions

    given = place_ids(source)
    for m in place_mentions(answer):
        ids = {p.id for p in m.places}
        if not ids & given or len(m.kinds) != 1:
            continue
        kind = next(iter(m.kinds))
        rows = [r for r in table if r[0] == kind and language in r[2]]
        k = next((i for i, r in enumerate(rows) if r[1] in ids), None)
        if k is None:
            continue
        new = rows[(k + 1) % len(rows)][2][language]
        return answer[: m.start] + new + answer[m.end :], m.start, m.start + len(new)
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="pairs a file (0: all)")
    ap.add_argument("--parts", default="train,calib", help="parts of the pairs to read (train, calib, dev)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    from hallucheck.train.human_pairs import group_of, part_of

    parts = set(args.parts.split(","))
    table = _table()
    started = time.time()
    rows: dict[str, Any] = {}
    false_marks: list[dict[str, str]] = []
    for name in FILES:
        with gzip.open(PAIRS / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
            pairs = [json.loads(line) for line in fh]
        pairs = [p for p in pairs if p["label"] == "paraphrase"
                 and part_of(group_of(str(p["id"]), str(p["source"]), str(p["premise"]))) in parts][: args.limit or None]
        first, second = pairs[0]["lang"].split("+")
        for src_lang, ans_lang, src_key, ans_key in ((first, second, "premise", "hypothesis"), (second, first, "hypothesis", "premise")):
            faithful = marked = swapped = caught = 0
            for p in pairs:
                source, answer = p[src_key], p[ans_key]
                faithful += 1
                if _marks(source, answer, ans_lang):
                    marked += 1
                    if len(false_marks) < 30:
                        false_marks.append({"file": name, "source": source, "answer": answer})
                twin = _swap(source, answer, ans_lang, table)
                if twin is None:
                    continue
                swapped += 1
                text, a, b = twin
                caught += any(s < b and e > a for s, e in _marks(source, text, ans_lang))
            key = f"{name} {src_lang}->{ans_lang}"
            rows[key] = {"faithful": faithful, "faithful_marked": marked, "swapped": swapped, "swapped_caught": caught}
            print(f"{key}: faithful {faithful}, marked {marked}; swapped {swapped}, caught {caught}", flush=True)
    total = {k: sum(r[k] for r in rows.values()) for k in ("faithful", "faithful_marked", "swapped", "swapped_caught")}
    print(f"all: {total} in {time.time() - started:.0f}s")
    for f in false_marks:
        print("  false mark:", json.dumps(f, ensure_ascii=False))
    if args.out:
        args.out.write_text(json.dumps({"machine": machine(), "parts": sorted(parts), "rows": rows, "total": total,
                                        "false_marks": false_marks},
                                       indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
