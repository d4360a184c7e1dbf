"""Figures an answer sentence writes another way are read by the verifier in the evidence's words."""

from hallucheck.text.source_forms import written_as_source


def test_an_equal_length_of_time_in_another_unit_takes_the_evidence_words():
    assert written_as_source("Die Lieferung dauert 21 Tage.", "Die Lieferung dauert drei Wochen.", "de") == \
        "Die Lieferung dauert drei Wochen."
    assert written_as_source("La réunion dure 120 minutes.", "La réunion dure deux heures.", "fr") == "La réunion dure deux heures."
    assert written_as_source("The drone flies for up to an hour and a half.", "The drone flies for up to 90 minutes.", "en") == \
        "The drone flies for up to 90 minutes."


def test_an_equal_figure_in_words_takes_the_evidence_digits():
    assert written_as_source("列车每天早上八点出发。", "列车每天上午8点出发。", "zh-Hans") == "列车每天上午8点出发。"
    assert written_as_source("售價為新台幣兩萬五千九百元。", "售價為新台幣25,900元。", "zh-Hant") == "售價為新台幣25,900元。"


def test_a_changed_figure_stays_as_written():
    assert written_as_source("Die Lieferung dauert 14 Tage.", "Die Lieferung dauert drei Wochen.", "de") == \
        "Die Lieferung dauert 14 Tage."
    assert written_as_source("The warranty lasts 18 months.", "The warranty lasts two years.", "en") == "The warranty lasts 18 months."
    assert written_as_source("Revenue was 2 billion dollars.", "Revenue was 1.5 billion dollars.", "en") == "Revenue was 2 billion dollars."


def test_the_half_of_a_figure_and_a_half_is_no_length_of_its_own():
    sentence = "The flight takes two and a half hours."
    assert written_as_source(sentence, "The flight takes 2 hours 30 minutes.", "en") == sentence


def test_no_evidence_leaves_the_sentence():
    assert written_as_source("It takes 21 days.", "", "en") == "It takes 21 days."


def test_a_figure_is_left_alone_where_the_evidence_holds_two_of_its_kind():
    filters = "RO膜滤芯建议每24个月更换一次，活性炭滤芯每12个月更换一次。"
    assert written_as_source("活性炭滤芯每2年换一次。", filters, "zh-Hans") == "活性炭滤芯每2年换一次。"


def test_an_equal_range_of_weekdays_takes_the_evidence_words():
    assert written_as_source("The store is open Mon–Fri.", "The store is open Monday to Friday.", "en") == \
        "The store is open Monday to Friday."
    assert written_as_source("Das Geschäft ist Mo–Fr geöffnet.", "Das Geschäft ist von Montag bis Freitag geöffnet.", "de") == \
        "Das Geschäft ist Montag bis Freitag geöffnet."
    changed = "The store is open Monday through Saturday."
    assert written_as_source(changed, "The store is open Monday to Friday.", "en") == changed
