"""Minimal pairs: a source sentence against itself with one meaning-changing edit, both ways,
and each side against itself."""

from __future__ import annotations

import random

from hallucheck.train.pair_data import PAIR_LABELS
from hallucheck.train.pair_minimal import minimal_pairs, negate_past


def test_a_past_tense_verb_is_negated_in_the_forms_people_write() -> None:
    sentence = "The council approved the new bridge plan in March."
    got = {negate_past(sentence, random.Random(seed))[0] for seed in range(20)}  # type: ignore[index]
    assert got == {
        "The council did not approve the new bridge plan in March.",
        "The council didn't approve the new bridge plan in March.",
        "The council never approved the new bridge plan in March.",
    }
    assert negate_past("He went home early.", random.Random(0))[0] in (  # type: ignore[index]
        "He did not go home early.", "He didn't go home early.", "He never went home early.")


def test_participles_and_adjectives_are_no_verb_to_negate() -> None:
    for sentence in ("The plan was approved in March.", "The approved plan starts in May.", "Nothing happened."):
        assert negate_past(sentence, random.Random(0)) is None, sentence


def test_each_premise_gives_two_contradictions_and_two_copies() -> None:
    sentences = ["The station is not open on Sundays during the winter months.", "Trains run every hour."]
    pairs = list(minimal_pairs(sentences, "en", "g", random.Random(1), per_source=1))
    assert [PAIR_LABELS[p.label] for p in pairs] == ["contradiction", "contradiction", "entailment", "entailment"]
    p, h = pairs[0].hypothesis, pairs[1].hypothesis
    assert p != h and {p, h} == {pairs[2].hypothesis, pairs[3].hypothesis}
    assert pairs[0].premise.startswith(h) and pairs[1].premise.startswith(p)
    assert all(x.language == "en" and x.group == "g" and x.kind.startswith("minimal:") for x in pairs)


def test_chinese_sentences_get_the_generators_edits_and_unknown_languages_none() -> None:
    pairs = list(minimal_pairs(["该服务默认允许远程登录，但需要先安装软件包。"], "zh-Hans", "g", random.Random(0)))
    assert len(pairs) == 4 and pairs[0].hypothesis != pairs[2].hypothesis
    assert list(minimal_pairs(["El servicio permite el acceso remoto por defecto."], "es", "g", random.Random(0))) == []
