"""Peak memory, speed and cold start of one process that checks answers in every language.

    nice python bench/memory.py --synth-dir DIR [--per-language 40] [--split train]
                                [--reports FILE] [--against OLD_FILE] [--name NAME]

A service answers in English, Chinese (Simplified and Traditional), German and French from one
process, so it holds both span taggers (the English one and the multilingual one) and every
language's resources (lemma dictionaries, jieba, the language identifier) at once; the per-language
benches (``languages.py``, ``model.py --cold``) each load only one side. Here a fresh child
process runs the default ``Checker()`` over a mix of answers taken in turn from each language:
English from RAGTruth (``--data``, part ``--split``), the others from the cases ``hallucheck data
synth`` writes (``DIR/debref.<lang>.jsonl``, same part), ``--per-language`` of each spread evenly
over the file; without ``--synth-dir`` the non-English bundled examples (``hallucheck demo``)
stand in, one each.

Reported (all measured by the child on itself): the peak resident memory (``VmHWM``, and
``ru_maxrss`` of ``RUSAGE_SELF``), the resident memory after each stage (import, ``Checker()``,
the first check of each language, the end), the cold start (import + ``Checker()`` + first
check), the first check of each language (which loads that language's resources and tagger),
answers per second per language and overall after each language's first check (wall clock, and
per CPU second of the child, which depends less on what else the machine runs), and the sizes
of the caches that live across checks. The load average is recorded before and after.

``--reports FILE`` writes each report (without its timings) as one JSON line, in check order;
``--against OLD_FILE`` then counts the reports that differ from an earlier run's file: the
check that a change to memory use left every output as it was. Writes
``bench/results/memory[_NAME].json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import RAGTRUTH, machine, write_result

LANGS = ("en", "zh-Hans", "de", "fr", "zh-Hant")

_CHILD = r'''
import json, resource, sys, time
t_start = time.perf_counter()

def status():
    with open("/proc/self/status", encoding="ascii") as f:
        d = {l.split(":")[0]: int(l.split()[1]) for l in f if l.startswith(("VmRSS", "VmHWM"))}
    return round(d["VmRSS"] / 1024, 1), round(d["VmHWM"] / 1024, 1)

def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime

stages = {"start": status()[0]}
import hallucheck
from hallucheck.checker import Checker
from hallucheck.types import Case
stages["import"] = status()[0]
checker = Checker()
stages["checker"] = status()[0]
cases_path, reports_path = sys.argv[1], sys.argv[2]
out = open(reports_path, "w", encoding="utf-8") if reports_path else None
first, seen = {}, set()
n, secs, cpus = {}, {}, {}
cold = None
with open(cases_path, encoding="utf-8") as f:
    for line in f:
        row = json.loads(line)
        lang, case = row["language"], Case.model_validate(row["case"])
        t, c = time.perf_counter(), cpu()
        report = checker.check(case)
        dt, dc = time.perf_counter() - t, cpu() - c
        if cold is None:
            cold = time.perf_counter() - t_start
        if lang not in seen:
            seen.add(lang)
            first[lang] = {"seconds": round(dt, 3), "rss_mb_after": status()[0]}
        else:
            n[lang] = n.get(lang, 0) + 1
            secs[lang] = secs.get(lang, 0.0) + dt
            cpus[lang] = cpus.get(lang, 0.0) + dc
        if out is not None:
            d = report.model_dump(mode="json", exclude={"timings_ms"})
            for finding in d.get("findings", []):
                finding.pop("latency_ms", None)
            out.write(json.dumps(d, ensure_ascii=False, sort_keys=True) + "\n")
if out is not None:
    out.close()
rss, hwm = status()
stages["end"] = rss

def sizes():
    from hallucheck import analysis
    from hallucheck.text import tokens
    got = {"source_analyses": len(analysis._CACHE), "source_analysis_chars": sum(len(t) for _, t in analysis._CACHE),
           "word_tables": {k: len(v) for k, v in tokens._WORD_TABLES.items()},
           "lemmas": tokens.lemma.cache_info().currsize}
    try:
        from hallucheck.models import tagger_evidence
        got["tagger_source_views"] = len(tagger_evidence._CACHE)
        got["tagger_source_view_chars"] = sum(sum(map(len, key[0])) for key in tagger_evidence._CACHE)
    except ImportError:
        pass
    return got

per = {lang: {"n": n[lang], "answers_per_s": round(n[lang] / secs[lang], 2),
              "answers_per_cpu_s": round(n[lang] / max(cpus[lang], 1e-9), 2)} for lang in n}
total_n, total_s, total_c = sum(n.values()), sum(secs.values()), sum(cpus.values())
print(json.dumps({
    "peak_rss_mb": hwm,
    "ru_maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    "cold_start_s": round(cold or 0.0, 3),
    "stages_rss_mb": stages,
    "first_check": first,
    "per_language": per,
    "overall": {"n": total_n, "answers_per_s": round(total_n / max(total_s, 1e-9), 2),
                "answers_per_cpu_s": round(total_n / max(total_c, 1e-9), 2)},
    "caches": sizes(),
    "detectors": checker.detector_names,
    "policy": checker.policy.name,
}))
'''


def _spread(path: Path | str, fmt: str, split: str, k: int) -> list[dict[str, Any]]:
    """``k`` cases spread evenly over the ``split`` part of ``path`` (files are stored by task or
    by source), read in one streaming pass so that this process stays small (the child's
    ``ru_maxrss`` starts from the forking parent's)."""
    from hallucheck.eval.datasets import count_examples, load_dataset

    total = count_examples(path, fmt, split=split)
    step = max(total / max(k, 1), 1.0)
    wanted = {int(i * step) for i in range(min(k, total))}
    return [ex.case.model_dump(mode="json") for i, ex in enumerate(load_dataset(path, fmt, split=split)) if i in wanted]


def select_cases(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    """The cases of each language, as ``Case`` dictionaries."""
    out: dict[str, list[dict[str, Any]]] = {"en": _spread(args.data, "ragtruth", args.split, args.per_language)}
    if args.synth_dir is None:
        from hallucheck.cli.demo import example_cases
        from hallucheck.text.language import detect_language
        from hallucheck.types import Case

        for raw in example_cases().values():
            case = Case.model_validate({k: v for k, v in raw.items() if k != "metadata"})
            lang = case.language or detect_language(case.answer)
            if lang != "en":
                out.setdefault(lang, []).append(case.model_dump(mode="json"))
        return out
    for lang in LANGS[1:]:
        path = args.synth_dir / f"debref.{lang}.jsonl"
        if not path.is_file():
            sys.exit(f"no such file: {path}")
        out[lang] = _spread(path, "generic", args.split, args.per_language)
    return out


def interleave(by_lang: dict[str, list[dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """One case of each language in turn: the process serves a mix, not one language after another."""
    rows: list[tuple[str, dict[str, Any]]] = []
    for i in range(max(map(len, by_lang.values()), default=0)):
        rows.extend((lang, cases[i]) for lang, cases in by_lang.items() if i < len(cases))
    return rows


def differing(new: Path, old: Path) -> dict[str, Any]:
    """How many reports of ``new`` differ from the same line of ``old``."""
    a = new.read_text(encoding="utf-8").splitlines()
    b = old.read_text(encoding="utf-8").splitlines()
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return {"against": str(old), "compared": min(len(a), len(b)), "length_mismatch": len(a) != len(b),
            "differing": len(diff), "first_differing_lines": diff[:10]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(RAGTRUTH), help="RAGTruth train.jsonl.gz (English answers)")
    ap.add_argument("--synth-dir", type=Path, default=None, help="folder of debref.<lang>.jsonl (other languages)")
    ap.add_argument("--split", default="train", choices=("train", "calib", "dev", "all"))
    ap.add_argument("--per-language", type=int, default=40, help="answers of each language")
    ap.add_argument("--reports", type=Path, default=None, help="write each report (no timings) to this JSONL file")
    ap.add_argument("--against", type=Path, default=None, help="count reports that differ from this earlier --reports file")
    ap.add_argument("--name", default="", help="result file suffix: bench/results/memory_NAME.json")
    args = ap.parse_args()
    if args.against is not None and args.reports is None:
        sys.exit("--against needs --reports (the file of this run to compare)")
    if not Path("/proc/self/status").is_file():
        sys.exit("this bench reads /proc/self/status (Linux)")
    rows = interleave(select_cases(args))
    counts = {lang: sum(1 for r in rows if r[0] == lang) for lang in dict.fromkeys(r[0] for r in rows)}
    print(f"{len(rows)} answers: " + ", ".join(f"{k} {v}" for k, v in counts.items()), flush=True)
    before = machine()
    with tempfile.TemporaryDirectory(prefix="hallucheck-memory-") as tmp:
        cases = Path(tmp) / "cases.jsonl"
        with cases.open("w", encoding="utf-8") as f:
            for lang, case in rows:
                f.write(json.dumps({"language": lang, "case": case}, ensure_ascii=False) + "\n")
        del rows
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(cases), str(args.reports or "")],
                              capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"child failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
    child = json.loads(proc.stdout.strip().splitlines()[-1])
    result: dict[str, Any] = {"machine": before, "load_average_1m_after": machine()["load_average_1m"],
                              "split": args.split, "per_language": args.per_language,
                              "synth_dir": str(args.synth_dir) if args.synth_dir else None, "answers": counts, **child}
    if args.against is not None and args.reports is not None:
        result["identity"] = differing(args.reports, args.against)
        print("identity", json.dumps(result["identity"]))
    print(json.dumps({k: child[k] for k in ("peak_rss_mb", "ru_maxrss_mb", "cold_start_s", "overall")}))
    print("stages", json.dumps(child["stages_rss_mb"]), "first", json.dumps(child["first_check"]))
    print("per language", json.dumps(child["per_language"]))
    print("caches", json.dumps(child["caches"]))
    path = write_result("memory" + (f"_{args.name}" if args.name else ""), result)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
