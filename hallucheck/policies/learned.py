"""The learned, calibrated policy: a small boosted-tree model stacked over all detector scores.

Fitted by ``hallucheck train-policy`` (:mod:`hallucheck.train.stack`) on the ``calib`` part of the
project's RAGTruth split and shipped as ``learned.json``: gradient-boosted trees (depth <= 3)
evaluated here in numpy (no scikit-learn at run time), then Platt scaling, so ``risk_score`` is a
calibrated probability that the answer holds a hallucination. The generator's name is never a
feature; the task (qa / summary / data2txt / other) and the answer's length are.

Two stages ship: ``cheap`` (rules + lexical detectors) and ``full`` (all detectors the spec
lists, including the span tagger). ``decide`` uses the full stage when its detectors ran, else
the cheap one. ``escalate`` (the cascade) runs the model layer only when the cheap probability
lies in the uncertain band ``[escalate_low, escalate_high]`` chosen on calib.

Verdict: ``hallucinated`` when p >= ``threshold`` (one global threshold, chosen on calib for F1).
Levels: ``high`` (reject) when p >= threshold, ``moderate`` (review) when p >= threshold / 2,
``low`` (accept) otherwise.

Spans (fusion): when the answer is judged hallucinated, the report shows the tagger's spans (word
pieces at or above the calib-chosen token threshold, grown to whole words and merged) plus the
spans of the cheap detectors that raised character-level span F1 on calib when added one at a
time (``span_detectors``; without the model — cascade not escalated — ``cheap_span_detectors``).
An answer below the threshold but at moderate risk (sent to review) keeps its spans too, so the
reviewer sees what to look at. When it is judged low risk, only spans scoring at least
``span_keep_score`` are kept (default: none), so an accepted answer does not come with highlights
that contradict its verdict. A flagged or reviewed answer on which the tagger marked nothing shows
the spans of ``fallback_span_detectors`` instead: the cheap detectors whose spans were at least as
precise as the tagger's on calib (the numbers detector's contradicted and unsupported figures and
names), so a verdict comes with the places that led to it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np
from pydantic import ValidationError

from hallucheck.analysis import CaseAnalysis
from hallucheck.errors import HallucheckError
from hallucheck.policies.base import Verdict, decision_for
from hallucheck.policies.features import MARKER_EVIDENCE, case_features, stack_features
from hallucheck.policies.learned_spec import PolicySpec, SpecError, StageSpec, first_error, read_spec_text, spec_of
from hallucheck.policies.safeguards import english_over_long_sources
from hallucheck.policies.weighted import WeightedPolicy
from hallucheck.text.language import base_language
from hallucheck.types import Finding, RiskLevel, Span

# Span labels the report always shows when the answer is flagged or sent to review.
KEPT_LABELS: frozenset[str] = frozenset({"invalid_citation", "contradiction", "speculation"})

__all__ = ["KEPT_LABELS", "MARKER_EVIDENCE", "LearnedPolicy", "MissingFeatureError", "Stage", "load_spec", "stack_features",
           "case_features", "choose_spans", "level_from_probability", "signal_note", "cross_lingual_note"]


class MissingFeatureError(HallucheckError, KeyError):
    """A fitted stage needs a feature that the findings do not give (a detector that no longer gives
    it, or a tagger of another kind than the one the stage was fitted on)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "a stack feature is missing"


S = TypeVar("S")


def choose_spans(
    spans: Sequence[tuple[str, Sequence[S]]],
    *,
    with_model: bool,
    span_detectors: Collection[str],
    cheap_span_detectors: Collection[str],
    fallback_span_detectors: Collection[str] = (),
    taggers: Collection[str] = ("model",),
) -> list[S]:
    """The spans a learned verdict shows, from ``(detector, spans)`` pairs in detector order.

    The tagger's spans (``taggers``: the detectors of role ``tagger``, ``model`` by default)
    always, plus those of ``span_detectors`` when the tagger ran, else of ``cheap_span_detectors``.
    When that leaves nothing although the tagger ran, the spans of ``fallback_span_detectors``: a
    rejected or reviewed answer must say what to look at, so it shows what the detectors at least
    as precise as the tagger on calib found (e.g. a figure that contradicts the source) rather
    than nothing. Shared by the policy and by the training's dev report, so the numbers recorded
    are those of the shipped behaviour.
    """

    def collect(keep: Collection[str]) -> list[S]:
        return [s for det, found in spans if det in taggers or det in keep for s in found]

    out = collect(span_detectors if with_model else cheap_span_detectors)
    if not out and with_model and fallback_span_detectors:
        out = collect(fallback_span_detectors)
    return out


