"""Human-labelled sentence pairs as training data for the verifier, and RAG-shaped contrasts made of them.

Why: a verifier learned from rule-made cases learns that a faithful answer is a copy and that any
new word is an error. People reword: the pairs here were judged (NLI, paraphrase) or written
(independent professional translations of one sentence) by people, so what counts as "the same
meaning in other words" comes from them.

Which files: only those the data's README marks ``ships = yes`` may train what ships
(:data:`SHIPPABLE`); :data:`MEASURE_ONLY` are read by the benchmark and never by training.

What a row becomes:

- NLI rows keep their label; paraphrase rows become entailment, non-paraphrase rows neutral.
- Pairs of two scripts (Simplified and Traditional translations of one sentence) also give
  same-script pairs in each script (OpenCC on one side), and Simplified-only files give a
  Traditional copy (``s2twp``): no native Traditional monolingual pairs ship.
- Paraphrase files hold no negatives, so each faithful pair also gives, by rule, a changed twin
  of its hypothesis: one negation or opposite word (:func:`hallucheck.train.pair_minimal.minimal_edits`;
  contradiction), a figure changed (contradiction), or a clause of another row added
  (neutral: a fact the premise does not hold). The premise stays the human one, so the model sees
  a reworded sentence that is faithful beside a reworded sentence that is not.
- A name swapped (opt-in, ``names``): one name of a faithful hypothesis replaced by a name of the
  same kind from another row in the same language (contradiction), so that the capital of France
  read as "里昂" over "Paris is the capital of France." is no translation of it. Names are jieba's
  tagged names in Chinese (:func:`hallucheck.text.han_names.han_names`) and capitalised runs in
  the Latin-script languages (:func:`hallucheck.text.entities.find_entities`).
- RAG shape: at run time the premise is a source's best few sentences, not one sentence, so a
  share of pairs gets one or two other premises of the same file around its own.

The split is by group: translations of one sentence and every hypothesis of one premise share a
group, and :func:`part_of` puts a group wholly in ``train``, ``calib`` (choices, thresholds) or
``dev`` (reported only). Torch-free.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import regex

from hallucheck.train.pair_example import PAIR_LABELS, PairExample

__all__ = ["MEASURE_ONLY", "SHIPPABLE", "HumanRow", "RagCase", "contrast_pairs", "converter", "group_of", "human_pairs", "main",
           "name_pool", "part_of", "rag_cases", "read_rows", "script_variants", "swapped_name", "write_fit_texts"]

SHIPPABLE: tuple[str, ...] = (
    "mnli_dev_en", "mnli_train_taxinli_en", "snli_devtest_en", "snli_devtest_de", "snli_devtest_fr",
    "gqnli_en", "gqnli_fr", "daccord_fr",
    "stsb_train_images_en", "stsb_train_images_de", "stsb_train_images_fr", "stsb_train_images_zh-Hans",
    "tatoeba_cmn_en+zh-Hans", "tatoeba_cmn_en+zh-Hant", "tatoeba_cmn_pivot_zh-Hans",
    "ntrex_2refs_fr", "ntrex_2refs_zh-Hans+zh-Hant", "flores_2refs_zh-Hans+zh-Hant",
    "ntrex_flores_en+de", "ntrex_flores_en+fr", "ntrex_flores_en+zh-Hans",
)
MEASURE_ONLY: tuple[str, ...] = (
    "xnli_dev_en", "xnli_dev_de", "xnli_dev_fr", "xnli_dev_zh-Hans", "ocnli_train_zh-Hans", "afqmc_train_zh-Hans",
    "mrpc_train_en", "rte3_dev_en", "rte3_dev_de", "rte3_dev_fr",
    "tatoeba_test_mono_de", "tatoeba_test_mono_en", "tatoeba_test_mono_fr", "tatoeba_test_mono_zh-Hans",
)
_LABEL = {"entailment": 0, "paraphrase": 0, "neutral": 1, "non_paraphrase": 1, "contradiction": 2}
_ENTAIL, _NEUTRAL, _CONTRA = (PAIR_LABELS.index(x) for x in PAIR_LABELS)
_DIGITS = regex.compile(r"\d+")
_CONJ = {"en": ", and ", "de": ", und ", "fr": ", et ", "zh-Hans": "，", "zh-Hant": "，"}
_TRAILING = regex.compile(r"[\s.!?。！？…]+$")


@dataclass(frozen=True)
class HumanRow:
    """One staged pair: its file, languages of the two sides, label index, and split group."""

    file: str
    premise: str
    hypothesis: str
    label: int
    premise_lang: str
    hypothesis_lang: str
    group: str


def group_of(row_id: str, source: str, premise: str) -> str:
    """The split key of a row: the sentence it is a translation of, or its premise.

    NTREX / FLORES rows of every file share the index of their English sentence; Tatoeba rows the
    English sentence's id; STS-B rows their row number in every language; other NLI rows their
    premise (SNLI's translated rows are grouped with their English premise by :func:`read_rows`)."""
    if source in ("ntrex_2refs", "ntrex_flores", "flores_2refs"):
        tail = row_id.rsplit("-", 2)
        corpus = "flores" if "flores" in row_id.split("-")[-2:-1] or source == "flores_2refs" else "ntrex"
        return f"{corpus}:{tail[-1]}"
    if source == "gqnli":
        return f"gqnli:{int(row_id.rsplit('-', 1)[-1]) // 10}"
    if source.startswith("tatoeba"):
        parts = row_id.split("-")
        return f"tatoeba:{parts[-2] if source == 'tatoeba_cmn' else parts[-3]}"
    if source == "stsb_train_images":
        return f"{source}:{row_id.rsplit('-', 1)[-1]}"
    return f"{source}:{premise.strip().lower()}"


def part_of(group: str) -> str:
    """``dev`` for a tenth of the groups, ``calib`` for another tenth, ``train`` for the rest."""
    h = int(hashlib.sha1(group.encode("utf-8")).hexdigest()[:8], 16) % 10
    return "dev" if h == 0 else "calib" if h == 1 else "train"


def _langs(lang: str) -> tuple[str, str]:
    if "+" in lang:
        a, b = lang.split("+", 1)
        return a, b
    return lang, lang


def read_rows(data_dir: str | Path, name: str) -> list[HumanRow]:
    """The rows of one staged file, with SNLI's and STS-B's translated rows grouped with their English row."""
    path = Path(data_dir) / f"{name}.jsonl.gz"
    raw = [json.loads(line) for line in gzip.open(path, "rt", encoding="utf-8") if line.strip()]
    out = []
    en_premise: dict[str, str] = {}
    if name.startswith("snli_devtest_") and not name.endswith("_en"):
        en_path = Path(data_dir) / "snli_devtest_en.jsonl.gz"
        for line in gzip.open(en_path, "rt", encoding="utf-8"):
            r = json.loads(line)
            en_premise[r["id"].split("-", 2)[2]] = r["premise"]
    for r in raw:
        label = _LABEL.get(str(r["label"]))
        if label is None:
            continue
        source = str(r["source"])
        if source == "snli_devtest":
            key = str(r["id"]).split("-", 2)[2]
            group = "snli:" + en_premise.get(key, r["premise"]).strip().lower()
        else:
            group = group_of(str(r["id"]), source, str(r["premise"]))
        pl, hl = _langs(str(r["lang"]))
        out.append(HumanRow(name, str(r["premise"]), str(r["hypothesis"]), label, pl, hl, group))
    return out


def converter(config: str) -> Callable[[str], str]:
    """OpenCC's conversion ``config`` ("s2twp": Simplified to Taiwan Traditional with phrases; "t2s")."""
    # lazy: optional extra (train)
    import opencc  # training only

    try:
        return opencc.OpenCC(config).convert
    except Exception:  # noqa: BLE001 - some builds want the file name
        return opencc.OpenCC(config + ".json").convert


def script_variants(row: HumanRow, s2t: Callable[[str], str], t2s: Callable[[str], str]) -> list[HumanRow]:
    """Same-script copies: Simplified/Traditional pairs in each script, Simplified-only rows in Traditional."""
    if row.premise_lang == "zh-Hans" and row.hypothesis_lang == "zh-Hant":
        return [row,
                HumanRow(row.file, row.premise, t2s(row.hypothesis), row.label, "zh-Hans", "zh-Hans", row.group),
                HumanRow(row.file, s2t(row.premise), row.hypothesis, row.label, "zh-Hant", "zh-Hant", row.group)]
    if row.premise_lang == "zh-Hans" and row.hypothesis_lang == "zh-Hans":
        return [row, HumanRow(row.file, s2t(row.premise), s2t(row.hypothesis), row.label, "zh-Hant", "zh-Hant", row.group)]
    return [row]


def _change_figure(text: str, rng: random.Random) -> str | None:
    found = list(_DIGITS.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    value = int(m.group()) if len(m.group()) < 12 else 0
    new = value + rng.choice((1, 2, 3, 5, 10)) if value < 10 else value * rng.choice((2, 3)) + rng.choice((0, 1))
    if value > 1900 and value < 2100:
        new = value + rng.choice((-3, -2, -1, 1, 2, 3))
    return text[: m.start()] + str(new) + text[m.end():]


def contrast_pairs(row: HumanRow, other: HumanRow, rng: random.Random) -> Iterator[PairExample]:
    """A faithful row's changed twins (see the module doc): at most one of each kind that applies."""
    from hallucheck.train.pair_minimal import minimal_edits  # lazy: loaded only on this path

    lang = row.hypothesis_lang
    h = row.hypothesis.strip()
    for edit in minimal_edits(lang):
        got = edit(h, rng)
        if got is not None:
            yield PairExample(row.premise, got[0], _CONTRA, row.group, f"human:contrast:{got[1]}", lang)
            break
    fig = _change_figure(h, rng)
    if fig is not None:
        yield PairExample(row.premise, fig, _CONTRA, row.group, "human:contrast:figure", lang)
    if other.hypothesis_lang == lang and other.group != row.group:
        clause = _TRAILING.sub("", other.hypothesis.strip())
        if clause and len(clause) < 160:
            if not lang.startswith("zh") and lang != "de":
                clause = clause[0].lower() + clause[1:]
            added = _TRAILING.sub("", h) + _CONJ.get(lang, ", ") + clause + ("。" if lang.startswith("zh") else ".")
            yield PairExample(row.premise, added, _NEUTRAL, row.group, "human:contrast:added", lang)


def _names_of(text: str, lang: str) -> list[tuple[int, int, str]]:
    """The names of one hypothesis, as ``(start, end, kind)``; Latin-script names have kind ``name``."""
    if lang.startswith("zh"):
        from hallucheck.text.han_names import han_names  # lazy: jieba loads only on this path

        return [(n.start, n.end, n.kind) for n in han_names(text)]
    from hallucheck.text.entities import find_entities  # lazy: loaded only on this path

    return [(m.start, m.end, "name") for m in find_entities(text, lang)]


def name_pool(rows: list[HumanRow], rng: random.Random, limit: int = 3000) -> dict[tuple[str, str], list[str]]:
    """Names of faithful hypotheses by (language, kind), at most ``limit`` rows read (a seeded sample)."""
    pool: dict[tuple[str, str], set[str]] = {}
    faithful = [r for r in rows if r.label == _ENTAIL]
    for r in rng.sample(faithful, min(limit, len(faithful))):
        h = r.hypothesis.strip()
        for a, b, kind in _names_of(h, r.hypothesis_lang):
            pool.setdefault((r.hypothesis_lang, kind), set()).add(h[a:b])
    return {k: sorted(v) for k, v in pool.items()}


def swapped_name(row: HumanRow, pool: dict[tuple[str, str], list[str]], rng: random.Random) -> PairExample | None:
    """``row`` with one name of its hypothesis replaced by another of the same kind (contradiction),
    or None when the hypothesis names nothing or no other name of its kind is known. The new name
    is none the premise holds, so the twin never repeats what the premise says."""
    h = row.hypothesis.strip()
    found = _names_of(h, row.hypothesis_lang)
    if not found:
        return None
    a, b, kind = rng.choice(found)
    old = h[a:b]
    names = pool.get((row.hypothesis_lang, kind), [])
    picks = (rng.choice(names) for _ in range(20 if names else 0))  # a few draws, not a pass over the pool
    new = next((n for n in picks if n != old and n not in row.premise and n not in h), None)
    if new is None:
        return None
    lang = row.hypothesis_lang if row.premise_lang == row.hypothesis_lang else f"{row.premise_lang}+{row.hypothesis_lang}"
    return PairExample(row.premise, h[:a] + new + h[b:], _CONTRA, row.group, "human:contrast:name", lang)


def _with_context(premise: str, others: list[str], rng: random.Random) -> str:
    """The premise among one or two other premises of its file, as the run-time evidence is a few sentences."""
    k = rng.choice((1, 2))
    picked = rng.sample(others, min(k, len(others))) if others else []
    parts = [premise, *picked]
    rng.shuffle(parts)
    return " ".join(p.strip() for p in parts)


def _unrelated(row: HumanRow, premises: list[str], rng: random.Random) -> str | None:
    """One to three premises of other rows of the file, none of them the row's own."""
    picked = [p for p in rng.sample(premises, min(len(premises), rng.choice((1, 2, 3)))) if p != row.premise]
    return " ".join(p.strip() for p in picked) or None


def _makes_contrasts(name: str) -> bool:
    """Whether a file's faithful rows get rule-made twins: paraphrase and translation files, whose
    rows have no human negatives of their own."""
    return "paraphrase" in name or name.startswith(("tatoeba", "ntrex", "flores", "stsb"))


def human_pairs(data_dir: str | Path, part: str, seed: int = 0, *, files: tuple[str, ...] = SHIPPABLE,
                caps: dict[str, int] | None = None, contrasts: float = 0.5, context_share: float = 0.3,
                unrelated: float = 0.0, names: float = 0.0) -> Iterator[PairExample]:
    """The pairs of ``files`` in ``part`` (``train`` / ``calib`` / ``dev``), script variants and
    contrasts included. ``caps`` limits rows per file (a seeded sample), so that one large file
    does not drown the rest; ``contrasts`` is the share of faithful rows that get changed twins;
    ``context_share`` the share of pairs whose premise gets other premises around it;
    ``unrelated`` the share of rows that also get a neutral twin whose premise is other rows'
    premises only. Why the last: at run time a sentence's evidence may miss the source sentence
    that says it (another language, another script, no shared word), and a verifier that never saw
    evidence unrelated to its hypothesis reads such a premise of several sentences as entailing
    anything. ``names`` is the share of faithful rows of the paraphrase and translation files that
    also get a twin with one name swapped (:func:`swapped_name`). The unrelated and name twins are
    drawn from their own random sequences, so the other pairs stay as they are without them."""
    rng = random.Random(seed)
    urng = random.Random(seed + 104729)
    nrng = random.Random(seed + 7919)
    s2t, t2s = converter("s2twp"), converter("t2s")
    for name in files:
        rows = [r for r in read_rows(data_dir, name) if part_of(r.group) == part]
        cap = (caps or {}).get(name)
        if cap is not None and len(rows) > cap:
            rows = rng.sample(rows, cap)
        variants = [v for r in rows for v in script_variants(r, s2t, t2s)]
        premises = [v.premise for v in variants]
        pool = name_pool(variants, nrng) if names else {}
        for v in variants:
            kind = f"human:{name}" + ("" if v.premise_lang == v.hypothesis_lang else ":cross")
            lang = v.hypothesis_lang if v.premise_lang == v.hypothesis_lang else f"{v.premise_lang}+{v.hypothesis_lang}"
            premise = v.premise
            if context_share and rng.random() < context_share:
                premise = _with_context(v.premise, [rng.choice(premises) for _ in range(2)], rng)
            yield PairExample(premise, v.hypothesis.strip(), v.label, v.group, kind, lang)
            if unrelated and urng.random() < unrelated:
                other = _unrelated(v, premises, urng)
                if other is not None:
                    yield PairExample(other, v.hypothesis.strip(), _NEUTRAL, v.group, "human:contrast:unrelated", lang)
            if v.label == _ENTAIL and rng.random() < contrasts and _makes_contrasts(name):
                yield from contrast_pairs(v, rng.choice(variants), rng)
            if names and v.label == _ENTAIL and _makes_contrasts(name) and nrng.random() < names:
                twin = swapped_name(v, pool, nrng)
                if twin is not None:
                    yield twin


_QUESTION = {"en": "What does the text say?", "de": "Was steht im Text?", "fr": "Que dit le texte ?",
             "zh-Hans": "文中说了什么？", "zh-Hant": "文中說了什麼？"}


@dataclass(frozen=True)
class RagCase:
    """A RAG-shaped case made of pairs: a source paragraph of premises, an answer of their hypotheses.

    ``changed`` is the ``[start, end)`` of the one answer sentence that is not faithful (a neutral,
    contradicting or non-paraphrase hypothesis, or a rule-made contrast), None for a faithful answer."""

    language: str
    question: str
    source: str
    answer: str
    changed: tuple[int, int] | None
    kind: str


def rag_cases(pairs: list[PairExample], rng: random.Random, n: int, sentences: int = 3) -> list[RagCase]:
    """``n`` faithful and ``n`` changed cases per language from same-language ``pairs`` of one part.

    Each case puts ``sentences`` premises (and one unrelated premise) into one source paragraph in
    shuffled order; the answer restates them in order, each by a human-labelled entailed hypothesis,
    and a changed case swaps one of them for a not-entailed hypothesis of its own premise."""
    by_lang: dict[str, dict[str, list[PairExample]]] = {}
    for p in pairs:
        if "+" in p.language or p.language not in _QUESTION:
            continue
        side = "faithful" if p.label == _ENTAIL else "changed"
        by_lang.setdefault(p.language, {"faithful": [], "changed": []})[side].append(p)
    out: list[RagCase] = []
    joiner = {"zh-Hans": "", "zh-Hant": ""}
    for lang, sides in sorted(by_lang.items()):
        faithful, changed = sides["faithful"], sides["changed"]
        if len(faithful) < sentences + 1 or not changed:
            continue
        for k in range(2 * n):
            picked = rng.sample(faithful, sentences)
            swap = None if k < n else rng.choice(changed)
            rows = list(picked)
            if swap is not None:
                rows[rng.randrange(sentences)] = swap
            extra = rng.choice(faithful).premise
            premises = [r.premise for r in rows] + [extra]
            rng.shuffle(premises)
            sep = joiner.get(lang, " ")
            answer, span = "", None
            for r in rows:
                start = len(answer) + (len(sep) if answer else 0)
                answer = (answer + sep if answer else "") + r.hypothesis.strip()
                if r is swap:
                    span = (start, len(answer))
            out.append(RagCase(lang, _QUESTION[lang], sep.join(p.strip() for p in premises), answer, span,
                               "faithful" if swap is None else swap.kind))
    return out


def write_fit_texts(data_dir: str | Path, out: str | Path) -> int:
    """Every premise and hypothesis of the ship-able files as generic-format lines (answer + one
    context), the texts whose pieces a pruned encoder vocabulary keeps (``python -m
    hallucheck.train.e5_base OUT --fit THIS_FILE --pairs``); returns the number of rows."""
    n = 0
    with open(out, "w", encoding="utf-8") as fh:
        for name in SHIPPABLE:
            for r in read_rows(data_dir, name):
                fh.write(json.dumps({"answer": r.premise, "contexts": [r.hypothesis]}, ensure_ascii=False) + "\n")
                n += 1
    return n


def main(argv: list[str] | None = None) -> None:
    import argparse  # lazy: loaded only on this path

    ap = argparse.ArgumentParser(description="Write the texts of the ship-able human-labelled pairs for vocabulary pruning.")
    ap.add_argument("data_dir", help="the folder of human-labelled pairs (../shared/data/pairs)")
    ap.add_argument("out", help="the JSONL file to write")
    a = ap.parse_args(argv)
    print(f"{write_fit_texts(a.data_dir, a.out)} rows written to {a.out}")


if __name__ == "__main__":
    main()
