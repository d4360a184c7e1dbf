"""The case generator on a small parallel corpus: offsets, labels, determinism and the split."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from hallucheck.synth.cases import EDIT_KINDS, PARAPHRASE_EDIT_KINDS, SynthOptions, make_cases
from hallucheck.synth.citations import STYLES, style_named
from hallucheck.synth.corpus import read_corpus
from hallucheck.synth.parts import assign_parts, part_of_key
from hallucheck.text.citations import find_citations


def _cases(corpus: Path, lang: str, partner: str | None = None, seed: int = 13) -> list[dict]:
    partners = read_corpus(corpus, partner) if partner else []
    return list(make_cases(read_corpus(corpus, lang), SynthOptions(seed=seed), partners))


def test_spans_are_exact_and_labels_follow_the_spans(corpus: Path) -> None:
    for lang, partner in (("en", "zh-Hans"), ("zh-Hans", "en")):
        cases = _cases(corpus, lang, partner)
        kinds = Counter(c["metadata"]["edit"] for c in cases)
        for kind in ("copy", "summary", "cited", "figure", "negation", "speculation", "foreign", "citation_invalid",
                     "citation_wrong", "cross_copy"):
            assert kinds[kind] > 0, (lang, kind, kinds)
        for c in cases:
            assert c["language"] == lang and c["task"] in ("qa", "summary")
            assert c["label"] == bool(c["spans"])
            kind = c["metadata"]["edit"]
            assert (kind in EDIT_KINDS + PARAPHRASE_EDIT_KINDS or kind.startswith("cross_")) or not c["label"]
            for s in c["spans"]:
                assert c["answer"][s["start"] : s["end"]] == s["text"] and s["text"].strip() == s["text"] and s["text"]
            if not c["label"] and not c["metadata"]["edit"].startswith("cross"):
                # A faithful answer says nothing the sources do not (markers and added stops aside).
                sources = " ".join(x["text"] for x in c["contexts"])
                text = c["answer"]
                for m in reversed(find_citations(text, known_ids=[x["id"] for x in c["contexts"]])):
                    text = text[: m.start] + text[m.end :]
                for word in text.replace("。", " ").replace(".", " ").split():
                    if c["metadata"]["edit"] not in ("reword", "paraphrase"):
                        assert word.strip(",;:") in sources, (word, c)


def test_figure_cases_change_a_number_the_sources_lack(corpus: Path) -> None:
    for lang in ("en", "zh-Hans"):
        figures = [c for c in _cases(corpus, lang) if c["metadata"]["edit"] == "figure"]
        assert figures
        for c in figures:
            (span,) = c["spans"]
            assert span["label"] == "contradiction" and any(ch.isdigit() for ch in span["text"])
            pattern = rf"(?<![\d.,]){re.escape(span['text'])}(?![\d]|[.,]\d)"
            assert not any(re.search(pattern, x["text"]) for x in c["contexts"]), c


def test_citation_cases(corpus: Path) -> None:
    styles = set()
    for c in _cases(corpus, "en") + _cases(corpus, "zh-Hans", seed=5):
        kind = c["metadata"]["edit"]
        if kind not in ("cited", "citation_invalid", "citation_wrong"):
            continue
        styles.add(c["metadata"]["citation_style"])
        ids = {x["id"] for x in c["contexts"]}
        markers = find_citations(c["answer"], known_ids=ids)
        assert markers, c["answer"]
        if kind == "cited":
            assert not c["spans"] and all(i in ids for m in markers for i in m.ids)
            continue
        (span,) = c["spans"]
        assert span["label"] == "invalid_citation"
        style = style_named(c["metadata"]["citation_style"])
        if kind == "citation_invalid":
            missing = [style.missing_id(len(ids), k) for k in (1, 2, 3)]
            assert span["text"] in [style.marker(m, c["language"]) for m in missing]
        else:
            (bad,) = [m for m in markers if m.start == span["start"] and m.end == span["end"]]
            (cited,) = bad.ids
            assert cited in ids
            sentence_source = next(x for x in c["contexts"] if x["id"] == cited)
            before = c["answer"][: span["start"]].rstrip()
            last_sentence = before.split(". ")[-1].split("。")[-1]
            assert last_sentence not in sentence_source["text"]
    assert len(styles) >= 3


def test_same_seed_same_cases_other_seed_other_cases(corpus: Path) -> None:
    a = json.dumps(_cases(corpus, "zh-Hans", "en"), ensure_ascii=False)
    b = json.dumps(_cases(corpus, "zh-Hans", "en"), ensure_ascii=False)
    c = json.dumps(_cases(corpus, "zh-Hans", "en", seed=14), ensure_ascii=False)
    assert a == b and a != c


def test_parts_follow_the_source_document(corpus: Path) -> None:
    en = _cases(corpus, "en", "zh-Hans")
    zh = _cases(corpus, "zh-Hans", "en")
    parts = assign_parts(s.key for s in read_corpus(corpus, "en"))
    assert parts == assign_parts(s.key for s in read_corpus(corpus, "zh-Hans"))
    for c in en + zh:
        assert c["part"] == parts[c["metadata"]["source_doc"]]
    assert {c["metadata"]["source_doc"]: c["part"] for c in en} == {c["metadata"]["source_doc"]: c["part"] for c in zh}
    parts = Counter(part_of_key(f"doc{i}#s{j}") for i in range(200) for j in range(10))
    assert 0.07 < parts["dev"] / 2000 < 0.13 and 0.07 < parts["calib"] / 2000 < 0.13


def test_cross_lingual_cases_answer_in_one_language_over_the_other(corpus: Path) -> None:
    cross = [c for c in _cases(corpus, "zh-Hans", "en") if c["metadata"]["edit"].startswith("cross_")]
    assert cross
    for c in cross:
        assert c["metadata"]["source_language"] == "en" and c["language"] == "zh-Hans"
        assert all(not any("\u4e00" <= ch <= "\u9fff" for ch in x["text"]) for x in c["contexts"])
        assert any("\u4e00" <= ch <= "\u9fff" for ch in c["answer"])
    assert not [c for c in _cases(corpus, "zh-Hans") if c["metadata"]["edit"].startswith("cross_")]


def test_styles_name_sources_and_make_missing_ids() -> None:
    for style in STYLES:
        ids = [style.source_id(i) for i in range(3)]
        assert len(set(ids)) == 3 and style.missing_id(3, 1) not in ids
        marker = style.marker(ids[0], "zh-Hant")
        (found,) = find_citations(f"句子{marker}。", known_ids=ids)
        assert found.ids == (ids[0],)


def test_paraphrase_cases_come_last_and_can_be_left_out(corpus: Path) -> None:
    with_para = _cases(corpus, "en", "zh-Hans")
    without = list(make_cases(read_corpus(corpus, "en"), SynthOptions(paraphrase=False), read_corpus(corpus, "zh-Hans")))
    kinds = Counter(c["metadata"]["edit"] for c in with_para)
    assert kinds["paraphrase"] > 0
    assert not any(c["metadata"]["edit"].startswith("para") for c in without)
    # every other case is the same with or without them (antonym cases, written after them, are
    # numbered after them)
    assert [c for c in with_para if not c["metadata"]["edit"].startswith(("para", "antonym"))] == [
        c for c in without if c["metadata"]["edit"] != "antonym"]


def test_antonym_cases_come_last_and_can_be_left_out(corpus: Path) -> None:
    for lang, partner in (("en", "zh-Hans"), ("zh-Hans", "en")):
        with_ant = _cases(corpus, lang, partner)
        without = list(make_cases(read_corpus(corpus, lang), SynthOptions(antonym=False), read_corpus(corpus, partner)))
        antonyms = [c for c in with_ant if c["metadata"]["edit"] == "antonym"]
        assert antonyms and all(c["label"] and [s["label"] for s in c["spans"]] == ["contradiction"] for c in antonyms)
        assert [c for c in with_ant if c["metadata"]["edit"] != "antonym"] == without
