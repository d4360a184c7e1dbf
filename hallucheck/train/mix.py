"""Draw a training mix from generic-format labelled files: a fixed number of train records per group.

Why: the rule-made sets (contradiction edits of RAGTruth answers, the multilingual Debian Reference
cases) are large and uniform; taken whole they would outweigh the real RAGTruth answers and teach
the tagger their templates. A capped draw per edit type or language keeps real data dominant while
every kind of edit is still seen. Records labelled only with spans the tagger cannot see (citation
markers are masked before the tagger reads an answer) are left out.

Usage::

    python -m hallucheck.train.mix EDITS.jsonl --per-group 900 --group edit --out edits.mix.jsonl
    python -m hallucheck.train.mix debref.zh-Hans.jsonl --per-group 1500 --out zh.mix.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

__all__ = ["draw", "main", "tagger_records", "UNSEEN_LABELS"]

UNSEEN_LABELS = frozenset({"invalid_citation"})


def _group(rec: dict[str, Any], key: str) -> str:
    if key == "language":
        return str(rec.get("language") or "")
    meta = rec.get("metadata") or {}
    return str(meta.get(key) or ("original" if not rec.get("spans") else "other"))


def tagger_records(path: str | Path, part: str) -> list[dict[str, Any]]:
    """The ``part`` records of a generic-format file, but those labelled only where the tagger cannot see."""
    out: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            if rec.get("part", "train") != part:
                continue
            if any(sp.get("label") in UNSEEN_LABELS for sp in rec.get("spans") or []):
                continue
            out.append(rec)
    return out


def draw(path: str | Path, per_group: int, group: str = "language", seed: int = 13,
         skip_groups: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Up to ``per_group`` train-part records of each group, drawn with ``seed``, in file order."""
    by_group: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for i, rec in enumerate(tagger_records(path, "train")):
        g = _group(rec, group)
        if g not in skip_groups:
            by_group[g].append((i, rec))
    rng = random.Random(seed)
    chosen: list[tuple[int, dict[str, Any]]] = []
    for g in sorted(by_group):
        items = by_group[g]
        chosen.extend(items if len(items) <= per_group else rng.sample(items, per_group))
    return [rec for _, rec in sorted(chosen, key=lambda t: t[0])]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hallucheck.train.mix", description=__doc__.split("\n\n")[0])
    p.add_argument("path")
    p.add_argument("--per-group", type=int, required=True)
    p.add_argument("--group", default="language", help="'language' or a metadata key such as 'edit'")
    p.add_argument("--skip", default="", help="comma-separated groups to leave out (e.g. original)")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    skip = frozenset(s for s in a.skip.split(",") if s)
    recs = draw(a.path, a.per_group, a.group, a.seed, skip)
    with open(a.out, "w", encoding="utf-8") as fh:
        for rec in recs:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    counts: dict[str, int] = defaultdict(int)
    for rec in recs:
        counts[_group(rec, a.group)] += 1
    print(f"{len(recs)} records -> {a.out}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
