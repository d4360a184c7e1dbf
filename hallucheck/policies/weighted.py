"""Weighted fusion (production pipeline guide): three roles weighted 0.35 / 0.40 / 0.25, severity cut-offs.

Roles and the kinds of evidence (``Finding.role``) that fill them (configurable with ``roles``):

- ``self_consistency`` (0.35): sampling (the self_consistency detector).
- ``factual_grounding`` (0.40): citations, phrases, facts, lexical, semantic, tagger,
  knowledge, llm_judge, claims — everything that compares the answer with evidence.
- ``nli_consistency`` (0.25): entailment, consistency.

A role's score combines the risks of its detectors that ran (``combine``). The default,
"alarm_mean", is ``max(mean of the graded detectors, max of the alarm detectors)``: graded
detectors (lexical, semantic, tagger, entailment, ...) score every answer on a continuous scale
and are averaged; alarm detectors (citations, phrases, facts and the LLM judges) say nothing
until they find specific evidence — an invalid citation, a contradicted number, a claim the
judge calls unsupported — and then their risk stands on its own instead of being averaged away
by silent neighbours. Also available: "max", "mean", "noisy_or". Roles with no detector are
dropped and the remaining weights renormalised (the production pipeline guide's ``total_weight``), so with only the
cheap default stack the score is the grounding role's score.

Measured on 2000 answers of the RAGTruth train part (bench/policies_train.py,
default detectors citations, lexicon, numbers, ngram, overlap): "alarm_mean" rejected 38% of
answers (44% are hallucinated) at precision 0.71, recall 0.62, and accepted 15%; a plain mean
rejected almost none (the silent rule detectors pull it down); a plain max rejected 47% at
precision 0.67 and ranked answers worse (AUROC 0.76 against 0.77). Severity of the weighted score: ≥ 0.8 critical, ≥ 0.6 high,
≥ 0.35 medium, otherwise low. Critical and high are hallucinated (level high, reject); medium
is level moderate (review); low is accept. The production pipeline guide's severity name is given in the notes.

``escalate``: the cheap layers are taken as conclusive when the score is already critical
(≥ ``settle_above``, 0.8) or very low (≤ ``settle_below``, 0.1); in between the next layer runs.
(A later role could still move a settled score, because the weights renormalise; the settle
points trade that for cost.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Literal

from hallucheck.analysis import CaseAnalysis
from hallucheck.policies.base import Verdict
from hallucheck.policies.signals import failed_notes, usable
from hallucheck.types import Finding, RiskLevel, Role

__all__ = ["WeightedPolicy", "WEIGHTS", "ROLES", "ALARMS", "Severity", "severity_for", "fuse"]

Severity = Literal["critical", "high", "medium", "low"]
Combine = Literal["alarm_mean", "max", "mean", "noisy_or"]

WEIGHTS: dict[str, float] = {"self_consistency": 0.35, "factual_grounding": 0.40, "nli_consistency": 0.25}
ROLES: dict[str, tuple[Role, ...]] = {
    "self_consistency": ("sampling",),
    "factual_grounding": (
        "citations",
        "phrases",
        "facts",
        "lexical",
        "semantic",
        "tagger",
        "knowledge",
        "llm_judge",
        "claims",
    ),
    "nli_consistency": ("entailment", "consistency"),
}
# Kinds of evidence that stay silent (risk 0) until they find something specific.
ALARMS: frozenset[Role] = frozenset({"citations", "phrases", "facts", "llm_judge", "knowledge", "claims"})
_LEVEL: dict[str, RiskLevel] = {"critical": "high", "high": "high", "medium": "moderate", "low": "low"}


def severity_for(score: float, critical: float = 0.8, high: float = 0.6, medium: float = 0.35) -> Severity:
    """The production pipeline guide's severity cut-offs (inclusive: exactly 0.6 is high)."""
    if score >= critical:
        return "critical"
    if score >= high:
        return "high"
    if score >= medium:
        return "medium"
    return "low"


