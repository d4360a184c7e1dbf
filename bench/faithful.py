"""Faithful rewordings against changed meaning, per language, with the default checker; and RAGTruth dev.

    nice python bench/faithful.py                       # everything (about 20 minutes on 2 cores)
    nice python bench/faithful.py --per-class 60 --no-ragtruth --langs de,zh-Hans

Each human-labelled pair becomes a case: the premise is the source, the hypothesis the answer.
Faithful: entailment and paraphrase pairs. Changed: neutral, contradiction and non-paraphrase
pairs, and (for files of translations, which hold no negatives) a faithful pair's hypothesis with
one figure, negation or opposite word changed or a clause of another row added
(:func:`hallucheck.train.human_pairs.contrast_pairs`).

Sets:

- ``calib``: the same from the calib part (thresholds are chosen here, never on dev);
- ``dev``: the dev part of the pairs that may train what ships (:func:`hallucheck.train.human_pairs.part_of`;
  no premise of the dev part is in training), en, de, fr, zh-Hans, zh-Hant (zh-Hant from the
  Simplified/Traditional translation pairs, same script by OpenCC) and cross-lingual
  (an answer in one language over a source in another);
- ``measure``: files that may only measure (XNLI dev, OCNLI, AFQMC, RTE-3, MRPC): the Chinese
  ones in Simplified and, converted with OpenCC, Traditional. Never trained on.

- ``rag``: RAG-shaped cases of the dev part: a paragraph of premises, a three-sentence answer of
  hypotheses, one of them changed in half the cases (:func:`hallucheck.train.human_pairs.rag_cases`).

Rates: ``faithful flagged`` (decision not accept), ``faithful rejected``, ``changed caught``
(decision not accept), ``changed caught with a span``. With ``--ragtruth`` (default) also the
RAGTruth dev response and character-span P/R/F1 of the same checker
(``hallucheck eval ... --split dev``). Writes bench/results/faithful_<tag>.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hallucheck.train.human_pairs import SHIPPABLE, contrast_pairs, part_of, read_rows  # noqa: E402

PAIRS = ROOT.parent / "shared" / "data" / "pairs"
MEASURE = {
    "en": ["xnli_dev_en", "rte3_dev_en", "mrpc_train_en"],
    "de": ["xnli_dev_de", "rte3_dev_de"],
    "fr": ["xnli_dev_fr", "rte3_dev_fr"],
    "zh-Hans": ["xnli_dev_zh-Hans", "ocnli_train_zh-Hans", "afqmc_train_zh-Hans"],
}
LANGS = ("en", "de", "fr", "zh-Hans", "zh-Hant", "cross")


def _lang_key(premise_lang: str, hypothesis_lang: str) -> str:
    return hypothesis_lang if premise_lang == hypothesis_lang else "cross"


def dev_cases(per_class: int, seed: int, part: str = "dev") -> dict[str, dict[str, list[tuple[str, str, str]]]]:
    """{lang: {"faithful"|"changed": [(premise, hypothesis, kind)]}} from one part of the shippable files
    (``dev`` to report; ``calib`` to choose thresholds on)."""
    from hallucheck.train.human_pairs import converter, script_variants

    rng = random.Random(seed)
    s2t, t2s = converter("s2twp"), converter("t2s")
    out: dict[str, dict[str, list[tuple[str, str, str]]]] = defaultdict(lambda: defaultdict(list))
    for name in SHIPPABLE:
        rows = [v for r in read_rows(PAIRS, name) if part_of(r.group) == part for v in script_variants(r, s2t, t2s)]
        for v in rows:
            lang = _lang_key(v.premise_lang, v.hypothesis_lang)
            cls = "faithful" if v.label == 0 else "changed"
            out[lang][cls].append((v.premise, v.hypothesis, name))
            if v.label == 0 and name.startswith(("tatoeba", "ntrex", "flores", "stsb")):
                for p in contrast_pairs(v, rng.choice(rows), rng):
                    out[lang]["changed"].append((p.premise, p.hypothesis, p.kind))
    return _sample(out, per_class, rng)


def measure_cases(per_class: int, seed: int) -> dict[str, dict[str, list[tuple[str, str, str]]]]:
    from hallucheck.train.human_pairs import converter

    rng = random.Random(seed)
    s2t = converter("s2twp")
    out: dict[str, dict[str, list[tuple[str, str, str]]]] = defaultdict(lambda: defaultdict(list))
    for lang, files in MEASURE.items():
        for name in files:
            for r in read_rows(PAIRS, name):
                cls = "faithful" if r.label == 0 else "changed"
                out[lang][cls].append((r.premise, r.hypothesis, name))
                if lang == "zh-Hans":
                    out["zh-Hant"][cls].append((s2t(r.premise), s2t(r.hypothesis), name))
    return _sample(out, per_class, rng)


def _sample(out: dict[str, dict[str, list[tuple[str, str, str]]]], per_class: int,
            rng: random.Random) -> dict[str, dict[str, list[tuple[str, str, str]]]]:
    """At most ``per_class`` a class, spread evenly over the files (kinds) that give it."""
    res: dict[str, dict[str, list[tuple[str, str, str]]]] = {}
    for lang, by in out.items():
        res[lang] = {}
        for cls, items in by.items():
            kinds: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
            for it in items:
                kinds[it[2].split(":")[0] if not it[2].startswith("human:") else it[2]].append(it)
            for k in kinds.values():
                rng.shuffle(k)
            picked: list[tuple[str, str, str]] = []
            while len(picked) < per_class and any(kinds.values()):
                for k in list(kinds.values()):
                    if k and len(picked) < per_class:
                        picked.append(k.pop())
            res[lang][cls] = picked
    return res


def run_set(checker: object, cases: dict[str, dict[str, list[tuple[str, str, str]]]], langs: list[str]) -> dict[str, dict[str, float]]:
    table: dict[str, dict[str, float]] = {}
    for lang in langs:
        if lang not in cases:
            continue
        row: dict[str, float] = {}
        for cls in ("faithful", "changed"):
            items = cases[lang].get(cls, [])
            if not items:
                continue
            flagged = rejected = spanned = 0
            t0 = time.perf_counter()
            for premise, hypothesis, _ in items:
                rep = checker.check(question="", contexts=[premise], answer=hypothesis)  # type: ignore[attr-defined]
                flagged += rep.decision != "accept"
                rejected += rep.decision == "reject"
                spanned += rep.decision != "accept" and bool(rep.spans)
            n = len(items)
            row[f"{cls}_n"] = n
            row[f"{cls}_flagged"] = round(flagged / n, 4)
            row[f"{cls}_rejected"] = round(rejected / n, 4)
            row[f"{cls}_with_span"] = round(spanned / n, 4)
            row[f"{cls}_ms"] = round((time.perf_counter() - t0) * 1000 / n, 1)
        table[lang] = row
        print(f"  {lang:8s} faithful flagged {row.get('faithful_flagged', float('nan')):.3f} (n={row.get('faithful_n', 0):.0f})  "
              f"changed caught {row.get('changed_flagged', float('nan')):.3f} (with span {row.get('changed_with_span', float('nan')):.3f}, "
              f"n={row.get('changed_n', 0):.0f})", flush=True)
    return table


def rag_set(checker: object, per_class: int, seed: int, part: str, langs: list[str]) -> dict[str, dict[str, float]]:
    """RAG-shaped cases of one part (:func:`hallucheck.train.human_pairs.rag_cases`): a paragraph of
    premises, an answer of three hypotheses, one of them changed in half the cases. ``changed caught
    on the change``: flagged with a span on the changed sentence."""
    from hallucheck.train.human_pairs import human_pairs, rag_cases

    rng = random.Random(seed)
    pairs = list(human_pairs(PAIRS, part, seed, contrasts=0.5, context_share=0.0))
    cases = rag_cases(pairs, rng, per_class)
    table: dict[str, dict[str, float]] = {}
    for lang in langs:
        mine = [c for c in cases if c.language == lang]
        if not mine:
            continue
        row: dict[str, float] = {}
        for cls, items in (("faithful", [c for c in mine if c.changed is None]), ("changed", [c for c in mine if c.changed])):
            flagged = on_change = 0
            for c in items:
                rep = checker.check(question=c.question, contexts=[c.source], answer=c.answer)  # type: ignore[attr-defined]
                flagged += rep.decision != "accept"
                if c.changed is not None:
                    a, b = c.changed
                    on_change += rep.decision != "accept" and any(sp.start < b and sp.end > a for sp in rep.spans)
            row[f"{cls}_n"] = len(items)
            row[f"{cls}_flagged"] = round(flagged / max(1, len(items)), 4)
            if cls == "changed":
                row["changed_on_change"] = round(on_change / max(1, len(items)), 4)
        table[lang] = row
        print(f"  {lang:8s} faithful flagged {row['faithful_flagged']:.3f}  changed caught {row['changed_flagged']:.3f} "
              f"(span on the change {row['changed_on_change']:.3f}), n={row['faithful_n']:.0f}+{row['changed_n']:.0f}", flush=True)
    return table


def ragtruth_dev(checker: object, limit: int | None, split: str = "dev") -> dict[str, object]:
    """The RAGTruth dev figures of ``checker``, counted by the same runner as ``hallucheck eval``."""
    from hallucheck.eval.datasets import load_dataset
    from hallucheck.eval.runner import evaluate, prediction_from_report

    class _Checker:
        def views(self) -> list[str]:
            return ["report"]

        def predict(self, case: object) -> dict[str, object]:
            t0 = time.perf_counter()
            report = checker.check(case)  # type: ignore[attr-defined]
            return {"report": prediction_from_report(report, time.perf_counter() - t0)}

    data = str(ROOT.parent / "shared" / "data" / "ragtruth" / "train.jsonl.gz")
    result = evaluate(load_dataset(data, "ragtruth", split=split, limit=limit), _Checker())  # type: ignore[arg-type]
    return result.to_dict()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-class", type=int, default=150)
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--sets", default="dev,rag,measure")
    ap.add_argument("--no-ragtruth", action="store_true")
    ap.add_argument("--ragtruth-limit", type=int, default=None)
    ap.add_argument("--ragtruth-split", default="dev", help="calib to choose thresholds on, dev to report")
    ap.add_argument("--verify", choices=("on", "off"), default="on", help="the verifier pass of the default checker")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--entailed", type=float, default=None, help="override the entailment threshold (choose it on calib)")
    ap.add_argument("--contradicted", type=float, default=None, help="override the contradiction threshold (choose it on calib)")
    ap.add_argument("--entailed-english", type=float, default=None,
                    help="override the entailment threshold of English answers over long English sources (choose it on calib)")
    ap.add_argument("--threshold", action="append", default=[], metavar="NAME=VALUE",
                    help="override a threshold of hallucheck.policies.entailment, e.g. ENTAILED_CHINESE=0.2 (choose on calib)")
    ap.add_argument("--language", action="append", default=[], metavar="LANG=E/C",
                    help="read same-language answers in LANG at entailed E and contradicted C "
                         "(hallucheck.policies.entailment.LANGUAGE_THRESHOLDS), e.g. de=0.1/0.5; LANG=default drops "
                         "LANG's own (choose on calib)")
    ap.add_argument("--rag-part", default="dev", help="the part the RAG-shaped cases come from (calib to choose on)")
    ap.add_argument("--tag", default="dev")
    a = ap.parse_args()
    import hallucheck.policies.entailment as entailment
    from hallucheck import Checker

    shorthand = {"ENTAILED": a.entailed, "CONTRADICTED": a.contradicted, "ENTAILED_ENGLISH": a.entailed_english}
    overrides = [(name, value) for name, value in shorthand.items() if value is not None]
    for item in a.threshold:
        name, _, value = item.partition("=")
        if not isinstance(getattr(entailment, name, None), float):
            ap.error(f"--threshold: no threshold {name!r} in hallucheck.policies.entailment")
        overrides.append((name, float(value)))
    for name, value in overrides:
        setattr(entailment, name, value)
    for item in a.language:
        lang, _, pair = item.partition("=")
        if pair == "default":
            entailment.LANGUAGE_THRESHOLDS.pop(lang, None)
            continue
        e, _, c = pair.partition("/")
        try:
            entailment.LANGUAGE_THRESHOLDS[lang] = (float(e), float(c))
        except ValueError:
            ap.error(f"--language: {item!r} is not LANG=E/C")
    checker = Checker(verify=a.verify == "on")
    langs = a.langs.split(",")
    from hallucheck.policies.entailment import CONTRADICTED, ENTAILED

    out: dict[str, object] = {"per_class": a.per_class, "verify": a.verify, "entailed": ENTAILED, "contradicted": CONTRADICTED,
                              "thresholds": a.threshold, "languages": dict(entailment.LANGUAGE_THRESHOLDS)}
    for part in ("calib", "dev"):
        if part in a.sets.split(","):
            print(f"{part} part of the pairs that may ship:")
            out[part] = run_set(checker, dev_cases(a.per_class, a.seed, part), langs)
    if "rag" in a.sets.split(","):
        print(f"RAG-shaped cases of the {a.rag_part} part (three-sentence answers over a paragraph):")
        out["rag"] = rag_set(checker, max(20, a.per_class // 3), a.seed, a.rag_part, langs)
    if "measure" in a.sets:
        print("measure-only sets (never trained on):")
        out["measure"] = run_set(checker, measure_cases(a.per_class, a.seed), langs)
    if not a.no_ragtruth:
        print(f"RAGTruth {a.ragtruth_split}:")
        res = ragtruth_dev(checker, a.ragtruth_limit, a.ragtruth_split)
        out[f"ragtruth_{a.ragtruth_split}"] = res
        res.pop("samples", None)
        res.pop("curve", None)
        print(json.dumps({"n": res.get("n"), "throughput": res.get("throughput"), "metrics": res.get("metrics")}, indent=1)[:2500])
    dest = ROOT / "bench" / "results" / f"faithful_{a.tag}.json"
    dest.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {dest}")


if __name__ == "__main__":
    main()
