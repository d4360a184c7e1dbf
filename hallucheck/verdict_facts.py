"""Facts about a case that the verdict's safeguards read, computed after the detectors ran and
before the policy decides, so that no policy calls detector code.

Today one fact: whether every answer sentence restates a source sentence
(:func:`hallucheck.detectors.model.restated.every_sentence_restated`), which
:func:`hallucheck.policies.safeguards.restated_review` reads. It is computed only when the findings
leave that rule something to decide (:func:`hallucheck.policies.safeguards.restatement_matters`),
or when the verifier read the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.model.restated import every_sentence_restated
from hallucheck.policies.safeguards import restatement_matters
from hallucheck.types import Finding

__all__ = ["settle_facts"]


def settle_facts(analysis: CaseAnalysis, findings: Sequence[Finding]) -> None:
    """Set the facts on ``analysis`` that the safeguards will read for these findings: also when a
    verifier read the answer, as a restated answer is not doubted on the verifier's word
    (:func:`hallucheck.policies.entailment.doubt_accepted`)."""
    verified = any(f.usable and f.sentence_verdicts is not None for f in findings)
    if analysis.facts.every_sentence_restated is None and (verified or restatement_matters(findings)):
        analysis.facts.every_sentence_restated = every_sentence_restated(analysis)
