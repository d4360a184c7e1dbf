"""Verdicts that trust entailment: word-level marks in entailed sentences go, precise ones stay."""

from hallucheck.policies.base import Verdict
from hallucheck.policies.entailment import (
    CONTRADICTED,
    CONTRADICTED_CHINESE,
    CONTRADICTED_ENGLISH,
    ENTAILED,
    ENTAILED_CHINESE,
    ENTAILED_ENGLISH,
    no_reject_without_span,
    reading_thresholds,
    trust_entailment,
)
from hallucheck.types import Evidence, Finding, SentenceVerdict, Span

ANSWER = "It was founded in Paris in 2010. It employs 45 people."
S1 = (0, 32)
S2 = (33, len(ANSWER))


def _span(start, end, label="baseless", detector="model", kind=None):
    return Span(start=start, end=end, text=ANSWER[start:end], label=label, score=0.9, detector=detector, kind=kind)


def _verifier(*rows):
    verdicts = [SentenceVerdict(start=s, end=e, entailment=ent, neutral=round(1 - ent - con, 4), contradiction=con,
                                evidence=[Evidence(source_id="1", text="source sentence")])
                for (s, e), ent, con in rows]
    return Finding(detector="nli", role="entailment", risk=0.5, sentence_verdicts=verdicts)


def _reject(spans):
    return Verdict(hallucinated=True, risk_score=0.8, risk_level="high", decision="reject", spans=spans)


def test_every_sentence_entailed_and_only_word_marks_is_accepted():
    tagger = Finding(detector="model", role="tagger", risk=0.8, spans=[_span(18, 23)])
    v = trust_entailment(_reject([_span(18, 23)]), [tagger, _verifier((S1, 0.95, 0.01), (S2, 0.9, 0.02))], ANSWER)
    assert v.decision == "accept" and not v.hallucinated and v.spans == []
    assert v.risk_score <= 0.29
    assert any("entailed" in n for n in v.notes)


def test_precise_span_is_kept_and_blocks_the_accept():
    figure = _span(44, 46, label="contradiction", detector="numbers", kind="contradicted_figure")
    facts = Finding(detector="numbers", role="facts", risk=0.9, spans=[figure])
    v = trust_entailment(_reject([figure, _span(0, 10)]), [facts, _verifier((S1, 0.95, 0.01), (S2, 0.95, 0.01))], ANSWER)
    assert v.decision == "reject"
    assert figure in v.spans
    assert all(s.kind is not None for s in v.spans)


def test_sentence_not_entailed_keeps_its_marks_and_gets_the_verifier_span_where_none():
    kept = trust_entailment(_reject([_span(40, 45)]), [_verifier((S1, 0.9, 0.01), (S2, 0.1, 0.85))], ANSWER)
    assert [(s.start, s.end) for s in kept.spans] == [(40, 45)]  # a word-level mark left: no sentence span added
    v = trust_entailment(_reject([_span(0, 10)]), [_verifier((S1, 0.9, 0.01), (S2, 0.1, 0.85))], ANSWER)
    assert v.decision == "reject"
    labels = {(s.start, s.end): s.label for s in v.spans}
    assert (0, 10) not in labels  # inside an entailed sentence: dropped
    assert labels[S2] == "contradiction"
    added = next(s for s in v.spans if (s.start, s.end) == S2)
    assert added.evidence and added.evidence[0].relation == "contradicts"


def test_speculation_phrase_is_kept_in_an_entailed_sentence():
    spec = _span(3, 6, label="speculation", detector="lexicon")
    v = trust_entailment(_reject([spec]), [_verifier((S1, 0.95, 0.01), (S2, 0.95, 0.01))], ANSWER)
    assert v.decision == "reject" and spec in v.spans


def test_without_a_verifier_finding_nothing_changes():
    verdict = _reject([_span(0, 10)])
    assert trust_entailment(verdict, [Finding(detector="model", role="tagger", risk=0.9)], ANSWER) is verdict


def test_reject_without_a_span_becomes_review():
    v = no_reject_without_span(_reject([]), [Finding(detector="ngram", role="lexical", risk=0.9)])
    assert v.decision == "review" and v.risk_level == "high" and v.risk_score == 0.8
    assert any("no span" in n for n in v.notes)
    kept = _reject([_span(0, 4)])
    assert no_reject_without_span(kept, []) is kept


