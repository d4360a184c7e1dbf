"""Where the tagger's ``polarity_clash`` input fires, and on what labels (calib by default).

    python bench/polarity_input.py --edits EDITS.jsonl --edits SOURCE_EDITS.jsonl
    python bench/polarity_input.py --answers 600 --limit 100 --split calib

The input (``hallucheck/models/tagger_polarity.py``) marks answer clauses that the window's
evidence states with the other negation. It is a hint for the model, so what matters is where it
fires: on real RAGTruth answers (``--answers`` of the ``--split`` part: windows marked, and the
labels of the marked word pieces: 0 supported, 1 conflict, 2 baseless) and per kind of edit
(``hallucheck data edits`` / ``data source-edits`` files, the first ``--limit`` of each kind:
answers with a mark, and the labels of the marked pieces). Windows are built as the English
tagger builds them (its encoder settings), with every feature this version computes.
Writes bench/results/polarity_input_<split>.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, machine, write_result


def _count(windows: list[Any], column: int) -> Counter[str]:
    c: Counter[str] = Counter()
    for w in windows:
        marked = [i for i, f in enumerate(w.features[1 : 1 + len(w.labels)]) if f[column]]
        c["windows"] += 1
        c["windows_marked"] += bool(marked)
        c["pieces"] += len(w.labels)
        for i in marked:
            c[f"marked_label_{w.labels[i]}"] += 1
    return c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(RAGTRUTH))
    ap.add_argument("--split", default="calib")
    ap.add_argument("--answers", type=int, default=600, help="RAGTruth answers of the part (0: none)")
    ap.add_argument("--edits", action="append", default=[], help="an edits file (repeatable)")
    ap.add_argument("--limit", type=int, default=100, help="edits per kind")
    ap.add_argument("--name", default="")
    args = ap.parse_args(argv)

    from hallucheck.models.tagger import Tagger
    from hallucheck.models.tagger_features import FEATURE_NAMES, EncoderSettings
    from hallucheck.train.data import _read_generic, generic_windows, read_records, record_windows

    tagger = Tagger()
    settings = EncoderSettings(**tagger.config["encoder"], features=FEATURE_NAMES)
    column = FEATURE_NAMES.index("polarity_clash")
    out: dict[str, Any] = {"machine": machine(), "split": args.split}
    if args.answers and Path(args.data).is_file():
        c: Counter[str] = Counter()
        for _, rec in read_records(args.data, args.split, args.answers):
            c.update(_count(record_windows(rec, tagger.tokenizer, settings), column))
            c["answers"] += 1
        out["ragtruth"] = dict(c)
        print("ragtruth", json.dumps(dict(c)))
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    for path in args.edits:
        for rec in _read_generic(path, args.split):
            kind = rec["metadata"]["edit"]
            if kinds[kind]["answers"] >= args.limit:
                continue
            c = _count(generic_windows(rec, tagger.tokenizer, settings), column)
            kinds[kind].update(c)
            kinds[kind]["answers"] += 1
            kinds[kind]["answers_marked"] += c["windows_marked"] > 0
    for kind, c in sorted(kinds.items()):
        print(kind, json.dumps(dict(c)))
    out["edits"] = {k: dict(v) for k, v in kinds.items()}
    print("wrote", write_result(args.name or f"polarity_input_{args.split}", out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
