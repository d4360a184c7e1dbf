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
3. What was not checked cannot be accepted: when some part of the answer was not read by a
   detector that ran (long answers are read in windows), an accept becomes review and the note
   names the unchecked characters.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from hallucheck.analysis import CaseAnalysis
from hallucheck.policies.base import Policy, Verdict
from hallucheck.policies.floors import FloorTable
from hallucheck.types import Coverage, Finding

__all__ = ["NEVER_ACCEPTED", "final_verdict", "nothing_checked", "merge_coverage"]

# Span kinds that keep an answer from being accepted wherever the floor table does not decide them.
NEVER_ACCEPTED: frozenset[str] = frozenset({"misattributed_citation"})


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


def final_verdict(
    policy: Policy,
    analysis: CaseAnalysis,
    findings: list[Finding],
    floors: FloorTable,
    *,
    skipped: Sequence[str] = (),
    coverage: Coverage | None = None,
) -> Verdict:
    """The policy's verdict with the rules above applied (in that order)."""
    empty = nothing_checked(findings, skipped)
    if empty is not None:
        return empty
    verdict = policy.decide(analysis, findings)
    verdict = floors.apply(verdict, findings, analysis.language)
    verdict = _not_accepted(verdict, findings)
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
