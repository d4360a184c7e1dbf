"""What holds under every policy: the steps between a policy's verdict and the report.

A policy weighs the findings; these rules keep its verdict honest about what was found and what
was looked at, whichever policy is chosen:

1. Nothing checked, nothing accepted: when no detector produced usable evidence (all failed, or
   the only ones asked for need an LLM that is not configured), the answer goes to review with a
   note, never to accept or reject on no evidence.
2. Floors (:mod:`hallucheck.policies.floors`): precise evidence whose measured precision is high
   enough makes the answer hallucinated, whatever the policy scored. A citation that names a
   source which does not say the cited text (``NEVER_ACCEPTED``) is never accepted even where it
   is no floor: the answer goes to review with the span shown, because the labels that kept it
   from being a floor (English RAGTruth's) do not count a wrong passage number as a
   hallucination, while a reader sent to the wrong source is still misled.
3. A restated answer is not rejected on word order alone (``RESTATED``): when every sentence of
   the answer restates one source sentence (all its content words and figures there, the same
   negations, no swapped sides: :mod:`hallucheck.detectors.model.restated`) and only detectors
   that read word order flagged it (n-gram novelty, ROUGE, the span tagger), a reject goes to
   review with a note. Fitted on answers that copy their sources, those scores take "成立于杭州"
   for a contradiction of "在杭州成立"; of the train and calib answers of the labelled sets whose
   every sentence restates a source sentence, 1.4% are hallucinated beyond a citation marker (a
   swap or a term the rules do not read; ``bench/restated.py``), so such an answer is worth a
   look, not a rejection. Floors and
   the never-accepted kinds come after it and still decide.
4. Entailment is trusted (:mod:`hallucheck.policies.entailment`): where a sentence-pair verifier
   read the answer, word-level marks in the sentences it finds entailed are dropped, and an answer
   left with nothing but entailed sentences and no precise finding is accepted. It runs before the
   floors, so precise evidence still decides.
5. No reject without a span: a rejecting verdict that shows no span goes to review with a note.
6. What was not checked cannot be accepted: when some part of the answer was not read by a
   detector that ran (long answers are read in windows), an accept becomes review and the note
   names the unchecked characters.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import partial

from hallucheck.analysis import CaseAnalysis
from hallucheck.policies.base import Policy, Verdict
from hallucheck.policies.entailment import (
    doubt_accepted,
    no_reject_without_span,
    overrule_names,
    overrule_verdict_names,
    overrules_names,
    reading_thresholds,
    source_read_whole,
    trust_entailment,
)
from hallucheck.policies.floors import FloorTable
from hallucheck.text.language import base_language
from hallucheck.types import Coverage, Finding

__all__ = ["NEVER_ACCEPTED", "WORD_ORDER_ROLES", "StageGuard", "case_thresholds", "english_over_long_sources",
           "final_verdict", "nothing_checked", "merge_coverage", "restated_review", "restatement_matters"]

# Span kinds that keep an answer from being accepted wherever the floor table does not decide them.
NEVER_ACCEPTED: frozenset[str] = frozenset({"misattributed_citation"})
# Detector roles whose evidence is word order and word choice: a restatement looks new to them.
WORD_ORDER_ROLES: frozenset[str] = frozenset({"lexical", "tagger"})


def merge_coverage(findings: Sequence[Finding], answer_chars: int) -> Coverage | None:
    """The characters some detector that ran did not read, or None when every one read everything."""
    partial = [f.coverage for f in findings if f.coverage is not None and f.coverage.unchecked]
    if not partial:
        return None
    unchecked = sorted({(int(a), int(b)) for c in partial for a, b in c.unchecked})
    return Coverage(
        answer_chars=answer_chars,
        checked_chars=min(c.checked_chars for c in partial),
        unchecked=unchecked,
        note="; ".join(dict.fromkeys(c.note for c in partial if c.note)),
    )


def nothing_checked(findings: Sequence[Finding], skipped: Sequence[str] = ()) -> Verdict | None:
    """A review verdict when no finding is usable evidence; None when something was checked."""
    if any(f.usable for f in findings):
        return None
    why = []
    if skipped:
        why.append(f"{', '.join(skipped)} {'needs' if len(skipped) == 1 else 'need'} an LLM backend and none is configured")
    failed = [f.detector for f in findings if f.error]
    if failed:
        why.append(f"{', '.join(failed)} failed")
    idle = [f.detector for f in findings if not f.error and not f.ran]
    if idle:
        why.append(f"{', '.join(idle)} did not run")
    if not findings and not skipped:
        why.append("no detector ran")
    note = "nothing was checked (" + "; ".join(why) + "): the answer needs review"
    return Verdict(hallucinated=False, risk_score=0.0, risk_level="moderate", decision="review", notes=[note])


def _not_accepted(verdict: Verdict, findings: Sequence[Finding]) -> Verdict:
    """An accept turned to review, with the spans shown, when a ``NEVER_ACCEPTED`` span was found."""
    if verdict.decision != "accept":
        return verdict
    held = [s for f in findings if f.usable for s in f.spans if s.kind in NEVER_ACCEPTED]
    if not held:
        return verdict
    what = ", ".join(repr(s.text) for s in held[:5])
    note = f"{str(held[0].kind).replace('_', ' ')} {what}: review instead of accept"
    spans = None if verdict.spans is None else [*verdict.spans, *held]
    return dataclasses.replace(verdict, risk_level="moderate", decision="review", notes=[*verdict.notes, note],
                               spans=spans)


def restatement_matters(findings: Sequence[Finding]) -> bool:
    """Whether rule 3 could turn a reject to review given these findings: only the word-order
    detectors flagged the answer and no finding holds precise evidence (a span of a known kind)."""
    usable = [f for f in findings if f.usable]
    if any(f.flagged and f.role not in WORD_ORDER_ROLES for f in usable):
        return False
    return not any(s.kind is not None for f in usable for s in f.spans)  # else the floor table decides


def restated_review(verdict: Verdict, analysis: CaseAnalysis, findings: Sequence[Finding]) -> Verdict:
    """A reject turned to review when every sentence restates a source sentence and only the
    word-order detectors flagged the answer (rule 3 above); otherwise the verdict unchanged.
    Reads ``analysis.facts.every_sentence_restated``, set before the verdict (:mod:`hallucheck.verdict_facts`)."""
    if verdict.decision != "reject" or not restatement_matters(findings):
        return verdict
    if not analysis.facts.every_sentence_restated:
        return verdict
    note = ("every sentence restates a source sentence (its words and figures there, the same negations, no "
            "swapped sides) and only word-order evidence was against it: review instead of reject")
    # the risk stays in the guideline's moderate tier (level_for: above 0.6 is high)
    return dataclasses.replace(verdict, hallucinated=False, risk_score=min(verdict.risk_score, 0.6), risk_level="moderate",
                               decision="review", notes=[*verdict.notes, note])


# guard(step name, step, verdict before the step) -> the step's verdict, or what stands when it fails
StageGuard = Callable[[str, Callable[[], Verdict], "Verdict | None"], Verdict]


def _unguarded(_name: str, step: Callable[[], Verdict], _before: Verdict | None) -> Verdict:
    return step()


def english_over_long_sources(analysis: CaseAnalysis) -> bool:
    """Whether an answer is English over English sources longer than the verifier reads whole
    (:func:`hallucheck.policies.entailment.source_read_whole`): the verifier's stricter thresholds
    apply there (:func:`hallucheck.policies.entailment.reading_thresholds`)."""
    english = base_language(analysis.language or "en") == "en" and not analysis.cross_lingual
    return english and not source_read_whole([s.text for s in analysis.case.contexts])


def case_thresholds(analysis: CaseAnalysis) -> tuple[float, float]:
    """The (entailed, contradicted) thresholds the verifier's sentence verdicts are read at for this
    case (:func:`hallucheck.policies.entailment.reading_thresholds`)."""
    return reading_thresholds(english_over_long_sources(analysis), overrules_names(analysis.language, analysis.cross_lingual),
                              None if analysis.cross_lingual else base_language(analysis.language or "en"))


def final_verdict(
    policy: Policy,
    analysis: CaseAnalysis,
    findings: list[Finding],
    floors: FloorTable,
    *,
    skipped: Sequence[str] = (),
    coverage: Coverage | None = None,
    guard: StageGuard = _unguarded,
) -> Verdict:
    """The policy's verdict with the rules above applied (in that order); ``guard`` runs each step
    (the Checker's keeps a failing one from sinking the rest)."""
    empty = nothing_checked(findings, skipped)
    if empty is not None:
        return empty
    verdict = guard("policy", partial(policy.decide, analysis, findings), None)
    verdict = guard("restated review", partial(restated_review, verdict, analysis, findings), verdict)
    names_overruled = overrules_names(analysis.language, analysis.cross_lingual)
    if names_overruled:
        # names written another way (policies.entailment.OVERRULED_NAMES)
        verdict = guard("names the verifier overrules", partial(overrule_verdict_names, verdict, findings, analysis.case.answer),
                        verdict)
        findings = overrule_names(findings, analysis.case.answer)
    # English answers over long English sources: the tagger and the policy were fitted on labelled
    # answers there, and the verifier reads only a sentence's best evidence (ENTAILED_ENGLISH)
    english_long = english_over_long_sources(analysis)
    entailed, contradicted = case_thresholds(analysis)
    verdict = guard("entailment", partial(trust_entailment, verdict, findings, analysis.case.answer, keep_marks=english_long,
                                          entailed=entailed, contradicted=contradicted,
                                          restated=analysis.facts.every_sentence_restated), verdict)
    verdict = guard("entailment doubt", partial(doubt_accepted, verdict, findings, analysis.case.answer,
                                                restated=analysis.facts.every_sentence_restated,
                                                entailed=entailed, contradicted=contradicted), verdict)
    verdict = guard("floors", partial(floors.apply, verdict, findings, analysis.language), verdict)
    verdict = guard("never accepted", partial(_not_accepted, verdict, findings), verdict)
    verdict = guard("no reject without a span", partial(no_reject_without_span, verdict, findings), verdict)
    if coverage is not None and coverage.unchecked:
        # named whatever the decision: a rejected answer may hide more in the part not read
        ranges = ", ".join(f"{a}-{b}" for a, b in coverage.unchecked[:5])
        note = f"answer characters {ranges} were not checked" + (f" ({coverage.note})" if coverage.note else "")
        if verdict.decision == "accept":
            verdict = dataclasses.replace(verdict, risk_level="moderate", decision="review",
                                          notes=[*verdict.notes, f"{note}: review instead of accept"])
        else:
            verdict = dataclasses.replace(verdict, notes=[*verdict.notes, note])
    return verdict
