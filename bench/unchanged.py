"""Has the default checker's output changed? A fingerprint of ``Checker()`` over fixed cases.

    nice python bench/unchanged.py --out before.json                       # on one version
    nice python bench/unchanged.py --out after.json --compare before.json  # on the other

For every case the default ``Checker()`` writes a report, of which a record keeps the decision,
the risk rounded to 6 decimals and the spans (start, end, label, kind). The cases, in three
groups:

- ``ragtruth``: the first ``--ragtruth N`` answers of the RAGTruth dev part (the split
  ``hallucheck eval ... --split dev`` reads);
- ``pairs``: the dev part of the human-labelled pairs, ``--per-class`` faithful and changed per
  language (:func:`faithful.dev_cases`, the multilingual set of bench/faithful.py);
- ``evidence``: what the verdict must keep: the bundled examples, the user examples and the floor
  cases of the tests (tests/test_faithful_examples.py, tests/policies/test_floors.py), the first
  ``--evidence N`` RAGTruth dev answers with a citation id no source has
  (:func:`precise_evidence.with_invalid_citation`), and the bundled examples and those answers
  without and with a correct marker on every sentence (:func:`hallucheck.eval.markers.cite_case`,
  styles rotated as bench/citation_markers.py does).

``--out`` writes the records (with a sha256 of each group); ``--compare OTHER.json`` prints, per
group, how many cases differ from the records there and the first differences, and exits with
status 1 when any case differs or is missing (``--records RUN.json`` compares the records of that
file instead of running the checker).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RAGTRUTH, ROOT, machine

GROUPS = ("ragtruth", "pairs", "evidence")


def record(report: Any) -> dict[str, Any]:
    """What a report's fingerprint keeps: decision, risk (6 decimals), spans (start, end, label, kind)."""
    return {"decision": report.decision, "risk": round(float(report.risk_score), 6),
            "spans": [[s.start, s.end, s.label, s.kind] for s in report.spans]}


def ragtruth_cases(limit: int) -> Iterator[tuple[str, Any]]:
    from hallucheck.eval.datasets import load_dataset  # lazy: the bench's imports start fast for --help

    for i, ex in enumerate(load_dataset(RAGTRUTH, "ragtruth", split="dev", limit=limit)):
        yield f"ragtruth:{i}:line{ex.line}", ex.case


def pair_cases(per_class: int, seed: int) -> Iterator[tuple[str, Any]]:
    from faithful import dev_cases  # lazy: reads the pair files only when asked

    from hallucheck.types import Case  # lazy: as above

    cases = dev_cases(per_class, seed)
    for lang in sorted(cases):
        for cls in ("faithful", "changed"):
            for i, (premise, hypothesis, kind) in enumerate(cases[lang].get(cls, [])):
                yield f"pairs:{lang}:{cls}:{i}:{kind}", Case(question="", contexts=[premise], answer=hypothesis)