def _combine(risks: Sequence[float], how: Combine, alarms: Sequence[bool] | None = None) -> float:
    if how == "alarm_mean":
        flags = alarms if alarms is not None else [False] * len(risks)
        graded = [r for r, a in zip(risks, flags) if not a]
        loud = [r for r, a in zip(risks, flags) if a]
        return max(sum(graded) / len(graded) if graded else 0.0, max(loud, default=0.0))
    if how == "max":
        return max(risks)
    if how == "mean":
        return sum(risks) / len(risks)
    keep = 1.0
    for r in risks:
        keep *= 1.0 - r
    return 1.0 - keep


def fuse(role_scores: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """Weighted mean of the role scores present, weights renormalised over them."""
    total = sum(weights.get(r, 0.0) for r in role_scores)
    if total <= 0.0:
        return 0.0
    # Rounded so that float noise (0.35 * 0.4 / 0.4 = 0.34999...) cannot cross a cut-off.
    return round(sum(s * weights.get(r, 0.0) for r, s in role_scores.items()) / total, 9)


class WeightedPolicy:
    """The production pipeline guide's weighted fusion over roles filled by hallucheck's detectors."""

    name: ClassVar[str] = "weighted"

    def __init__(
        self,
        *,
        weights: Mapping[str, float] | None = None,
        roles: Mapping[str, Sequence[Role]] | None = None,
        combine: Combine = "alarm_mean",
        alarms: Sequence[Role] = tuple(ALARMS),
        cutoffs: tuple[float, float, float] = (0.8, 0.6, 0.35),
        settle_above: float = 0.8,
        settle_below: float = 0.1,
    ) -> None:
        self.weights = dict(WEIGHTS if weights is None else weights)
        for role, w in self.weights.items():
            if isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0:
                raise ValueError(f"weight of role {role!r} must be a non-negative number, got {w!r}")
        self.roles = {role: tuple(names) for role, names in (ROLES if roles is None else roles).items()}
        unknown = set(self.roles) - set(self.weights)
        if unknown:
            raise ValueError(f"roles {sorted(unknown)} have no weight (weights: {sorted(self.weights)})")
        if combine not in ("alarm_mean", "max", "mean", "noisy_or"):
            raise ValueError(f"combine must be 'alarm_mean', 'max', 'mean' or 'noisy_or', got {combine!r}")
        self.combine: Combine = combine
        self.alarms = frozenset(alarms)
        critical, high, medium = cutoffs
        if not 0.0 <= medium <= high <= critical <= 1.0:
            raise ValueError(f"cutoffs must be (critical, high, medium) with 0 <= medium <= high <= critical <= 1, got {cutoffs}")
        self.cutoffs = (float(critical), float(high), float(medium))
        self.settle_above = settle_above
        self.settle_below = settle_below

    def role_scores(self, findings: list[Finding]) -> tuple[dict[str, float], list[str]]:
        """Score of every role that has at least one usable finding, and detectors in no role."""
        ok = usable(findings)
        scores: dict[str, float] = {}
        for role, kinds in self.roles.items():
            found = [f for f in ok if f.role in kinds]
            if found:
                scores[role] = _combine([f.risk for f in found], self.combine, [f.role in self.alarms for f in found])
        placed = {k for kinds in self.roles.values() for k in kinds}
        return scores, sorted({f.detector for f in ok if f.role not in placed})

    def score(self, findings: list[Finding]) -> float:
        return fuse(self.role_scores(findings)[0], self.weights)

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        scores, unplaced = self.role_scores(findings)
        value = fuse(scores, self.weights)
        severity = severity_for(value, *self.cutoffs)
        level = _LEVEL[severity]
        notes = [f"weighted: severity {severity} (score {value:.3f})"]
        notes.append("weighted: roles " + (", ".join(f"{r} {s:.3f}" for r, s in scores.items()) or "none ran"))
        if unplaced:
            notes.append(f"weighted: detectors in no role, not counted: {', '.join(unplaced)}")
        notes.extend(failed_notes(findings))
        decision = {"high": "reject", "moderate": "review", "low": "accept"}[level]
        return Verdict(
            hallucinated=level == "high",
            risk_score=round(min(max(value, 0.0), 1.0), 6),
            risk_level=level,
            decision=decision,  # type: ignore[arg-type]
            notes=notes,
        )

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        value = self.score(findings)
        return self.settle_below < value < self.settle_above
