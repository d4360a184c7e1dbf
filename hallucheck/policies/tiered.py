"""The tiered guideline (detection guideline): rules first, the LLM judge only when the rules are not conclusive.

Exactly as the guideline states, where the citation rules apply:

- **High** when any holds: rule risk > 0.6; an invalid citation; 3 or more uncited long
  sentences; citation ratio < 0.3 with 3 or more claims; LLM risk > 0.6; the LLM's notes state
  unsupported claims.
- **Moderate** when any holds (and nothing is high): 0.3 < rule risk ≤ 0.6; 1–2 uncited
  sentences; 0.3 < LLM risk ≤ 0.6.
- **Low** otherwise — which, where citations apply, implies rule risk ≤ 0.3, i.e. citation
  ratio ≥ 0.7.

A high rule result is final: ``escalate`` then says no to every further layer, so no LLM is
called. Otherwise the next layer runs (the Checker only asks when such a layer is configured).

The citation rules only apply where citations were asked for or used (see the citations
detector); most answers cite nothing, and the guideline alone would then say "low" to all of
them. So the other detectors count too, conservatively: one detector over 0.6 (a numbers
contradiction, a fabrication phrase, very novel wording) makes the answer at most **moderate**;
detectors of two different families over 0.6 make it **high** (ngram and overlap are one
family, "lexical": they measure the same thing); one over 0.3 makes it moderate. They can
raise a level, never lower one the guideline set.

``risk_score`` is the largest of the rule risk (when applied), the LLM risk and the other
detectors' risks, then moved into its level's band: at least 0.7 when high, within
(0.3, 0.6] when moderate, at most 0.3 when low — so ``level_for(risk_score)`` gives the level.
``hallucinated`` is ``level == "high"``; the decision is accept / review / reject for low /
moderate / high.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.policies.base import Verdict, decision_for
from hallucheck.policies.signals import (
    LLM_ROLES,
    CitationFacts,
    LLMFacts,
    citation_facts,
    failed_notes,
    llm_facts,
    usable,
)
from hallucheck.types import Finding, RiskLevel, Role

__all__ = ["TieredPolicy", "TierAssessment", "FAMILIES"]

# Roles that measure the same thing count as one family: two detectors of one family agreeing is
# one signal (ngram and overlap are both "lexical"; the span tagger and NLI both judge entailment).
FAMILIES: dict[str, str] = {"lexical": "lexical", "tagger": "entailment", "entailment": "entailment"}

_RANK: dict[RiskLevel, int] = {"low": 0, "moderate": 1, "high": 2}


class TierAssessment:
    """The level, the reasons for it and the risks it was built from (what ``decide`` reports)."""

    def __init__(self) -> None:
        self.level: RiskLevel = "low"
        self.reasons: list[str] = []
        self.risks: list[float] = []
        self.rule_high = False

    def raise_to(self, level: RiskLevel, reason: str) -> None:
        if _RANK[level] > _RANK[self.level]:
            self.level = level
        if level != "low":
            self.reasons.append(f"{level}: {reason}")


class TieredPolicy:
    """Rules first; > 0.6 is high at once; otherwise ask the LLM layer and combine (detection guideline)."""

    name: ClassVar[str] = "tiered"

    def __init__(
        self,
        *,
        high: float = 0.6,
        moderate: float = 0.3,
        uncited_high: int = 3,
        low_ratio: float = 0.3,
        ratio_claims: int = 3,
        other_signals: bool = True,
        llm_roles: Iterable[Role] = LLM_ROLES,
        families: Mapping[str, str] | None = None,
    ) -> None:
        if not 0.0 <= moderate <= high <= 1.0:
            raise ValueError(f"need 0 <= moderate <= high <= 1, got moderate={moderate}, high={high}")
        self.high = high
        self.moderate = moderate
        self.uncited_high = uncited_high
        self.low_ratio = low_ratio
        self.ratio_claims = ratio_claims
        self.other_signals = other_signals
        self.llm_roles: frozenset[Role] = frozenset(llm_roles)
        self.families = dict(FAMILIES if families is None else families)

    # -- the guideline's pieces ----------------------------------------------------------------

    def rule_tier(self, facts: CitationFacts, tier: TierAssessment) -> None:
        """The rule-based conditions, exactly as the guideline lists them."""
        if facts.invalid > 0:
            tier.raise_to("high", f"{facts.invalid} invalid citation(s)")
        if not facts.applied or facts.claims == 0:
            return
        tier.risks.append(facts.risk)
        if facts.risk > self.high:
            tier.raise_to("high", f"citation risk {facts.risk:.2f} > {self.high}")
        if facts.uncited >= self.uncited_high:
            tier.raise_to("high", f"{facts.uncited} uncited long sentences")
        if facts.ratio < self.low_ratio and facts.claims >= self.ratio_claims:
            tier.raise_to("high", f"citation ratio {facts.ratio:.2f} < {self.low_ratio} with {facts.claims} claims")
        if self.moderate < facts.risk <= self.high:
            tier.raise_to("moderate", f"citation risk {facts.risk:.2f} in ({self.moderate}, {self.high}]")
        if 1 <= facts.uncited < self.uncited_high:
            tier.raise_to("moderate", f"{facts.uncited} uncited long sentence(s)")

    def llm_tier(self, facts: LLMFacts, tier: TierAssessment) -> None:
        tier.risks.append(facts.risk)
        who = "+".join(facts.detectors)
        if facts.risk > self.high:
            tier.raise_to("high", f"LLM risk {facts.risk:.2f} > {self.high} ({who})")
        elif facts.risk > self.moderate:
            tier.raise_to("moderate", f"LLM risk {facts.risk:.2f} in ({self.moderate}, {self.high}] ({who})")
        if facts.unsupported:
            tier.raise_to("high", f"the LLM judge states unsupported claims ({who})")

    def other_tier(self, findings: list[Finding], tier: TierAssessment) -> None:
        """Non-citation, non-LLM detectors: one strong signal is moderate, two are high."""
        others = [f for f in findings if f.citations is None and not self._is_llm(f)]
        if not others:
            return
        tier.risks.extend(min(f.risk, self.high) for f in others)  # alone they never exceed moderate
        strong = [f for f in others if f.risk > self.high]
        weak = [f for f in others if self.moderate < f.risk <= self.high]
        if len({self._family(f) for f in strong}) >= 2:
            names = ", ".join(f"{f.detector} {f.risk:.2f}" for f in strong)
            tier.raise_to("high", f"detectors of two families over {self.high}: {names}")
            tier.risks.extend(f.risk for f in strong)
        elif strong or weak:
            f = max(strong + weak, key=lambda x: x.risk)
            tier.raise_to("moderate", f"{f.detector} risk {f.risk:.2f} > {self.moderate}")

    def _family(self, f: Finding) -> str:
        """The family a finding counts in: its role's family (a role-less finding stands alone)."""
        if f.role == "other":
            return f"detector:{f.detector}"
        return self.families.get(f.role, f.role)

    def _is_llm(self, f: Finding) -> bool:
        return f.role in self.llm_roles

    # -- the policy protocol -------------------------------------------------------------------

    def assess(self, findings: list[Finding]) -> TierAssessment:
        """The level and the reasons, from the usable findings."""
        ok = usable(findings)
        tier = TierAssessment()
        cites = citation_facts(ok)
        if cites is not None:
            self.rule_tier(cites, tier)
            tier.rule_high = tier.level == "high"
        llm = llm_facts(ok, self.llm_roles)
        if llm is not None:
            self.llm_tier(llm, tier)
        if self.other_signals:
            self.other_tier(ok, tier)
        return tier

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        tier = self.assess(findings)
        base = max(tier.risks, default=0.0)
        if tier.level == "high":
            score = max(base, 0.7)
        elif tier.level == "moderate":
            score = min(max(base, (self.moderate + self.high) / 2), self.high)
        else:
            score = min(base, self.moderate)
        notes = [f"tiered: {tier.level}"] + [f"tiered: {r}" for r in tier.reasons] + failed_notes(findings)
        if citation_facts(usable(findings)) is None:
            notes.append("tiered: citations detector did not run; guideline citation rules not applied")
        return Verdict(
            hallucinated=tier.level == "high",
            risk_score=round(min(max(score, 0.0), 1.0), 6),
            risk_level=tier.level,
            decision=decision_for(tier.level),
            notes=notes,
        )

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        """No further layer once the rules say high (the guideline's "> 0.6 is high at once")."""
        ok = usable(findings)
        cites = citation_facts(ok)
        if cites is None:
            return True
        tier = TierAssessment()
        self.rule_tier(cites, tier)
        return tier.level != "high"