def evidence_cases(limit: int) -> Iterator[tuple[str, Any]]:
    sys.path.insert(0, str(ROOT / "tests"))
    from citation_markers import bundled_cases  # lazy: as above
    from policies.test_floors import CITED, SOURCES  # lazy: the floor cases of the tests
    from precise_evidence import with_invalid_citation  # lazy: as above
    from test_faithful_examples import CHANGED, FAITHFUL  # lazy: the user examples of the tests

    from hallucheck.eval.datasets import load_dataset  # lazy: as above
    from hallucheck.eval.markers import MARKER_STYLES, PLACEMENTS, cite_case  # lazy: as above
    from hallucheck.types import Case  # lazy: as above

    examples = bundled_cases()
    for i, case in enumerate(examples):
        yield f"evidence:example:{i}", case
    for name, source, answer, *_ in [*FAITHFUL, *CHANGED]:
        yield f"evidence:user:{name}", Case(question="", contexts=[source], answer=answer)
    for n in ("[4]", "[1]", "[2]"):  # an invalid id, the right source, the wrong source
        yield f"evidence:floor:{n}", Case.model_validate({"contexts": SOURCES, "answer": CITED.replace("[4]", n)})
    rag = [ex.case for ex in load_dataset(RAGTRUTH, "ragtruth", split="dev", limit=limit)]
    for i, case in enumerate(rag):
        yield f"evidence:invalid_citation:{i}", with_invalid_citation(case)[0]
    styles = list(MARKER_STYLES)
    for i, case in enumerate([*examples, *rag]):
        style, placement = styles[i % len(styles)], PLACEMENTS[(i // len(styles)) % len(PLACEMENTS)]
        pair = cite_case(case, style, placement)
        yield f"evidence:markers:{i}:plain", pair.plain
        yield f"evidence:markers:{i}:{style}:{placement}", pair.cited


def fingerprint(records: dict[str, dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(records, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def compare(mine: dict[str, Any], other: dict[str, Any], show: int = 10) -> tuple[int, list[str]]:
    """(cases that differ or are missing on either side, lines of a report per group)."""
    lines: list[str] = []
    total = 0
    for group in GROUPS:
        if group not in mine.get("groups", {}):
            continue  # not run here
        a: dict[str, Any] = mine["groups"][group]
        b: dict[str, Any] = other.get("groups", {}).get(group, {})
        differ = [k for k in a if k in b and a[k] != b[k]]
        missing = sorted(set(a) ^ set(b))
        total += len(differ) + len(missing)
        lines.append(f"{group}: {len(a)} cases here, {len(b)} there, {len(differ)} differ, {len(missing)} on one side only")
        for k in differ[:show]:
            lines.append(f"  {k}\n    here:  {json.dumps(a[k], ensure_ascii=False)}\n    there: {json.dumps(b[k], ensure_ascii=False)}")
        for k in missing[:show]:
            lines.append(f"  {k}: only {'here' if k in a else 'there'}")
    return total, lines


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The records of the default ``Checker()`` on the chosen groups, with a sha256 and the time of each."""
    from hallucheck.checker import Checker  # lazy: as above

    checker = Checker()
    sources = {"ragtruth": lambda: ragtruth_cases(args.ragtruth), "pairs": lambda: pair_cases(args.per_class, args.seed),
               "evidence": lambda: evidence_cases(args.evidence)}
    payload: dict[str, Any] = {"machine": machine(), "detectors": checker.detector_names, "policy": checker.policy.name,
                               "options": {k: getattr(args, k) for k in ("ragtruth", "per_class", "evidence", "seed")},
                               "groups": {}, "sha256": {}, "seconds": {}}
    for group in args.groups.split(","):
        t0 = time.perf_counter()
        records: dict[str, dict[str, Any]] = {}
        for key, case in sources[group]():
            records[key] = record(checker.check(case))
            if len(records) % 50 == 0:
                print(f"  {group}: {len(records)} cases, {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
        payload["groups"][group] = records
        payload["sha256"][group] = fingerprint(records)
        payload["seconds"][group] = round(time.perf_counter() - t0, 1)
        print(f"{group}: {len(records)} cases in {payload['seconds'][group]:.0f}s, sha256 {payload['sha256'][group][:16]}",
              flush=True)
    return payload


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the records to this JSON file")
    ap.add_argument("--compare", metavar="OTHER.json", help="compare with the records of another run")
    ap.add_argument("--records", metavar="RUN.json", help="compare the records of this file instead of running the checker")
    ap.add_argument("--ragtruth", type=int, default=300, help="RAGTruth dev answers (default 300)")
    ap.add_argument("--per-class", type=int, default=20, help="pairs per class and language (default 20)")
    ap.add_argument("--evidence", type=int, default=40, help="RAGTruth dev answers given markers (default 40)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--groups", default=",".join(GROUPS), help=f"comma-separated, of {', '.join(GROUPS)}")
    args = ap.parse_args(argv)
    if args.records:
        payload = json.loads(Path(args.records).read_text(encoding="utf-8"))
    else:
        payload = run(args)
    if args.out:
        Path(args.out).write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    if args.compare:
        other = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        differing, lines = compare(payload, other)
        print("\n".join(lines))
        print(f"{differing} cases differ from {args.compare}")
        return 1 if differing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