def test_an_accept_is_doubted_where_the_verifier_reads_a_sentence_as_not_said():
    from hallucheck.policies.entailment import doubt_accepted

    accept = Verdict(hallucinated=False, risk_score=0.1, risk_level="low", decision="accept", spans=[])
    doubted = doubt_accepted(accept, [_verifier((S1, 0.9, 0.02), (S2, 0.05, 0.9))], ANSWER)
    assert doubted.decision == "review" and [(s.start, s.end, s.label) for s in doubted.spans] == [(*S2, "contradiction")]
    sure = doubt_accepted(accept, [_verifier((S1, 0.9, 0.02), (S2, 0.5, 0.3))], ANSWER)
    assert sure is accept
    assert doubt_accepted(_reject([]), [_verifier((S1, 0.05, 0.9))], ANSWER).decision == "reject"


def test_keep_marks_leaves_a_flagged_answer_its_marks_and_still_clears_a_wholly_entailed_one():
    marks = [_span(0, 10), _span(40, 45)]
    flagged = trust_entailment(_reject(marks), [_verifier((S1, 0.9, 0.01), (S2, 0.1, 0.85))], ANSWER, keep_marks=True)
    assert flagged.spans == marks
    cleared = trust_entailment(_reject(marks), [_verifier((S1, 0.9, 0.01), (S2, 0.9, 0.05))], ANSWER, keep_marks=True)
    assert cleared.decision == "accept"


def test_a_mark_over_two_entailed_sentences_is_dropped_but_not_one_reaching_a_sentence_not_entailed():
    over_both = _span(10, 50)
    tagger = Finding(detector="model", role="tagger", risk=0.8, spans=[over_both])
    cleared = trust_entailment(_reject([over_both]), [tagger, _verifier((S1, 0.95, 0.01), (S2, 0.9, 0.02))], ANSWER)
    assert cleared.decision == "accept" and cleared.spans == []
    kept = trust_entailment(_reject([over_both]), [tagger, _verifier((S1, 0.95, 0.01), (S2, 0.1, 0.1))], ANSWER)
    assert kept.decision == "reject" and over_both in kept.spans


def test_a_short_source_is_read_whole_and_a_long_one_is_not():
    from hallucheck.policies.entailment import WHOLE_SOURCE_PIECES, source_read_whole

    assert source_read_whole(["Paris is the capital of France."])
    assert source_read_whole(["巴黎是法国的首都。", "It has 2 million people."])
    assert not source_read_whole(["word " * (WHOLE_SOURCE_PIECES * 2)])
    assert not source_read_whole(["巴" * (WHOLE_SOURCE_PIECES + 1)])


ZH = "这部电影由雷恩·葛斯林主演。汤姆·布朗 (Thom Browne) 和汤姆·克鲁斯也来了。"
ZH_S1, ZH_S2 = (0, ZH.index("。") + 1), (ZH.index("。") + 1, len(ZH))


def _zh_name(text):
    start = ZH.index(text)
    return Span(start=start, end=start + len(text), text=text, label="baseless", score=0.9, detector="numbers",
                kind="unknown_name")


def _zh_verifier(ent1, ent2, evidence="这部由瑞恩·高斯林主演的电影。汤姆·布朗也来了。"):
    return Finding(detector="nli", role="entailment", risk=0.5, sentence_verdicts=[
        SentenceVerdict(start=a, end=b, entailment=e, neutral=round(1 - e, 4), contradiction=0.0,
                        evidence=[Evidence(source_id="1", text=evidence)]) for (a, b), e in ((ZH_S1, ent1), (ZH_S2, ent2))])


def test_a_name_written_another_way_in_an_entailed_sentence_becomes_a_word_mark_and_goes():
    from hallucheck.policies.entailment import overrule_names, overrule_verdict_names

    names = [_zh_name("雷恩·葛斯林"), _zh_name("Thom Browne")]
    facts = Finding(detector="numbers", role="facts", risk=0.9, spans=names)
    findings = overrule_names([facts, _zh_verifier(0.95, 0.95)], ZH)
    assert [s.kind for s in findings[0].spans] == [None, None]
    assert "written another way" in (findings[0].spans[0].reason or "")
    verdict = overrule_verdict_names(_reject(names), [facts, _zh_verifier(0.95, 0.95)], ZH)
    assert [s.kind for s in verdict.spans or []] == [None, None]
    assert trust_entailment(verdict, findings, ZH).decision == "accept"


def test_a_swapped_name_or_one_below_the_names_bar_stays_precise():
    from hallucheck.policies.entailment import overrule_names

    swapped, spelled = _zh_name("汤姆·克鲁斯"), _zh_name("雷恩·葛斯林")
    facts = Finding(detector="numbers", role="facts", risk=0.9, spans=[spelled, swapped])
    kept = overrule_names([facts, _zh_verifier(0.95, 0.97)], ZH)
    assert [s.kind for s in kept[0].spans] == [None, "unknown_name"]  # 汤姆·克鲁斯 shares one character of five
    kept = overrule_names([facts, _zh_verifier(0.85, 0.97)], ZH)
    assert kept[0].spans[0].kind == "unknown_name"


