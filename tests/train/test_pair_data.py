"""Sentence pairs: labels from the gold spans a sentence overlaps, and edits kept with their unedited twins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hallucheck.eval.datasets import generic_example
from hallucheck.train.pair_data import (
    PAIR_LABELS,
    PairExample,
    edit_pairs,
    negated_pair,
    pair_label,
    pairs_of_example,
    pairs_of_source,
)

SOURCE = ("The museum opened in 1998 in the old harbour. Entry is free for children under twelve. "
          "The collection holds about four thousand ships' models.")
ANSWER = "The museum opened in 1998. Entry is not free for children under twelve."


def _record(answer: str, spans: list[dict], edit: str = "original", **meta: object) -> dict:
    return {"question": "Tell me about the museum.", "contexts": [{"id": "1", "text": SOURCE}], "answer": answer,
            "label": bool(spans), "spans": spans, "part": "train",
            "metadata": {"edit": edit, "ragtruth_id": "7", "source_key": "k7", **meta}}


def _span(answer: str, word: str, label: str = "contradiction") -> dict:
    start = answer.index(word)
    return {"start": start, "end": start + len(word), "label": label}


def test_labels_of_span_types() -> None:
    assert pair_label("Evident Conflict") == pair_label("contradiction") == PAIR_LABELS.index("contradiction")
    assert pair_label("Subtle Baseless Info") == pair_label("speculation") == PAIR_LABELS.index("neutral")
    assert pair_label("invalid_citation") is None


def test_each_sentence_is_labelled_by_the_spans_it_overlaps() -> None:
    ex = generic_example(_record(ANSWER, [_span(ANSWER, "not")]))
    pairs = pairs_of_example(ex, "negation")
    assert [p.label for p in pairs] == [0, 2]
    assert pairs[1].hypothesis == "Entry is not free for children under twelve."
    assert "Entry is free for children under twelve." in pairs[1].premise  # the premise is the matching source sentence
    assert {p.group for p in pairs} == {"k7"} and pairs[1].index == 1


def test_a_citation_fault_case_gives_no_pairs() -> None:
    answer = "The museum opened in 1998 [3]."
    ex = generic_example(_record(answer, [_span(answer, "[3]", "invalid_citation")]))
    assert pairs_of_example(ex, "citation_wrong") == []


def test_edits_keep_the_edited_sentence_and_its_unedited_twin() -> None:
    original = "The museum opened in 1998. Entry is free for children under twelve."
    records = [_record(original, []), _record(ANSWER, [_span(ANSWER, "not")], edit="negation")]
    pairs = list(edit_pairs(generic_example(r) for r in records))
    assert [(p.kind, p.label, p.hypothesis) for p in pairs] == [
        ("negation", 2, "Entry is not free for children under twelve."),
        ("original", 0, "Entry is free for children under twelve."),
    ]


def test_a_faithful_twin_is_entailed_at_its_changed_sentence() -> None:
    answer = "The museum opened in 1998. Entry is free for children under twelve."
    start = answer.index("free")
    twin = _record(answer, [], edit="twin_negation", changed=[start, start + 4])
    pairs = list(edit_pairs([generic_example(twin)]))
    assert [(p.kind, p.label, p.index) for p in pairs] == [("twin_negation", 0, 1)]


def test_pairs_of_source_modes(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(_record(ANSWER, [_span(ANSWER, "not")])) + "\n", encoding="utf-8")
    kept = list(pairs_of_source(str(path), "generic", "answers", "train", entail_keep=0.0))
    assert [(p.kind, p.label) for p in kept] == [("synth:original", 2)]  # entailed sentences dropped at 0
    assert list(pairs_of_source(str(path), "generic", "answers", "calib")) == []  # another part
    with pytest.raises(ValueError, match="unknown pair source mode"):
        list(pairs_of_source(str(path), "generic", "sentences", "train"))


def test_negated_pairs_are_told_apart_and_kept_at_their_own_share(tmp_path: Path) -> None:
    def pair(premise: str, hypothesis: str) -> PairExample:
        return PairExample(premise, hypothesis, 0, "g", "ragtruth")

    assert negated_pair(pair("The secret is not to slice it too thin.", "Slice it thinly."))
    assert negated_pair(pair("Slice it.", "Don't slice it too thin."))
    assert negated_pair(pair("他没有去。", "他去了。"))
    assert not negated_pair(pair("The museum opened in 1998.", "It opened in 1998."))
    assert not negated_pair(pair("Notes are kept.", "Nobel prizes; a knot."))  # words, not letters
    path = tmp_path / "cases.jsonl"
    answer = "The museum opened in 1998. Entry is free for children under twelve. It holds no paintings."
    path.write_text(json.dumps(_record(answer, [])) + "\n", encoding="utf-8")
    plain = list(pairs_of_source(str(path), "generic", "answers", "train", entail_keep=0.0))
    negated = list(pairs_of_source(str(path), "generic", "answers", "train", entail_keep=0.0, entail_keep_negated=1.0))
    assert plain == []
    assert negated and all(negated_pair(p) and p.label == 0 for p in negated)
    everything = list(pairs_of_source(str(path), "generic", "answers", "train", entail_keep=1.0))
    assert len(negated) < len(everything)
