"""Measure the precision of each kind of precise evidence per language and write the floor table.

Precise evidence is a span the detectors mark with a ``kind``: an invalid citation id
(``citations``), a figure that contradicts the same quantity in the sources or that the sources
do not give, a name the sources never mention (``numbers``), a sentence that says what its
source sentence says with a negation flipped or a word replaced by its opposite (``opposites``). For each kind and language this
runs those detectors over labelled answers of the ``train`` and ``calib`` parts (never dev; each
part is a data set of its own) and counts, of the
answers holding at least one span of the kind, the share labelled hallucinated (answer-level
precision: what a floor would decide) and the share of such spans that overlap a labelled span.
A data set whose labels do not judge a kind (RAGTruth's do not judge which passage an answer
cites: :data:`UNJUDGED`) is shown for it but not counted; ``--show KINDS`` prints each span of
those kinds with its reason, to read such cases one by one.

A kind becomes a floor in a language when its precision is at least ``--min-precision`` (0.9)
on at least ``--min-support`` (20) answers, in every data set that measured it there (a set of real
answers, RAGTruth, counts from 5 answers on: rule-made cases alone cannot vouch for a check that
real text proves wrong); an invalid
citation id is a floor by rule (the guideline) in every language. ``--write POLICY.json`` puts
the table into a policy JSON under ``"floors"`` (the shipped one by default is
hallucheck/policies/learned.json); the table is printed either way.

    python bench/floors.py --data en=cases.en.jsonl --data zh-Hans=cases.zh-Hans.jsonl ... \\
        --write hallucheck/policies/learned.json

``--data LANG=PATH`` takes generic eval records with a ``part`` field (``hallucheck data synth``
writes them); RAGTruth (English) is read from the shared data unless ``--no-ragtruth``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import RAGTRUTH, machine, write_result
from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.eval.datasets import load_dataset
from hallucheck.policies.floors import ALWAYS, MIN_PRECISION, MIN_SUPPORT, Floor, FloorTable, language_key
from hallucheck.types import PRECISE_KINDS

DETECTORS = ("citations", "numbers", "opposites")
# A data set of real answers (not rule-made cases) vetoes a floor with fewer answers than
# --min-support: a check that is wrong on real text must not rest on rule-made cases alone.
REAL_SETS = ("ragtruth",)
MIN_REAL_SUPPORT = 5
# Kinds a data set's labels do not judge: RAGTruth's annotators marked what an answer says, not
# which passage its "(passage 2)" names, so an answer that cites the wrong passage for a true
# sentence is labelled clean there. Its counts of these kinds are shown, not pooled and no veto.
UNJUDGED: dict[str, frozenset[str]] = {"ragtruth": frozenset({"invalid_citation", "misattributed_citation"})}


def _judged(name: str, kind: str) -> bool:
    """Whether data set ``name`` (``"ragtruth train"``, ``"debref.en calib"``) labels ``kind`` at all."""
    return kind not in UNJUDGED.get(name.split(" ")[0], frozenset())


def _overlaps(a: int, b: int, gold: tuple[tuple[int, int], ...]) -> bool:
    return any(a < e and s < b for s, e in gold)


def measure(name: str, path: str, fmt: str, part: str, language: str | None, limit: int | None,
            show: frozenset[str] = frozenset()) -> dict[tuple[str, str], dict[str, int]]:
    """Counts per (kind, language) over one data set; spans of the ``show`` kinds are printed
    with their reason, so that a set's verdict on a kind can be read case by case."""
    dets = [get_detector(d) for d in DETECTORS]
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    n = 0
    for ex in load_dataset(path, fmt, split=part, limit=limit):
        analysis = CaseAnalysis(ex.case)
        lang = language_key(language or ex.case.language or analysis.language)
        kinds: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for det in dets:
            for s in det.detect(analysis).spans:
                if s.kind is not None:
                    kinds[s.kind].append((s.start, s.end))
                    if s.kind in show:
                        label = "hallucinated" if ex.gold.hallucinated else "clean"
                        print(f"[{name} {part}] {s.kind} {label} {s.text!r}: {s.reason}", file=sys.stderr)
        for kind, spans in kinds.items():
            c = counts[(kind, lang)]
            c["answers"] += 1
            c["hallucinated"] += int(ex.gold.hallucinated)
            c["spans"] += len(spans)
            c["spans_on_gold"] += sum(_overlaps(a, b, ex.gold.spans) for a, b in spans)
        n += 1
        if n % 500 == 0:
            print(f"  {name}: {n} answers", file=sys.stderr)
    print(f"{name}: {n} {part} answers", file=sys.stderr)
    return counts