def test_a_chinese_name_without_a_dot_is_never_read_as_spelled_another_way():
    from hallucheck.policies.entailment import overrule_names

    answer = "张强主演了这部电影。"
    name = Span(start=0, end=2, text="张强", label="baseless", score=0.9, detector="numbers", kind="unknown_name")
    verifier = Finding(detector="nli", role="entailment", risk=0.1, sentence_verdicts=[
        SentenceVerdict(start=0, end=len(answer), entailment=0.97, neutral=0.03, contradiction=0.0,
                        evidence=[Evidence(source_id="1", text="张伟主演了这部电影。")])])
    facts = Finding(detector="numbers", role="facts", risk=0.9, spans=[name])
    assert overrule_names([facts, verifier], answer)[0].spans[0].kind == "unknown_name"


def test_english_over_long_sources_reads_at_the_stricter_thresholds():
    """A sentence the verifier is unsure of (entailment 0.5, contradiction 0.4) clears its marks
    at the default thresholds, not at the English-over-long-sources ones."""
    assert reading_thresholds(False) == (ENTAILED, CONTRADICTED)
    assert reading_thresholds(True) == (ENTAILED_ENGLISH, CONTRADICTED_ENGLISH)
    assert reading_thresholds(False, other_script=True) == (ENTAILED_CHINESE, CONTRADICTED_CHINESE)
    unsure = [_verifier((S1, 0.95, 0.01), (S2, 0.5, 0.4))]
    assert trust_entailment(_reject([_span(40, 45)]), unsure, ANSWER).decision == "accept"
    strict = trust_entailment(_reject([_span(40, 45)]), unsure, ANSWER, entailed=ENTAILED_ENGLISH, contradicted=CONTRADICTED_ENGLISH)
    assert strict.decision == "reject"
    # fairly sure it is not said: not entailed at the default thresholds either
    for ent, con in ((ENTAILED - 0.05, 0.1), (0.3, CONTRADICTED)):
        v = trust_entailment(_reject([_span(40, 45)]), [_verifier((S1, 0.95, 0.01), (S2, ent, con))], ANSWER)
        assert v.decision == "reject"


def test_a_precise_finding_inside_a_dropped_mark_is_shown_itself():
    """The verdict showed a name the sources lack only inside a wider word-level mark; the mark
    goes with its entailed sentence, the precise finding stays on show."""
    wide, name = _span(33, 45), _span(43, 45, detector="numbers", kind="unknown_name")
    facts = Finding(detector="numbers", role="facts", risk=0.9, spans=[name])
    v = trust_entailment(_reject([wide]), [facts, _verifier((S1, 0.95, 0.01), (S2, 0.9, 0.02))], ANSWER)
    assert v.decision == "reject" and v.spans == [name]


def test_a_language_with_thresholds_of_its_own_reads_same_language_answers_at_them():
    """German, French and Chinese answers over sources in their own language are read at the
    thresholds their calib pairs chose; over sources in another language, or English over long
    sources, the shared ones still apply."""
    from hallucheck.policies.entailment import LANGUAGE_THRESHOLDS

    for lang, pair in LANGUAGE_THRESHOLDS.items():
        assert reading_thresholds(False, other_script=lang == "zh", language=lang) == pair
    assert reading_thresholds(False, other_script=True, language=None) == (ENTAILED_CHINESE, CONTRADICTED_CHINESE)
    assert reading_thresholds(False, language="en") == (ENTAILED, CONTRADICTED)
    assert reading_thresholds(True, language="en") == (ENTAILED_ENGLISH, CONTRADICTED_ENGLISH)


def test_the_doubt_is_never_stricter_than_the_reading_thresholds():
    """A sentence counted as entailed at lenient thresholds (entailment 0.12 >= 0.1) is not doubted
    the step after at the default doubt (below 0.15); at the default thresholds it is."""
    from hallucheck.policies.entailment import DOUBT_ENTAILED, doubt_accepted

    accept = Verdict(hallucinated=False, risk_score=0.1, risk_level="low", decision="accept", spans=[])
    unsure = [_verifier((S1, 0.9, 0.02), (S2, 0.12, 0.1))]
    assert 0.1 < 0.12 < DOUBT_ENTAILED
    assert doubt_accepted(accept, unsure, ANSWER).decision == "review"
    assert doubt_accepted(accept, unsure, ANSWER, entailed=0.1, contradicted=0.7) is accept
    contradicted = [_verifier((S1, 0.9, 0.02), (S2, 0.3, 0.65))]
    assert doubt_accepted(accept, contradicted, ANSWER, entailed=0.1, contradicted=0.7) is accept
    assert doubt_accepted(accept, contradicted, ANSWER, entailed=0.2, contradicted=0.5).decision == "review"
