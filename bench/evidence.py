"""Does the verdict keep precise evidence? Measured per language on the dev part of labelled sets.

    nice python bench/evidence.py --synth-dir DIR --edits EDITS.jsonl      # all of it
    nice python bench/evidence.py --synth-dir DIR --langs zh-Hans --limit 40 --kinds figure,copy

Data: the cases ``hallucheck data synth`` makes (``DIR/debref.<lang>.jsonl``, one file per
language, see docs/synth.md) and the contradiction edits ``hallucheck data edits`` makes of
RAGTruth's clean answers. Only the ``dev`` part is read (``--split`` to change it: tune on
train/calib, report dev).

For every case the default checker (or ``--detectors`` / ``--policy``) writes a report. Rates:

- ``invalid citation``: share of ``citation_invalid`` cases (a marker naming a source id that
  does not exist) flagged hallucinated with an ``invalid_citation`` span on the marker;
- ``wrong citation``: the same for ``citation_wrong`` cases (a marker naming a real source that
  does not say the cited text);
- ``changed figure``: share of ``figure`` cases flagged with a ``contradiction`` span on the
  changed figure (``cross_figure`` separately: the answer in one language, the sources in another);
- ``faithful flagged``: share of faithful answers flagged hallucinated (``copy``, ``cited``,
  ``reword``, ``summary``, ``reorder``; and ``cross_copy`` separately);
- per kind of edit: share flagged with a span (any label) on the edit;
- the same per kind for the RAGTruth contradiction edits, and the share of their unedited
  originals flagged; for the edits of their sources (``hallucheck data source-edits``: ``--edits``
  takes that file too) the same for ``source_*``, and for the faithful ``twin_*`` edits the share
  flagged with a span on the changed words (a false mark) and, as ``tagger``, the share where
  the tagger marks them.

Beside each verdict rate, ``found`` is the share where the detector that owns the evidence
(``citations`` for markers, ``numbers`` for figures, the tagger ``model`` for a contradiction span on
RAGTruth's negation, antonym and role edits) has the span in its own finding, whatever the
verdict: the gap between the two is what the policy throws away. ``--reader nli`` reads the
``nli`` detector's finding there instead of the tagger's (with ``--detectors ...,nli``); for the
unedited originals the column gives the share the reader flags.
Writes bench/results/evidence_<split>.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, machine, write_result

LANGS = ("en", "de", "fr", "zh-Hans", "zh-Hant")
FAITHFUL = ("copy", "cited", "reword", "summary", "reorder")
OWNER = {"citation_invalid": ("citations", "invalid_citation"), "citation_wrong": ("citations", "invalid_citation"),
         "figure": ("numbers", "contradiction"), "cross_figure": ("numbers", "contradiction"),
         # contradiction edits of RAGTruth answers: does the tagger mark the edit, whatever the verdict?
         "negation": ("model", "contradiction"), "antonym": ("model", "contradiction"), "role": ("model", "contradiction"),
         # edits of the source a clean answer restates (hallucheck data source-edits): the answer's own words contradicted
         "source_negation": ("model", "contradiction"), "source_antonym": ("model", "contradiction")}
LABEL = {"citation_invalid": "invalid_citation", "citation_wrong": "invalid_citation", "figure": "contradiction",
         "cross_figure": "contradiction"}


def _overlaps(spans: Iterable[Any], gold: tuple[int, int], label: str | None) -> bool:
    a, b = gold
    return any(s.start < b and a < s.end and (label is None or s.label == label) for s in spans)


class Tally:
    """Counts of one group: n, flagged, flagged with a span on the edit (of the wanted label), found by the owner."""

    def __init__(self) -> None:
        self.n = 0
        self.flagged = 0
        self.on_edit = 0
        self.found = 0
        self.with_gold = 0  # cases with a gold span; a kind with none is faithful
        self.with_changed = 0  # faithful cases that name their changed words (twin edits): on_edit is a false mark there

    def add(self, flagged: bool, on_edit: bool, found: bool, with_gold: bool = True, with_changed: bool = False) -> None:
        self.n += 1
        self.with_gold += with_gold
        self.with_changed += with_changed
        self.flagged += flagged
        self.on_edit += on_edit
        self.found += found

    def row(self) -> dict[str, Any]:
        def r(x: int) -> float | None:
            return round(x / self.n, 4) if self.n else None

        return {
            "n": self.n,
            "flagged": r(self.flagged),
            "flagged_with_span_on_edit": r(self.on_edit) if self.with_gold or self.with_changed else None,
            "found_by_owner": r(self.found),
        }


def _measure(
    records: Iterable[dict[str, Any]], checker: Any, limit: int | None, progress: str, kinds: set[str] | None = None,
    reader: str = "model", skip: int = 0,
) -> dict[str, Tally]:
    """Tally the cases; ``reader`` is the detector whose own finding the last column reads for the
    contradiction edits (the tagger ``model`` by default, or e.g. ``nli``); the first ``skip``
    cases of each kind are passed over (settings chosen on them are then checked on others)."""
    from hallucheck.eval.datasets import generic_example

    tallies: dict[str, Tally] = defaultdict(Tally)
    per_kind: dict[str, int] = defaultdict(int)
    seen: dict[str, int] = defaultdict(int)
    t0 = time.perf_counter()
    done = 0
    for rec in records:
        kind = rec["metadata"]["edit"]
        if (limit is not None and per_kind[kind] >= limit) or (kinds is not None and kind not in kinds):
            continue
        seen[kind] += 1
        if seen[kind] <= skip:
            continue
        per_kind[kind] += 1
        example = generic_example(rec, where=rec.get("id", "record"))
        report = checker.check(example.case)
        gold = [(s["start"], s["end"]) for s in rec["spans"]]
        changed = rec["metadata"].get("changed")
        if not gold and changed:
            # a faithful twin edit: a mark on its new words is a false one (of the verdict; of the reader)
            own = report.finding(reader)
            tallies[kind].add(report.hallucinated, report.hallucinated and _overlaps(report.spans, tuple(changed), None),
                              own is not None and _overlaps(own.spans, tuple(changed), None), with_gold=False,
                              with_changed=True)
        elif not gold:
            # an unedited original: does the reader's own finding flag it anyway?
            own = report.finding(reader) if kind == "original" else None
            tallies[kind].add(report.hallucinated, False, own is not None and own.flagged, with_gold=False)
        else:
            label = LABEL.get(kind)
            on_edit = report.hallucinated and all(_overlaps(report.spans, g, label) for g in gold)
            owner = OWNER.get(kind)
            if owner is not None and owner[0] == "model":
                owner = (reader, owner[1])
            found = False
            if owner is not None:
                finding = report.finding(owner[0])
                found = finding is not None and all(_overlaps(finding.spans, g, owner[1]) for g in gold)
            tallies[kind].add(report.hallucinated, on_edit, found)
        done += 1
        if done % 100 == 0:
            rate = done / (time.perf_counter() - t0)
            sys.stderr.write(f"{progress}: {done} cases ({rate:.1f}/s)\n")
    return tallies


def _read(path: Path, split: str) -> list[dict[str, Any]]:
    from hallucheck.jsonio import iter_jsonl

    return [rec for _, rec in iter_jsonl(path) if split == "all" or rec.get("part") == split]


def _summary(tallies: dict[str, Tally]) -> dict[str, Any]:
    faithful = Tally()
    for kind in FAITHFUL:
        t = tallies.get(kind)
        if t is not None:
            faithful.n += t.n
            faithful.flagged += t.flagged
    return {
        "invalid_citation": tallies["citation_invalid"].row() if "citation_invalid" in tallies else None,
        "wrong_citation": tallies["citation_wrong"].row() if "citation_wrong" in tallies else None,
        "changed_figure": tallies["figure"].row() if "figure" in tallies else None,
        "cross_changed_figure": tallies["cross_figure"].row() if "cross_figure" in tallies else None,
        "faithful_flagged": faithful.row(),
        "cross_copy_flagged": tallies["cross_copy"].row() if "cross_copy" in tallies else None,
        "per_kind": {k: t.row() for k, t in sorted(tallies.items())},
    }


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _cell(summary: dict[str, Any], key: str, field: str) -> str:
    row = summary.get(key)
    if not row:
        return "—"
    return _pct(row[field]) if field == "found_by_owner" else f"{_pct(row[field])} (n={row['n']})"


def _print(result: dict[str, Any]) -> None:
    langs = result["languages"]
    if langs:
        print("\nSynthetic cases: flagged with the right span on the edit / found by the owner detector\n")
        print(
            "| language | invalid citation | found | wrong citation | found | changed figure | found | cross figure "
            "| found | faithful flagged | cross copy flagged |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for lang, s in langs.items():
            print(
                f"| {lang} | {_cell(s, 'invalid_citation', 'flagged_with_span_on_edit')} "
                f"| {_cell(s, 'invalid_citation', 'found_by_owner')} "
                f"| {_cell(s, 'wrong_citation', 'flagged_with_span_on_edit')} | {_cell(s, 'wrong_citation', 'found_by_owner')} "
                f"| {_cell(s, 'changed_figure', 'flagged_with_span_on_edit')} | {_cell(s, 'changed_figure', 'found_by_owner')} "
                f"| {_cell(s, 'cross_changed_figure', 'flagged_with_span_on_edit')} "
                f"| {_cell(s, 'cross_changed_figure', 'found_by_owner')} "
                f"| {_cell(s, 'faithful_flagged', 'flagged')} | {_cell(s, 'cross_copy_flagged', 'flagged')} |"
            )
        kinds = sorted({k for s in langs.values() for k in s["per_kind"]})
        print("\nPer kind: flagged (any span on the edit for unfaithful kinds; flagged at all for faithful ones)\n")
        print("| kind | " + " | ".join(langs) + " |")
        print("|---|" + "---|" * len(langs))
        for k in kinds:
            cells = []
            for s in langs.values():
                row = s["per_kind"].get(k)
                if not row:
                    cells.append("—")
                    continue
                faithful = row["flagged_with_span_on_edit"] is None or k in FAITHFUL or k == "cross_copy"
                value = row["flagged"] if faithful else row["flagged_with_span_on_edit"]
                cells.append(f"{_pct(value)} ({row['n']})")
            print(f"| {k} | " + " | ".join(cells) + " |")
    edits = result.get("ragtruth_edits")
    if edits:
        reader = result.get("reader", "model")
        print("\nRAGTruth contradiction edits (English): flagged with a span on the edit; originals: flagged at all;"
              f" {reader}: its own finding has a contradiction span on the edit (originals: it flags them at all);"
              " twin_* (faithful): a span on the changed words (a false mark)\n")
        print(f"| kind | n | flagged with span on edit | flagged at all | {reader} |")
        print("|---|---|---|---|---|")
        for k, row in edits["per_kind"].items():
            on_edit = _pct(row["flagged_with_span_on_edit"]) if k != "original" else "—"
            own = _pct(row["found_by_owner"]) if k in OWNER or k.startswith("twin_") or k == "original" else "—"
            print(f"| {k} | {row['n']} | {on_edit} | {_pct(row['flagged'])} | {own} |")


def main() -> None:
    default_dir = ROOT.parent / "runs" / "synth"
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--synth-dir", type=Path, default=default_dir, help="folder with debref.<lang>.jsonl (hallucheck data synth)"
    )
    ap.add_argument("--pattern", default="debref.{lang}.jsonl", help="file name of each language in --synth-dir")
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--edits", type=Path, default=None, help="contradiction edits of RAGTruth (hallucheck data edits)")
    ap.add_argument("--split", default="dev", choices=("dev", "calib", "train", "all"))
    ap.add_argument("--limit", type=int, default=None, help="at most this many cases of each kind (per language)")
    ap.add_argument("--skip", type=int, default=0, help="pass over the first N cases of each kind (a held-out check)")
    ap.add_argument("--kinds", default=None, help="only these kinds of case (metadata.edit), comma-separated")
    ap.add_argument("--detectors", default=None, help="comma-separated detectors (default: the default stack)")
    ap.add_argument("--policy", default="default")
    ap.add_argument("--name", default=None, help="result file name (default evidence_<split>)")
    ap.add_argument("--reader", default="model",
                    help="the detector whose own spans the last column of the edits table reads (model, nli, ...)")
    args = ap.parse_args()

    from hallucheck.batch import CheckerSpec, checker_for

    dets = tuple(d.strip() for d in args.detectors.split(",") if d.strip()) if args.detectors else None
    kinds = {k.strip() for k in args.kinds.split(",") if k.strip()} if args.kinds else None
    checker = checker_for(CheckerSpec.of(dets, args.policy, None))
    t0 = time.perf_counter()
    result: dict[str, Any] = {
        "machine": machine(),
        "split": args.split,
        "detectors": checker.detector_names,
        "policy": checker.policy.name,
        "limit_per_kind": args.limit,
        "skip_per_kind": args.skip,
        "kinds": sorted(kinds) if kinds else None,
        "reader": args.reader,
        "languages": {},
    }
    for lang in [x.strip() for x in args.langs.split(",") if x.strip()]:
        path = args.synth_dir / args.pattern.format(lang=lang)
        if not path.exists():
            sys.stderr.write(f"{path}: missing (make it with: hallucheck data synth SOURCE_DIR --lang {lang} --out {path})\n")
            continue
        tallies = _measure(_read(path, args.split), checker, args.limit, lang, kinds, args.reader, args.skip)
        result["languages"][lang] = _summary(tallies)
        result["languages"][lang]["file"] = str(path)
    if args.edits is not None:
        tallies = _measure(_read(args.edits, args.split), checker, args.limit, "ragtruth edits", kinds, args.reader,
                           args.skip)
        result["ragtruth_edits"] = {"file": str(args.edits), "per_kind": {k: t.row() for k, t in sorted(tallies.items())}}
    result["seconds"] = round(time.perf_counter() - t0, 1)
    _print(result)
    path = write_result(args.name or f"evidence_{args.split}", result)
    sys.stderr.write(f"wrote {path}\n")


if __name__ == "__main__":
    main()