def build_table(results: dict[str, dict[tuple[str, str], dict[str, int]]], min_precision: float, min_support: int,
                command: str) -> FloorTable:
    pooled: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    per_set_ok: dict[tuple[str, str], bool] = defaultdict(lambda: True)
    names: dict[tuple[str, str], list[str]] = defaultdict(list)
    for name, counts in results.items():
        for key, c in counts.items():
            if not _judged(name, key[0]):
                names[key].append(f"{name} {c['hallucinated']}/{c['answers']} (not judged there)")
                continue
            for k, v in c.items():
                pooled[key][k] += v
            names[key].append(f"{name} {c['hallucinated']}/{c['answers']}")
            enough = c["answers"] >= min_support or (name.startswith(REAL_SETS) and c["answers"] >= MIN_REAL_SUPPORT)
            if enough and c["hallucinated"] / c["answers"] < min_precision:
                per_set_ok[key] = False
    floors = []
    for (kind, lang), c in sorted(pooled.items()):
        precision = c["hallucinated"] / c["answers"] if c["answers"] else None
        span_precision = c["spans_on_gold"] / c["spans"] if c["spans"] else None
        measured_ok = precision is not None and c["answers"] >= min_support and precision >= min_precision and per_set_ok[(kind, lang)]
        floors.append(Floor(kind=kind, language=lang, precision=round(precision, 4) if precision is not None else None,
                            support=c["answers"], span_precision=round(span_precision, 4) if span_precision is not None else None,
                            data="; ".join(names[(kind, lang)]), active=bool(kind in ALWAYS or measured_ok)))
    floors += [Floor(kind=k, language="*", data="guideline: a fabricated reference", active=True) for k in sorted(ALWAYS)]
    return FloorTable(floors, min_precision=min_precision, min_support=min_support, command=command)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", default=[], metavar="LANG=PATH", help="generic labelled records of one language")
    ap.add_argument("--ragtruth", default=str(RAGTRUTH), help="RAGTruth train file (English)")
    ap.add_argument("--no-ragtruth", action="store_true")
    ap.add_argument("--part", default="train,calib",
                    help="RAGTruth parts, comma-separated, each counted as a data set of its own (never dev: the floors are chosen here)")
    ap.add_argument("--data-parts", default="train,calib", help="parts of the --data sets, comma-separated (never dev)")
    ap.add_argument("--limit", type=int, default=None, help="answers per data set")
    ap.add_argument("--min-precision", type=float, default=MIN_PRECISION)
    ap.add_argument("--min-support", type=int, default=MIN_SUPPORT)
    ap.add_argument("--write", default=None, metavar="POLICY.json", help="write the table into this policy JSON")
    ap.add_argument("--show", default="", metavar="KINDS", help="print every span of these kinds (comma-separated) with its reason")
    args = ap.parse_args()

    results: dict[str, dict[tuple[str, str], dict[str, int]]] = {}
    show = frozenset(k.strip() for k in args.show.split(",") if k.strip())
    if not args.no_ragtruth:
        for part in args.part.split(","):
            if part not in ("train", "calib"):
                ap.error(f"--part: {part!r} is not train or calib (dev is for reporting only)")
            results[f"ragtruth {part}"] = measure("ragtruth", args.ragtruth, "ragtruth", part, "en", args.limit, show)
    for item in args.data:
        lang, _, path = item.partition("=")
        if not path:
            ap.error(f"--data needs LANG=PATH, got {item!r}")
        for part in args.data_parts.split(","):
            if part not in ("train", "calib"):
                ap.error(f"--data-parts: {part!r} is not train or calib (dev is for reporting only)")
            results[f"{Path(path).stem} {part}"] = measure(Path(path).stem, path, "generic", part, lang, args.limit, show)
    command = "python bench/floors.py " + " ".join(sys.argv[1:])
    table = build_table(results, args.min_precision, args.min_support, command)

    print(f"{'kind':22} {'lang':8} {'precision':>9} {'answers':>8} {'span P':>7}  floor  data")
    for f in table.floors:
        p = f"{f.precision:.3f}" if f.precision is not None else "-"
        sp = f"{f.span_precision:.3f}" if f.span_precision is not None else "-"
        print(f"{f.kind:22} {f.language:8} {p:>9} {f.support:>8} {sp:>7}  {'yes' if f.active else 'no ':5}  {f.data}")
    unknown = {f.kind for f in table.floors} - set(PRECISE_KINDS)
    assert not unknown, unknown
    payload: dict[str, Any] = {"machine": machine(), "ragtruth_part": args.part, "data_parts": args.data_parts,
                               "floors": table.to_spec()}
    print(f"wrote {write_result('floors', payload)}")
    if args.write:
        path = Path(args.write)
        spec = json.loads(path.read_text(encoding="utf-8"))
        spec["floors"] = table.to_spec()
        path.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
        print(f"floor table written into {path}")


if __name__ == "__main__":
    main()
