"""The polarity input: clauses the evidence states with the other negation, marked exactly."""

from __future__ import annotations

import pytest

from hallucheck.models.tagger_evidence import source_view
from hallucheck.models.tagger_features import BASE_FEATURES, FEATURE_NAMES, EncoderSettings, encode_answer
from hallucheck.models.tagger_polarity import clashing_marks, clauses_of, negated_over
from hallucheck.text import tokenize

POLARITY = FEATURE_NAMES.index("polarity_clash")


def _marked(answer: str, source: str, language: str = "en") -> list[str]:
    """The answer words marked against one source text (all of it one unit per sentence)."""
    clauses = clauses_of(tokenize(answer, language), language)
    evidence = [(0, c) for c in clauses_of(tokenize(source, language), language)]
    marks, _ = clashing_marks(clauses, evidence)
    return [answer[a:b] for a, b in marks]


def test_a_negation_the_source_lacks_marks_the_clause_and_the_negation() -> None:
    marked = _marked("The fee is not refundable after ten days.", "The fee is refundable after ten days.")
    assert marked == ["fee", "not", "refundable", "ten", "days"]


def test_a_negation_only_the_source_states_marks_the_answer_words_it_denies() -> None:
    marked = _marked("Acme signed the merger agreement.", "Acme did not sign the merger agreement.")
    assert marked == ["Acme", "signed", "merger", "agreement"]


def test_the_same_negation_on_both_sides_marks_nothing() -> None:
    assert _marked("The fee is not refundable.", "The fee isn't refundable.") == []
    assert _marked("The fee is refundable.", "The fee is refundable.") == []


def test_a_source_that_states_both_versions_marks_nothing() -> None:
    source = "The fee is not refundable for members. The fee is refundable for members in their first week."
    assert _marked("The fee is refundable for members.", source) == []


def test_negations_elsewhere_in_the_source_do_not_count() -> None:
    # a contrast ends the clause: the negation is the staff's, not the food's
    assert _marked("The food is stellar.", "Staff isn't always happy but their food is stellar.") == []
    # another sentence of the same unit
    assert _marked("Customers reported poor customer service.", "I will not come back. Really poor customer service!") == []
    # a negation far before the shared words
    assert _marked("It serves beer.", "He is not 21 and thinks any place that serves beer is a bar.") == []


def test_record_values_are_not_read_as_clauses() -> None:
    # "reservations: false" is a field for the record rules, not a positive clause
    assert _marked("The restaurant does not offer reservations.", "attributes restaurants reservations: false") == []


def test_too_few_shared_words_is_no_match() -> None:
    assert _marked("The museum is not open on Mondays and holidays.", "The museum hosts concerts on holidays.") == []


def test_a_negation_counts_only_before_a_shared_word() -> None:
    (clause,) = clauses_of(tokenize("The restaurant does not offer reservations", "en"), "en")
    assert negated_over(clause, frozenset({"offer", "reservation"}))
    assert negated_over(clause, frozenset({"restaurant", "reservation"}))  # within reach
    assert not negated_over(clause, frozenset({"restaurant"}))


def test_german_and_chinese_negations() -> None:
    assert _marked("Die Gebühr ist nicht erstattungsfähig.", "Die Gebühr ist erstattungsfähig.", "de") != []
    assert _marked("Die Gebühr ist nicht erstattungsfähig.", "Die Gebühr ist nicht erstattungsfähig.", "de") == []
    assert _marked("该费用不可退还。", "该费用可退还。", "zh-Hans") != []
    assert _marked("该费用不可退还。", "该费用不可退还。", "zh-Hans") == []


def _window_marks(answer: str, source: str, tokenizer, settings: EncoderSettings):  # type: ignore[no-untyped-def]
    view = source_view((source,), "en", tokenizer)
    (w,) = encode_answer(answer, "", view, tokenizer, "en", settings)
    pieces = [tokenizer.id_to_token(i) for i in w.input_ids]
    n = len(w.target_offsets)
    col = settings.features.index("polarity_clash") if "polarity_clash" in settings.features else None
    if col is None:
        return w, [], []
    in_answer = [p for p, f in zip(pieces[1 : 1 + n], w.features[1 : 1 + n]) if f[col]]
    in_evidence = [p for p, f, t in zip(pieces, w.features, w.type_ids) if t == 1 and f[col]]
    return w, in_answer, in_evidence


def test_windows_carry_the_mark_on_answer_and_evidence_pieces(tokenizer) -> None:  # type: ignore[no-untyped-def]
    settings = EncoderSettings(max_len=96, features=FEATURE_NAMES)
    w, answer, evidence = _window_marks("The fee is refundable.", "The fee is not refundable.", tokenizer, settings)
    assert len(w.features[0]) == len(FEATURE_NAMES)
    assert answer == ["fee", "ref", "##unda", "##ble"]
    assert evidence == ["fee", "not", "ref", "##unda", "##ble"]
    _, answer, evidence = _window_marks("The fee is not refundable.", "The fee is not refundable.", tokenizer, settings)
    assert answer == [] and evidence == []


def test_windows_hold_only_the_features_the_settings_name(tokenizer) -> None:  # type: ignore[no-untyped-def]
    base = EncoderSettings(max_len=96)
    full = EncoderSettings(max_len=96, features=FEATURE_NAMES)
    w_base, _, _ = _window_marks("The fee is refundable.", "The fee is not refundable.", tokenizer, base)
    w_full, _, _ = _window_marks("The fee is refundable.", "The fee is not refundable.", tokenizer, full)
    assert base.features == BASE_FEATURES
    assert [f[: len(BASE_FEATURES)] for f in w_full.features] == w_base.features
    picked = EncoderSettings(max_len=96, features=("polarity_clash", "content"))
    w_picked, _, _ = _window_marks("The fee is refundable.", "The fee is not refundable.", tokenizer, picked)
    content = FEATURE_NAMES.index("content")
    assert w_picked.features == [[f[POLARITY], f[content]] for f in w_full.features]


def test_unknown_feature_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown tagger features"):
        EncoderSettings(features=("is_target", "sarcasm"))
