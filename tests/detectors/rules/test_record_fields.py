"""Yes/no fields of record sources, and answers that state their opposite."""

from __future__ import annotations

import pytest

from hallucheck import Case
from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.opposites import OppositesDetector
from hallucheck.detectors.rules.record_fields import yes_no_fields

RECORD = ("{'name': 'Casa Azul', 'city': 'Goleta', 'attributes': {'RestaurantsGoodForGroups': 'True', "
          "'RestaurantsReservations': 'False', 'RestaurantsTakeOut': 'True', 'WiFi': \"u'no'\", "
          "'BusinessParking': {'garage': False, 'street': True, 'lot': False}}}")


def _fields(answer: str) -> list[tuple[str, str]]:
    finding = OppositesDetector().detect(CaseAnalysis(Case(question="Describe it.", contexts=[RECORD], answer=answer,
                                                           task="data2txt")))
    return [(s.text, s.evidence[0].text) for s in finding.spans if s.kind == "contradicted_field"]


def test_yes_no_fields_are_read_with_the_words_that_name_them() -> None:
    fields = {f.text: f for f in yes_no_fields(RECORD, "en")}
    assert fields["attributes restaurants good for groups: True"].value is True
    assert "group" in fields["attributes restaurants good for groups: True"].names
    assert fields["attributes restaurants take out: True"].names >= {"takeout", "take-out"}
    assert fields["attributes wi fi: u'no'"].value is False
    assert fields["attributes business parking street: true"].value is True


@pytest.mark.parametrize(
    ("answer", "text", "field"),
    [
        ("Casa Azul is not suitable for groups.", "not suitable for groups", "good for groups: True"),
        ("Casa Azul takes reservations for dinner.", "takes reservations", "reservations: False"),
        ("It offers free WiFi to its guests.", "offers free wifi", "wi fi"),
        ("Street parking is not available near Casa Azul.", "Street", "parking street: true"),
        ("The restaurant offers garage parking for its guests.", "offers garage", "parking garage: false"),
        ("It's also a bad place for groups and offers takeout.", "groups", "good for groups: True"),
        ("The parking options exclude street parking.", "street", "parking street: true"),
    ],
)
def test_a_sentence_that_says_the_opposite_of_a_field(answer: str, text: str, field: str) -> None:
    got = _fields(answer)
    assert len(got) == 1
    assert text.lower() in got[0][0].lower() and field in got[0][1]


@pytest.mark.parametrize(
    "answer",
    [
        "Casa Azul is good for groups and offers takeout, but it does not take reservations.",
        "There is no garage, lot or valet parking, but street parking is available.",
        "It does not offer WiFi.",
        # a name that happens to be a field's word
        "Casa Azul on Main Street is a family restaurant.",
        # a negation of another noun after the field
        "Casa Azul is good for groups, with no reservations needed.",
        # an opposite word negated: it affirms the field
        "Casa Azul is not bad for groups.",
        "The parking options do not exclude street parking.",
        # an opposite word about something else than the field
        "The coffee was bad, but the place is good for groups.",
    ],
)
def test_sentences_that_agree_with_the_record(answer: str) -> None:
    assert _fields(answer) == []
