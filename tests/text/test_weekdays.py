"""Weekday ranges, words for the working week and named days, read as sets of days."""

from __future__ import annotations

import pytest

from hallucheck.text.weekdays import find_weekdays, same_days

MON_FRI = frozenset(range(5))
MON_SAT = frozenset(range(6))


@pytest.mark.parametrize(("text", "found"), [
    ("Open Monday to Friday.", "Monday to Friday"),
    ("Open Monday through Friday.", "Monday through Friday"),
    ("Open Mondays to Fridays.", "Mondays to Fridays"),
    ("Open Mon–Fri.", "Mon–Fri"),
    ("Open Mon-Fri, 9-5.", "Mon-Fri"),
    ("Open on weekdays.", "weekdays"),
    ("Open every weekday.", "every weekday"),
    ("Geöffnet Montag bis Freitag.", "Montag bis Freitag"),
    ("Geöffnet Mo–Fr.", "Mo–Fr"),
    ("Geöffnet Mo.-Fr. 9-17 Uhr.", "Mo.-Fr"),  # a last full stop may end the sentence
    ("Ouvert du lundi au vendredi.", "lundi au vendredi"),
    ("Ouvert de lundi à vendredi.", "lundi à vendredi"),
    ("Ouvert lun.-ven.", "lun.-ven"),
    ("Ouvert en semaine.", "en semaine"),
    ("Ouvert les jours ouvrés.", "les jours ouvrés"),
    ("周一至周五营业。", "周一至周五"),
    ("週一至週五營業。", "週一至週五"),
    ("星期一到星期五营业。", "星期一到星期五"),
    ("周一至五营业。", "周一至五"),
    ("工作日营业。", "工作日"),
])
def test_monday_to_friday_in_every_form(text: str, found: str) -> None:
    ranges = [w for w in find_weekdays(text) if not w.single]
    assert [w.text for w in ranges] == [found]
    assert text[ranges[0].start:ranges[0].end] == found
    assert ranges[0].readings[0] == MON_FRI


def test_words_with_two_readings_keep_both() -> None:
    for text in ("Geöffnet werktags.", "Geöffnet an Werktagen.", "Ouvert les jours ouvrables."):
        (w,) = find_weekdays(text)
        assert set(w.readings) == {MON_FRI, MON_SAT}, text
    werktags, mo_sa, mo_fr = (find_weekdays(t)[0] for t in ("werktags", "Mo–Sa", "Montag bis Freitag"))
    assert same_days(werktags, mo_sa) and same_days(werktags, mo_fr) and not same_days(mo_sa, mo_fr)


def test_other_ranges_and_single_days() -> None:
    assert find_weekdays("Friday to Monday")[0].readings == (frozenset({4, 5, 6, 0}),)
    assert find_weekdays("Di-Do")[0].readings == (frozenset({1, 2, 3}),)
    assert find_weekdays("周二至周六")[0].readings == (frozenset(range(1, 6)),)
    days = find_weekdays("Open Monday, Wednesday and Friday; 星期日休息。")
    assert [(w.text, w.single) for w in days] == [("Monday", True), ("Wednesday", True), ("Friday", True), ("星期日", True)]


@pytest.mark.parametrize("text", [
    "Refunds take 5 weekdays.", "Rückerstattung in 5 Werktagen.", "3-5个工作日到账。", "5個工作日內退款。",
    "每周一次。", "I do so - so do you.", "so-so", "工作日志", "Mon ami est là.",
])
def test_counts_of_days_and_words_are_no_range(text: str) -> None:
    assert [w for w in find_weekdays(text) if not w.single] == []