def cross_lingual_note(language: str, source_language: str) -> str:
    """What a verdict on an answer written over sources in another language rests on. The
    word-overlap detectors (n-grams, ROUGE-L) find few shared words in such an answer whether or
    not it is faithful, so a fit can only lean on the tagger, figures, names and citations: faithful
    answers over sources in another language are flagged far more often than same-language ones
    (README, known limits), and a reviewer should know that before trusting a reject without spans."""
    return (f"the answer ({language}) and its sources ({source_language}) are in different languages: word overlap "
            "says little here, so this verdict rests on the tagger, figures, names and citations; a faithful "
            "translation is flagged far more often than a same-language answer")


class Stage:
    """One fitted stacker: feature names, trees, Platt scaling (a validated :class:`StageSpec`, or
    the same as data, e.g. as a fit exports it)."""

    def __init__(self, spec: StageSpec | Mapping[str, Any]) -> None:
        if not isinstance(spec, StageSpec):
            try:
                spec = StageSpec.model_validate(dict(spec))
            except ValidationError as exc:
                raise SpecError(f"policy stage: {first_error(exc)}") from None
        self.detectors: list[str] = list(spec.detectors)
        self.features: list[str] = list(spec.features)
        self.fill: np.ndarray = np.asarray(spec.fill, dtype=np.float64)
        self.init = float(spec.init)
        self.learning_rate = float(spec.learning_rate)
        self.platt = (float(spec.platt[0]), float(spec.platt[1]))
        self.trees = [(t.feature, t.threshold, t.left, t.right, t.value) for t in spec.trees]

    def vector(self, feats: Mapping[str, float]) -> np.ndarray:
        """The stage's input row; :class:`MissingFeatureError` naming every feature ``feats`` lacks."""
        missing = [name for name in self.features if feats.get(name) is None]
        if missing:
            raise MissingFeatureError(
                f"learned policy: the stage over {', '.join(self.detectors)} needs {', '.join(missing)}, "
                "which the findings do not give")
        return np.array([feats[name] for name in self.features], dtype=np.float64)

    def filled_vector(self, feats: Mapping[str, float]) -> tuple[np.ndarray, list[str]]:
        """The input row with the fit's calib medians where ``feats`` lacks a feature, and the
        names filled: for rows read from caches collected before a feature existed (the fitting
        and bench tools). A policy never fills: it calls :meth:`vector`."""
        x = self.fill.copy()
        missing = []
        for i, name in enumerate(self.features):
            v = feats.get(name)
            if v is None:
                missing.append(name)
            else:
                x[i] = v
        return x, missing

    def raw(self, x: np.ndarray) -> float:
        total = self.init
        for feat, thr, left, right, value in self.trees:
            node = 0
            while left[node] >= 0:
                node = left[node] if x[feat[node]] <= thr[node] else right[node]
            total += self.learning_rate * value[node]
        return total

    def contributions(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        """(bias, per-feature contribution) to :meth:`raw`, which is their sum.

        Why: a verdict should say which signals made it. Each split on the path ``x`` takes through
        a tree moves the tree's output from the node's value to the child's; that move is the split
        feature's share (the path attribution of Saabas). The bias is what every answer starts
        from: ``init`` plus each tree's root value."""
        bias = self.init
        out = np.zeros(len(self.features), dtype=np.float64)
        for feat, thr, left, right, value in self.trees:
            node = 0
            bias += self.learning_rate * value[0]
            while left[node] >= 0:
                child = left[node] if x[feat[node]] <= thr[node] else right[node]
                out[feat[node]] += self.learning_rate * (value[child] - value[node])
                node = child
        return bias, out

    def probability(self, x: np.ndarray) -> float:
        a, b = self.platt
        z = a * self.raw(x) + b
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


@lru_cache(maxsize=8)
def _read(path: str) -> tuple[dict[str, Any], PolicySpec]:
    if path == "<package>":
        text = resources.files("hallucheck.policies").joinpath("learned.json").read_text("utf-8")
        return read_spec_text(text, "hallucheck/policies/learned.json")
    return read_spec_text(Path(path).read_text(encoding="utf-8"), path)


def _load(path: str | Path | None) -> tuple[dict[str, Any], PolicySpec]:
    try:
        return _read(str(path) if path else "<package>")
    except (FileNotFoundError, ModuleNotFoundError) as exc:
        raise FileNotFoundError(
            "learned policy weights not found (hallucheck/policies/learned.json); fit them with: hallucheck train-policy"
        ) from exc


def load_spec(path: str | Path | None = None) -> dict[str, Any]:
    """The fitted policy as data, validated (the shipped ``learned.json`` by default); trees as lists."""
    return _load(path)[0]


def signal_note(stage: Stage, x: np.ndarray, top: int = 3, least: float = 0.05) -> str:
    """The report's note on which features raised the risk most and which lowered it most
    (:meth:`Stage.contributions`, in the stage's raw units; at most ``top`` each way, none below
    ``least``): a reviewer sees that a verdict came from, say, the tagger's strongest mark or from
    n-gram novelty, also when no span reached its threshold."""
    _, contrib = stage.contributions(x)
    order = np.argsort(contrib)

    def part(indices: Any) -> str:
        return ", ".join(f"{stage.features[i]}={x[i]:.3g} ({contrib[i]:+.2f})" for i in indices)

    up = [i for i in order[::-1][:top] if contrib[i] >= least]
    down = [i for i in order[:top] if contrib[i] <= -least]
    return (f"learned policy signals: raised the risk most: {part(up) or 'none'}; "
            f"lowered it most: {part(down) or 'none'}")


def level_from_probability(p: float, threshold: float) -> RiskLevel:
    if p >= threshold:
        return "high"
    if p >= threshold / 2.0:
        return "moderate"
    return "low"


def _summaries(findings: Sequence[Finding]) -> dict[str, dict[str, Any]]:
    out = {}
    for f in findings:
        if not f.usable:
            continue
        out[f.detector] = {"risk": f.risk, "flagged": f.flagged, "features": f.features}
    return out


class LearnedPolicy:
    """Options: ``spec`` (path to a fitted JSON such as one ``hallucheck calibrate`` wrote, or the
    spec itself as a mapping; default the shipped one), ``threshold`` (override the chosen
    decision threshold)."""

    name: ClassVar[str] = "learned"

    def __init__(self, spec: str | Path | Mapping[str, Any] | None = None, threshold: float | None = None, *,
                 fitted: PolicySpec | None = None) -> None:
        if fitted is not None:  # a part of a spec validated with its whole (a language group's)
            self.spec = dict(spec) if isinstance(spec, Mapping) else {}
        elif isinstance(spec, Mapping):
            self.spec, fitted = spec_of(spec, "<given spec>")
        else:
            self.spec, fitted = _load(spec)
        self.fitted = fitted
        self.stages = {k: Stage(v) for k, v in fitted.stages.items()}
        self.threshold = float(threshold if threshold is not None else fitted.threshold)
        self.escalate_low = fitted.escalate_low
        self.escalate_high = fitted.escalate_high
        self.cheap_settles_below = fitted.cheap_settles_below
        self.span_detectors = set(fitted.span_detectors)
        self.cheap_span_detectors = set(fitted.cheap_span_detectors if fitted.cheap_span_detectors is not None else fitted.span_detectors)
        self.fallback_span_detectors = set(fitted.fallback_span_detectors)
        self.span_keep_score = fitted.span_keep_score
        self.token_threshold = fitted.token_threshold
        # Whether the span tagger's output counts: a language fitted without it (its calib F1 did
        # not improve with the tagger) neither weighs the tagger's features nor shows its spans.
        self.model_spans = fitted.model_spans
        self.group: str | None = fitted.language_group
        # Policies fitted per language group ("zh", "de", "fr"): each overrides the stages, the
        # threshold and what counts; answers in other languages use this spec's own stages.
        base = {k: v for k, v in self.spec.items() if k != "languages"}
        self.languages: dict[str, LearnedPolicy] = {
            group: LearnedPolicy(spec={**base, **self.spec["languages"][group], "language_group": group},
                                 fitted=fitted.with_regime(regime, languages={}, language_group=group))
            for group, regime in fitted.languages.items()
        }
        # A group may judge answers over sources in another language with a fit of its own
        # (``cross_lingual``): fitted without the written same-language rewordings, which taught the
        # group's fit to read lexical novelty in a way that rejected faithful translations.
        own = {k: v for k, v in self.spec.items() if k != "cross_lingual"}
        self.cross_lingual: LearnedPolicy | None = (
            LearnedPolicy(spec={**own, **self.spec["cross_lingual"], "regime": "cross_lingual"},
                          fitted=fitted.with_regime(fitted.cross_lingual, cross_lingual=None, regime="cross_lingual"))
            if fitted.cross_lingual is not None else None
        )

    def for_language(self, language: str) -> LearnedPolicy:
        """The policy that speaks for answers in ``language``: its group's, else this one."""
        if not self.languages:
            return self
        return self.languages.get(base_language(language or "en"), self)

    def for_case(self, analysis: CaseAnalysis) -> LearnedPolicy:
        """The policy that speaks for this answer: its language group's, and within the group the
        cross-lingual fit when the answer and its sources are in different languages."""
        policy = self.for_language(analysis.language)
        if policy.cross_lingual is not None and analysis.cross_lingual:
            return policy.cross_lingual
        return policy

    @property
    def detectors(self) -> list[str]:
        return list(self.fitted.detectors)

    def _stage_for(self, ran: set[str]) -> Stage | None:
        """The largest fitted stage whose detectors all gave usable output; None when none did."""
        fitting = [s for s in self.stages.values() if set(s.detectors) <= ran]
        return max(fitting, key=lambda s: len(s.detectors), default=None)

    def _stage_name(self, stage: Stage) -> str:
        return str(next(k for k, v in self.stages.items() if v is stage))

    def probability(self, analysis: CaseAnalysis, findings: Sequence[Finding], *,
                    explain: bool = False) -> tuple[float, str, list[str]]:
        """(calibrated probability, stage used, notes); ValueError when no fitted stage has all
        its detectors among the findings (``decide`` then hands over to the weighted policy).
        ``explain``: the notes also give the verdict's probability line and the signals behind it
        (:func:`signal_note`), which a report shows and the cascade's look at the cheap stage does not need."""
        policy = self.for_case(analysis)
        if policy is not self:
            return policy.probability(analysis, findings, explain=explain)
        summaries = _summaries(findings)
        stage = self._stage_for(set(summaries))
        if stage is None:
            raise ValueError("no fitted stage of the learned policy has all its detectors among the findings")
        case = case_features(analysis.case.task, analysis.answer_chars, len(analysis.sentences), analysis.cross_lingual)
        x = stage.vector(stack_features(summaries, case))
        notes = []
        p, name = stage.probability(x), self._stage_name(stage)
        if explain:
            fitted = f", fitted for {self.group}" if self.group else ""
            if self.fitted.regime == "cross_lingual":
                fitted += " (answers over sources in another language)"
            notes.append(f"learned policy ({name} stage{fitted}): calibrated probability {p:.3f}, threshold {self.threshold:.3f}")
            notes.append(signal_note(stage, x))
            if analysis.cross_lingual:
                notes.append(cross_lingual_note(analysis.language, analysis.source_language))
        return p, name, notes

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        policy = self.for_case(analysis)
        if policy is not self:
            return policy.decide(analysis, findings)
        ran = {f.detector for f in findings if f.usable}
        if self._stage_for(ran) is None:
            return self._fallback(analysis, findings, ran)
        p, _, notes = self.probability(analysis, findings, explain=True)
        hallucinated = p >= self.threshold
        level = level_from_probability(p, self.threshold)
        return Verdict(
            hallucinated=hallucinated,
            risk_score=p,
            risk_level=level,
            decision=decision_for(level),
            notes=notes,
            # An answer sent to review shows what to review: its spans are kept like a flagged one's.
            spans=self._spans(findings, hallucinated or level != "low"),
        )

    def _fallback(self, analysis: CaseAnalysis, findings: list[Finding], ran: set[str]) -> Verdict:
        """The weighted policy's verdict, for detector sets no stage was fitted on: filling the
        missing detectors' features with calib medians would make up evidence nobody found."""
        cheap = self.stages["cheap"].detectors
        missing = sorted(set(cheap) - ran)
        verdict = WeightedPolicy().decide(analysis, findings)
        note = (f"learned policy: fitted on {', '.join(cheap)}; no usable output from {', '.join(missing)}, "
                "so the weighted policy decided")
        verdict.notes.insert(0, note)
        return verdict

    def _spans(self, findings: Sequence[Finding], show: bool) -> list[Span]:
        usable_findings = [f for f in findings if f.usable and (self.model_spans or f.role != "tagger")]
        by_detector = [(f.detector, [s for s in f.spans if show or s.score >= self.span_keep_score]) for f in usable_findings]
        out = choose_spans(
            by_detector,
            with_model=any(f.role == "tagger" for f in usable_findings),
            span_detectors=self.span_detectors,
            cheap_span_detectors=self.cheap_span_detectors,
            fallback_span_detectors=self.fallback_span_detectors if show else (),
            taggers={f.detector for f in usable_findings if f.role == "tagger"},
        )
        if show:
            # What a detector found with a label of its own is never dropped by the fusion: an
            # invalid citation id, a contradicted figure, a speculation phrase (the report's
            # merging lets the more precise label win where spans overlap).
            have = {id(s) for s in out}
            out += [s for f in usable_findings for s in f.spans
                    if s.label in KEPT_LABELS and id(s) not in have and (s.label != "speculation" or f.flagged)]
        return out

    def _cheap_probability(self, analysis: CaseAnalysis, findings: list[Finding]) -> float | None:
        """The cheap stage's probability once all its detectors ran and a later stage exists; None before."""
        cheap = self.stages["cheap"]
        if "full" not in self.stages or not set(cheap.detectors) <= {f.detector for f in findings if f.usable}:
            return None
        return self.probability(analysis, [f for f in findings if f.detector in cheap.detectors])[0]

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        policy = self.for_case(analysis)
        if policy is not self:
            return policy.escalate(analysis, findings, next_layer)
        cheap = self.stages["cheap"]
        if not set(cheap.detectors) <= {f.detector for f in findings if f.usable}:
            return True  # the cheap stage is not complete yet
        p = self._cheap_probability(analysis, findings)
        if p is None:
            return False  # nothing later would be weighed
        return self.escalate_low <= p <= self.escalate_high

    def not_needed(self, analysis: CaseAnalysis, findings: list[Finding]) -> frozenset[str]:
        """The detectors of the later stage (the span tagger) this answer does not need: none until
        the cheap stage is complete, all of them once its probability is below the fit's
        ``cheap_settles_below``.

        Why: the span tagger is most of the default stack's time, and below that bound (chosen on
        RAGTruth calib with bench/settling.py) it changed 2 of 1,416 calib decisions. Answers the
        cheap stage flags, or is unsure of, still get the tagger's spans; detectors the policy does
        not weigh (an LLM judge a caller added) are never named. Only English answers over sources
        longer than the verifier reads whole, as RAGTruth's are: over a sentence or two a changed
        word leaves the cheap stage little novelty to see, and the tagger is what catches it (on
        the English dev pairs, changed pairs caught fell from 0.735 to 0.568 with the bound there)."""
        policy = self.for_case(analysis)
        if policy is not self:
            return policy.not_needed(analysis, findings)
        if self.cheap_settles_below is None or not english_over_long_sources(analysis):
            return frozenset()
        p = self._cheap_probability(analysis, findings)
        if p is None or p >= self.cheap_settles_below:
            return frozenset()
        return frozenset(self.stages["full"].detectors) - frozenset(self.stages["cheap"].detectors)
