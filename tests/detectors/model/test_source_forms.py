"""Figures an answer sentence writes another way are read by the verifier in the evidence's words."""

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.model.source_forms import written_as_source
from hallucheck.types import Case


def _read(answer: str, source: str, premise: str | None = None) -> str:
    """The answer (one sentence) as the verifier reads it over ``premise`` (default: the source)."""
    analysis = CaseAnalysis(Case(contexts=[source], answer=answer))
    return written_as_source(analysis, 0, answer, source if premise is None else premise)


def test_an_equal_length_of_time_in_another_unit_takes_the_evidence_words():
    assert _read("Die Lieferung dauert 21 Tage.", "Die Lieferung dauert drei Wochen.") == "Die Lieferung dauert drei Wochen."
    assert _read("La réunion dure 120 minutes.", "La réunion dure deux heures.") == "La réunion dure deux heures."
    assert _read("The drone flies for up to an hour and a half.", "The drone flies for up to 90 minutes.") == \
        "The drone flies for up to 90 minutes."


def test_an_equal_figure_in_words_takes_the_evidence_digits():
    assert _read("列车每天早上八点出发。", "列车每天上午8点出发。") == "列车每天上午8点出发。"
    assert _read("售價為新台幣兩萬五千九百元。", "售價為新台幣25,900元。") == "售價為新台幣25,900元。"


def test_a_changed_figure_stays_as_written():
    assert _read("Die Lieferung dauert 14 Tage.", "Die Lieferung dauert drei Wochen.") == "Die Lieferung dauert 14 Tage."
    assert _read("The warranty lasts 18 months.", "The warranty lasts two years.") == "The warranty lasts 18 months."
    assert _read("Revenue was 2 billion dollars.", "Revenue was 1.5 billion dollars.") == "Revenue was 2 billion dollars."


def test_the_half_of_a_figure_and_a_half_is_no_length_of_its_own():
    sentence = "The flight takes two and a half hours."
    assert _read(sentence, "The flight takes 2 hours 30 minutes.") == sentence


def test_no_evidence_leaves_the_sentence():
    assert _read("It takes 21 days.", "It takes three weeks.", premise="") == "It takes 21 days."


def test_a_figure_is_left_alone_where_the_evidence_holds_two_of_its_kind():
    filters = "RO膜滤芯建议每24个月更换一次，活性炭滤芯每12个月更换一次。"
    assert _read("活性炭滤芯每2年换一次。", filters) == "活性炭滤芯每2年换一次。"


def test_an_equal_range_of_weekdays_takes_the_evidence_words():
    assert _read("The store is open Mon–Fri.", "The store is open Monday to Friday.") == "The store is open Monday to Friday."
    assert _read("Das Geschäft ist Mo–Fr geöffnet.", "Das Geschäft ist von Montag bis Freitag geöffnet.") == \
        "Das Geschäft ist Montag bis Freitag geöffnet."
    changed = "The store is open Monday through Saturday."
    assert _read(changed, "The store is open Monday to Friday.") == changed
