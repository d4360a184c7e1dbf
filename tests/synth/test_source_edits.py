"""Source-side and twin edits: the label follows from where the change was made."""

from __future__ import annotations

from hallucheck.synth.source_edits import source_edit_records, source_edits

SOURCE = ("Fuel prices increased sharply in March across the region. "
          "The new airport terminal was opened by the city council in May.")
ANSWER = "The report says fuel prices increased sharply in March. The terminal was opened by the council in May."


def _by_kind(answer: str, source: str) -> dict[str, list]:  # type: ignore[type-arg]
    out: dict[str, list] = {}  # type: ignore[type-arg]
    for e in source_edits(answer, [source]):
        out.setdefault(e.kind, []).append(e)
    return out


def test_source_antonym_contradicts_the_answers_own_word() -> None:
    (e,) = _by_kind(ANSWER, SOURCE)["source_antonym"]
    assert e.answer == ANSWER
    assert "decreased sharply" in e.context and "increased" not in e.context
    assert e.span is not None and ANSWER[e.span[0]:e.span[1]] == "increased"


def test_twin_antonym_changes_both_and_stays_faithful() -> None:
    (e,) = _by_kind(ANSWER, SOURCE)["twin_antonym"]
    assert e.span is None
    assert "prices decreased sharply" in e.answer and "prices decreased sharply" in e.context


def test_source_negation_and_twin_negation() -> None:
    kinds = _by_kind(ANSWER, SOURCE)
    (neg,) = kinds["source_negation"]
    assert "terminal was not opened" in neg.context and neg.answer == ANSWER
    assert neg.span is not None and ANSWER[neg.span[0]:neg.span[1]] == "was opened"
    (twin,) = kinds["twin_negation"]
    assert twin.span is None
    assert "terminal was not opened" in twin.answer and "terminal was not opened" in twin.context


def test_a_negation_both_state_is_removed_from_the_source() -> None:
    source = "The museum cannot accept large bags at the entrance. Tickets are sold online."
    answer = "Visitors should know the museum cannot accept large bags."
    kinds = _by_kind(answer, source)
    (neg,) = kinds["source_negation"]
    assert "museum can accept large bags" in neg.context
    assert neg.span is not None and answer[neg.span[0]:neg.span[1]] == "cannot accept"
    (twin,) = kinds["twin_negation"]
    assert "museum can accept large bags" in twin.answer and twin.span is None


def test_no_edit_without_a_restated_source_sentence() -> None:
    # the answer's sentence shares too few content words with any source sentence
    assert source_edits("Prices increased.", [SOURCE]) == []
    assert source_edits("The weather in Oslo was cold and windy all week long.", [SOURCE]) == []
    # the word is in the answer but not in the source sentence it restates
    assert not _by_kind("Fuel prices rose sharply in March across the region.", SOURCE).get("source_antonym")


def test_records_keep_the_part_and_are_seeded() -> None:
    rec = {"id": "7:original", "question": "q", "contexts": [{"id": "1", "text": SOURCE}], "answer": ANSWER,
           "task": "summary", "language": "en", "part": "train", "label": False, "spans": [],
           "metadata": {"ragtruth_id": "7", "edit": "original"}}
    first = list(source_edit_records([rec], seed=5))
    assert first == list(source_edit_records([rec], seed=5))
    assert len(first) == 2 and len({r["metadata"]["edit"] for r in first}) == 2
    for r in first:
        assert r["part"] == "train" and r["id"] == f"7:{r['metadata']['edit']}"
        assert r["label"] == bool(r["spans"]) == r["metadata"]["edit"].startswith("source_")
        for s in r["spans"]:
            assert r["answer"][s["start"]:s["end"]] == s["text"] and s["label"] == "contradiction"
    assert rec["contexts"][0]["text"] == SOURCE  # the input record is not changed
    # only clean QA and Summary originals are edited
    assert list(source_edit_records([{**rec, "task": "data2txt"}])) == []
    assert list(source_edit_records([{**rec, "metadata": {"edit": "negation"}}])) == []


def test_changed_names_the_new_words_of_a_twin_edit() -> None:
    kinds = _by_kind(ANSWER, SOURCE)
    for kind, words in (("twin_antonym", "decreased"), ("twin_negation", "was not opened"), ("source_antonym", "increased")):
        (e,) = kinds[kind]
        assert e.answer[e.changed[0]:e.changed[1]] == words
    source = "The museum cannot accept large bags at the entrance. Tickets are sold online."
    answer = "Visitors should know the museum cannot accept large bags."
    (twin,) = _by_kind(answer, source)["twin_negation"]
    assert twin.answer[twin.changed[0]:twin.changed[1]] == "can accept"


def test_per_kind_draws_different_edits_of_one_kind() -> None:
    answer = "Fuel prices increased sharply in March. Rents increased in the city in May."
    source = "Fuel prices increased sharply in March across the region. Rents increased in the city in May too."
    rec = {"id": "9:original", "question": "q", "contexts": [{"id": "1", "text": source}], "answer": answer,
           "task": "qa", "language": "en", "part": "calib", "label": False, "spans": [],
           "metadata": {"ragtruth_id": "9", "edit": "original"}}
    one = list(source_edit_records([rec], per_answer=4))
    many = list(source_edit_records([rec], per_answer=4, per_kind=3))
    assert {r["metadata"]["edit"] for r in one} == {r["metadata"]["edit"] for r in many}
    assert len(one) == 2 and len(many) == 4
    antonyms = [r for r in many if r["metadata"]["edit"] == "source_antonym"]
    assert [r["id"] for r in antonyms] == ["9:source_antonym", "9:source_antonym:1"]
    assert len({r["spans"][0]["start"] for r in antonyms}) == 2
