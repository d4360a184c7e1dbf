"""The opposites lexicon and the alignment symbols with explicit negations."""

from __future__ import annotations

import pytest

from hallucheck.text.opposites import NEG, OPPOSITES, PREFIXES, are_opposites, opposite_candidates, polarity_symbols
from hallucheck.text.tokens import tokenize


@pytest.mark.parametrize(
    ("a", "b"),
    [("increase", "decrease"), ("rose", "fell"), ("available", "unavailable"), ("legal", "illegal"),
     ("possible", "impossible"), ("connect", "disconnect"), ("toxic", "non-toxic"), ("aktiviert", "deaktiviert"),
     ("activer", "désactiver"), ("启用", "禁用"), ("always", "never")],
)
def test_opposites(a: str, b: str) -> None:
    assert are_opposites(a, b) and are_opposites(b, a)


@pytest.mark.parametrize(("a", "b"), [("valuable", "invaluable"), ("form", "inform"), ("cover", "discover"), ("big", "big"),
                                      ("large", "huge")])
def test_not_opposites(a: str, b: str) -> None:
    assert not are_opposites(a, b)


def test_a_word_is_compared_with_the_other_words_lemma_too() -> None:
    # "rose" may be read as the flower (lemma "rose"); "falls" has the lemma "fall"
    assert are_opposites("rose", "falls", "rose", "fall")
    assert are_opposites("falls", "rose", "fall", "rose")
    assert not are_opposites("rose", "rises", "rose", "rise")


@pytest.mark.parametrize(("a", "b"), [("grew", "fell"), ("robust", "weak"), ("stieg", "fiel"), ("augmenté", "baissé"),
                                      ("强劲", "疲软"), ("增长", "下滑")])
def test_rise_and_fall_in_every_language(a: str, b: str) -> None:
    assert are_opposites(a, b) and are_opposites(b, a)


@pytest.mark.parametrize(
    ("text", "language", "forms"),
    [
        ("It doesn't take cards", "en", ["it", NEG, "take", "card"]),
        ("It can't run", "en", ["it", "can", NEG, "run"]),
        ("Das ist kein Problem", "de", ["der", "sein", NEG, "ein", "problem"]),
        ("Il n'est pas là", "fr", ["il", NEG, "être", "là"]),
        ("未来不能安装", "zh-Hans", ["未", "来", NEG, "能", "安", "装"]),
        ("无法安装", "zh-Hans", [NEG, "能", "安", "装"]),
        # "keine" is a negation and the article "ein" (its lemma, as a source's "eine" reads)
        ("Sie haben keine Garantie", "de", ["sie", "haben", NEG, "ein", "garantie"]),
        # one French negation, however many of its words: "n'a aucune", "aucun … n'est", "ne … plus"
        ("Ils n'ont aucune garantie", "fr", ["lui", NEG, "avoir", "un", "garantie"]),
        ("Aucun frais n'est facturé", "fr", [NEG, "un", "frais", "être", "facturé"]),
        ("Il n'est plus disponible", "fr", ["il", NEG, "être", "disponible"]),
        # "plus" without "ne" is "more", "ne … que" is "only": no negation
        ("Il y a plus de place", "fr", ["il", "y", "avoir", "plus", "de", "place"]),
        ("Il n'a que deux enfants", "fr", ["il", "avoir", "que", "deux", "enfant"]),
        # "no longer", "noch nicht", 不再, 尚未: the time word is part of the negation; "nicht mehr als" compares
        ("It no longer runs", "en", ["it", NEG, "run"]),
        ("Es läuft noch nicht", "de", ["es", "laufen", NEG]),
        ("nicht mehr als zehn", "de", [NEG, "mehr", "als", "zehn"]),
        ("kann nicht mehr Daten speichern", "de", ["können", NEG, "mehr", "daten", "speichern"]),
        ("不再支持", "zh-Hans", [NEG, "支", "持"]),
        ("尚未发布", "zh-Hans", [NEG, "发", "布"]),
        # a clause break ends a negation: the next clause's "ne" negates again
        ("Ce n'est jamais le cas, personne ne le sait", "fr", ["ce", NEG, "être", "le", "cas", "|", "personne", NEG, "le", "savoir"]),
    ],
)
def test_polarity_symbols_make_negations_explicit(text: str, language: str, forms: list[str]) -> None:
    assert [s.form for s in polarity_symbols(tokenize(text, language), language)] == forms


def test_opposite_candidates_hold_exactly_the_words_are_opposites_reads_as_opposites() -> None:
    # Every lexicon word, each with and without a negating prefix, and words the prefix rule must
    # leave alone: a word pair is opposite exactly when one side's word or lemma is a candidate of
    # the other's, which is what lets a sentence be read against another by set lookups.
    words = sorted({w for w in OPPOSITES if w.isascii()})[:250] + ["available", "unavailable", "invaluable", "valuable",
                                                                   "able", "unable", "legal", "illegal", "inside", "side"]
    words += [p + w for w in words[:60] for p in PREFIXES[:4]]
    lemmas = {w: (w[:-1] if w.endswith("s") else w) for w in words}
    for a in words:
        for b in words:
            expected = are_opposites(a, b, lemmas[a], lemmas[b])
            cands = opposite_candidates(a, lemmas[a])
            assert expected == (a != b and bool({b, lemmas[b]} & cands)), (a, b)


@pytest.mark.parametrize(("a", "b"), [("démontre", "montre"), ("détient", "tient"), ("démontrent", "montrent")])
def test_a_french_de_that_negates_nothing(a: str, b: str) -> None:
    assert not are_opposites(a, b)
    assert b not in opposite_candidates(a) and a not in opposite_candidates(b)


def test_a_french_de_that_negates_stays() -> None:
    assert are_opposites("défaire", "faire")
