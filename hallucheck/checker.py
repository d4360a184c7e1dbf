"""The Checker: runs detectors layer by layer (cheap first) and lets a policy decide.

Configure it once and reuse it: detectors are built once and keep their loaded models. With
``cascade=True`` a layer runs only when the policy says the layers before it did not settle the
case, within a budget of wall time and LLM calls.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import MAX_ANSWER_CHARS, MAX_SOURCE_CHARS, make_case
from hallucheck.deadline import current_deadline
from hallucheck.detectors import Detector, detector_layer, get_detector
from hallucheck.errors import InputError
from hallucheck.intake import Intake, take_in
from hallucheck.policies import Policy, get_policy
from hallucheck.policies.base import Verdict
from hallucheck.policies.default import default_detectors
from hallucheck.policies.entailment import no_reject_without_span
from hallucheck.policies.floors import FloorTable, shipped_floors
from hallucheck.policies.policy_file import is_policy_file, load_policy_file
from hallucheck.policies.safeguards import final_verdict, merge_coverage
from hallucheck.source_window import SourceWindow, narrow_sources
from hallucheck.spans import merge_spans, tidy_spans
from hallucheck.streaming import CheckStream, stream_case
from hallucheck.types import Case, CitationSummary, Cost, Coverage, Finding, Report, Span
from hallucheck.verdict_facts import settle_facts
from hallucheck.verifier_pass import suspect_sentences, verify_until_unsupported, worth_verifying

__all__ = ["Budget", "Checker", "check", "make_case", "MAX_ANSWER_CHARS", "MAX_SOURCE_CHARS"]

@dataclass(frozen=True)
class Budget:
    """Limits for one check (None = unlimited).

    ``max_seconds`` is wall time: no layer starts after it, a long detector stops at its next
    window (the span tagger's, an LLM judge's) and reports the rest as unchecked, so the answer
    goes to review, and every LLM call ends by it (the HTTP backends cut the request, its retries
    and any ``Retry-After`` wait to what is left). A deadline set around the check
    (:func:`hallucheck.deadline.time_limit`, a service request's) counts the same way.
    ``max_llm_calls`` counts calls across all detectors.
    """

    max_seconds: float | None = None
    max_llm_calls: int | None = None


class Checker:
    """Runs a set of detectors and a policy over cases.

    ``detectors`` are names (see ``available_detectors()``) or Detector objects; options for
    named detectors go in ``detector_options``. ``llm`` is handed to detectors that need one;
    without it, LLM detectors are skipped with a note and no call is ever made.

    Under every policy the verdict keeps a floor (``floors``: the policy's own floor table when
    it has one, else the one shipped with the learned policy; see
    :mod:`hallucheck.policies.floors`), an answer partly unchecked is not accepted, and an answer
    nothing checked goes to review (:mod:`hallucheck.policies.safeguards`).

    ``verify`` (default: on with the default detectors, when the shipped verifier is installed):
    when a verdict would not accept, the sentence-pair verifier reads the sentences it rests on
    (those its word-level spans touch, or all when it shows none), and the verdict is decided
    again with what it found: a sentence its evidence entails is not flagged on word-level
    evidence alone, and a sentence it finds unsupported gets a span with its evidence
    (:mod:`hallucheck.policies.entailment`). Precise findings keep their floors either way.

    ``settle`` (default on): detectors the policy names as not needed once the earlier layers
    ran (``not_needed``: the learned policy's span tagger where its cheap stage settles an English
    answer) do not run; off, every detector runs, as a per-detector evaluation needs.
    """

    def __init__(
        self,
        detectors: Sequence[str | Detector] | None = None,
        policy: str | Policy = "default",
        *,
        llm: Any = None,
        cascade: bool = False,
        budget: Budget | None = None,
        detector_options: Mapping[str, Mapping[str, Any]] | None = None,
        citations_expected: bool | None = None,
        floors: FloorTable | None = None,
        verify: bool | None = None,
        settle: bool = True,
    ) -> None:
        self.policy: Policy = get_policy(policy) if isinstance(policy, str) else policy
        own = getattr(self.policy, "floors", None)
        self.floors: FloorTable = floors or (own if isinstance(own, FloorTable) else shipped_floors())
        self.llm = llm
        self.cascade = cascade
        self.settle = settle
        self.budget = budget or Budget()
        self.citations_expected = citations_expected
        opts = {k: dict(v) for k, v in (detector_options or {}).items()}
        names = detectors if detectors is not None else _policy_detectors(policy) or default_detectors()
        self.detectors: list[Detector] = []
        self.skipped: list[str] = []
        for d in names:
            if isinstance(d, str):
                o = opts.get(d, {})
                if self.llm is not None and _takes_llm(d):
                    o.setdefault("llm", self.llm)  # e.g. claims: rules without an LLM, LLM extraction with one
                det = get_detector(d, **o) if not _needs_llm(d) else self._llm_detector(d, o)
                if det is None:
                    continue
                self.detectors.append(det)
            else:
                self.detectors.append(d)
        self.detectors.sort(key=lambda d: d.layer)
        # The sentence-pair verifier reads the sentences a non-accepting verdict rests on (see
        # hallucheck.policies.entailment); on by default with the default detectors.
        self.verifier: Any = None
        if (verify if verify is not None else detectors is None) and not any(d.name == "nli" for d in self.detectors):
            self.verifier = _verifier(required=bool(verify), options=opts.get("nli", {}))

    def _llm_detector(self, name: str, options: dict[str, Any]) -> Detector | None:
        if self.llm is None and "llm" not in options:
            self.skipped.append(name)
            return None
        options.setdefault("llm", self.llm)
        return get_detector(name, **options)

    @property
    def detector_names(self) -> list[str]:
        return [d.name for d in self.detectors]

    def check(self, case: Case | Mapping[str, Any] | None = None, **fields: Any) -> Report:
        """Check one case (a Case, a dict, or keyword fields question=, contexts=, answer=)."""
        built = make_case(case, **fields)
        if built.citations_expected is None and self.citations_expected is not None:
            built = built.model_copy(update={"citations_expected": self.citations_expected})
        intake = take_in(built)
        narrowed, window = narrow_sources(intake.case)
        report = self._run(CaseAnalysis(narrowed), intake)
        return report if window is None else _with_window(report, window, len(built.answer))

    async def acheck(self, case: Case | Mapping[str, Any] | None = None, **fields: Any) -> Report:
        """The same as ``check``, off the event loop (detectors are CPU-bound or do their own I/O)."""
        return await asyncio.to_thread(self.check, case, **fields)

    def stream(
        self,
        case: Case | Mapping[str, Any] | None = None,
        *,
        sentence_checker: Checker | None = None,
        **fields: Any,
    ) -> CheckStream:
        """Check an answer while it is generated: ``feed(text)`` returns a check of each sentence it
        completes, ``close()`` the Report of the whole answer (see ``hallucheck.streaming``).

        Give the case without its answer (question=, contexts=, task=, language=, ...).
        """
        built = stream_case(case, **fields)
        return CheckStream(self, built, sentence_checker=sentence_checker)

    def check_many(self, cases: Iterable[Case | Mapping[str, Any]]) -> Iterator[Report]:
        for c in cases:
            yield self.check(c)

    def _run(self, analysis: CaseAnalysis, intake: Intake | None = None) -> Report:
        """The report on ``analysis``; with ``intake``, its offsets mapped back onto the case as
        written (``analysis`` is of the text the detectors read: :mod:`hallucheck.intake`)."""
        case = analysis.case
        t0 = time.perf_counter()
        notes: list[str] = [f"detector {n} skipped: no LLM backend configured" for n in self.skipped]
        if not case.answer.strip():
            return Report(
                hallucinated=False,
                risk_score=0.0,
                risk_level="moderate",
                decision="review",
                notes=["the answer is empty: nothing to check, so it goes to review", *notes],
                policy=self.policy.name,
                language=analysis.language if case.answer else (case.language or ""),
                task=case.task,
                timings_ms={"total": (time.perf_counter() - t0) * 1000.0},
            )
        analysis.facts.llm_calls_left = self.budget.max_llm_calls
        # The check's deadline: its own time budget or the caller's (a service request's), the
        # earlier. No layer starts after it, long detectors stop at their next window, and LLM
        # calls made for this check must end by it, not only start before it.
        own = time.monotonic() + self.budget.max_seconds if self.budget.max_seconds is not None else None
        outer = current_deadline()
        deadline = min((d for d in (own, outer) if d is not None), default=None)
        if deadline is not None:
            analysis.deadline = deadline
            analysis.facts.llm_deadline = deadline
        stages = _Stages()
        findings: list[Finding] = []
        timings: dict[str, float] = {}
        current_layer = None
        unneeded: frozenset[str] = frozenset()
        for det in self.detectors:
            if det.layer != current_layer:
                current_layer = det.layer
                if self.cascade and findings and not stages.run(
                        "cascade", partial(self.policy.escalate, analysis, findings, det.layer), True, then="the next layer runs"):
                    notes.append(f"cascade stopped before layer {det.layer}: earlier layers were conclusive")
                    break
                unneeded |= _unneeded(self, stages, analysis, findings)
                if findings and analysis.out_of_time():
                    notes.append(f"time budget spent before layer {det.layer}")
                    break
            if det.name in unneeded:
                notes.append(f"{det.name} not run: the layers before it settle this answer")
                continue
            finding = _safe_detect(det, analysis)
            findings.append(finding)
            timings[det.name] = finding.latency_ms
        # Coverage is mapped onto the answer as written before the verdict names its characters.
        coverage = stages.run("coverage", partial(_coverage, findings, len(case.answer), intake), None,
                              then="the answer is not accepted", hold=True)
        _settle(stages, analysis, findings)
        verdict = final_verdict(self.policy, analysis, findings, self.floors, skipped=self.skipped, coverage=coverage,
                                guard=stages.verdict_step)
        if self.verifier is not None and not analysis.out_of_time() and worth_verifying(analysis, verdict):
            rows = suspect_sentences(analysis, verdict, findings)
            if rows:
                checked = verify_until_unsupported(self.verifier, analysis, rows, early=verdict.decision != "accept")
                # its sentence verdicts are what the verdict reads; whole-sentence spans are added
                # by the verdict's rules only where nothing else shows (policies.entailment)
                checked = checked.model_copy(update={"spans": []})
                findings.append(checked)
                timings[checked.detector] = checked.latency_ms
                _settle(stages, analysis, findings)
                verdict = final_verdict(self.policy, analysis, findings, self.floors, skipped=self.skipped,
                                        coverage=coverage, guard=stages.verdict_step)
        chosen = verdict.spans if verdict.spans is not None else [s for f in findings for s in f.spans]
        spans = stages.run("span merging", partial(_report_spans, chosen, analysis), sorted(chosen, key=_span_order),
                           then="spans shown unmerged")
        if verdict.decision == "reject" and not spans:
            # the spans a verdict chose may all be fragments that tidying drops (a lone stop word)
            verdict = no_reject_without_span(dataclasses.replace(verdict, spans=[]), findings)
        if intake is not None and intake.changed:
            unplaced: tuple[list[Span], list[Finding]] = ([], [f.model_copy(update={"spans": []}) for f in findings])
            spans, findings = stages.run("offset mapping", partial(_placed, intake, spans, findings), unplaced,
                                          then="no spans shown")
        verdict = stages.held(verdict)
        notes.extend(verdict.notes)
        notes.extend(stages.notes)
        for f in findings:
            notes.extend(f"{f.detector}: {n}" for n in f.notes)
        cost = _total_cost(findings)
        timings["total"] = (time.perf_counter() - t0) * 1000.0
        return Report(
            hallucinated=verdict.hallucinated,
            risk_score=round(min(max(verdict.risk_score, 0.0), 1.0), 6),
            risk_level=verdict.risk_level,
            decision=verdict.decision,
            spans=spans,
            findings=findings,
            citations=_citations(findings),
            timings_ms=timings,
            notes=list(dict.fromkeys(notes)),
            cost=cost,
            coverage=coverage,
            policy=self.policy.name,
            language=analysis.language,
            task=case.task,
        )


def _verifier(*, required: bool, options: Mapping[str, Any]) -> Any:
    """The ``nli`` detector with the shipped verifier, or None when this installation has none
    (an error instead when the caller asked for it)."""
    try:
        return get_detector("nli", **options)
    except InputError:
        if required:
            raise
        return None


_T = TypeVar("_T")


def _unneeded(checker: Checker, stages: _Stages, analysis: CaseAnalysis, findings: list[Finding]) -> frozenset[str]:
    """The detectors the policy says, without the cascade, this answer does not need: the layers run
    so far settle it (``not_needed``, a method a policy may have; the learned one names the tagger
    below its fit's bound)."""
    ask = None if checker.cascade or not checker.settle or not findings else getattr(checker.policy, "not_needed", None)
    return frozenset() if ask is None else stages.run("settling", partial(ask, analysis, findings), frozenset(), then="every detector runs")


class _Stages:
    """The steps after the detectors (the cascade's question, coverage, the policy and each rule of
    the verdict, span merging, offsets mapped back), each under the error guard detectors run
    under: a step that raises leaves a note and never sinks the others or the check.

    A failed step of the verdict hands on the verdict before it (a stand-in when the policy itself
    failed), held for review; so does a step that returns no valid verdict (a risk that is no
    finite number, an unknown decision). Later steps still run: a floor can still reject. When the
    coverage is unknown the answer is not accepted. Other steps fall back to what is safe to show
    (spans unmerged; no spans when their offsets cannot be mapped back).
    """

    def __init__(self) -> None:
        self.notes: list[str] = []
        self.hold = False

    def run(self, name: str, step: Callable[[], _T], fallback: _T, *, then: str, hold: bool = False) -> _T:
        """``step()``, or ``fallback`` with a note (``then``: what happens instead) when it raises."""
        try:
            return step()
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - one failing step must not sink the check
            self.notes.append(f"{name} failed: {_describe(exc)}; {then}")
            self.hold = self.hold or hold
            return fallback

    def verdict_step(self, name: str, step: Callable[[], Verdict], before: Verdict | None) -> Verdict:
        """A step of ``final_verdict`` (its ``guard``)."""
        try:
            verdict = step()
            problem = _invalid(verdict)
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - one failing step must not sink the check
            problem = _describe(exc)
        if problem is None:
            return verdict
        self.notes.append(f"{name} failed: {problem}; the answer needs review")
        self.hold = True
        if before is None:
            return Verdict(hallucinated=False, risk_score=0.5, risk_level="moderate", decision="review")
        return _review(before)

    def held(self, verdict: Verdict) -> Verdict:
        """``verdict``, accepted only when no step that bears on it failed."""
        return _review(verdict) if self.hold and verdict.decision == "accept" else verdict


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 300 else text[:299] + "…"


def _review(verdict: Verdict) -> Verdict:
    """``verdict`` as a review (the risk kept within the guideline's moderate tier)."""
    return dataclasses.replace(verdict, hallucinated=False, risk_score=min(verdict.risk_score, 0.6),
                               risk_level="moderate", decision="review")


def _invalid(verdict: object) -> str | None:
    """What makes ``verdict`` no Verdict a report can be made of, or None when it is one."""
    if not isinstance(verdict, Verdict):
        return f"returned {type(verdict).__name__}, not a Verdict"
    risk = verdict.risk_score
    if isinstance(risk, bool) or not isinstance(risk, (int, float)) or not math.isfinite(risk):
        return f"returned the risk {risk!r}, not a finite number"
    if verdict.risk_level not in ("low", "moderate", "high") or verdict.decision not in ("accept", "review", "reject"):
        return f"returned the level {verdict.risk_level!r} and decision {verdict.decision!r}"
    if not isinstance(verdict.notes, list) or not all(isinstance(n, str) for n in verdict.notes):
        return "returned notes that are not strings"
    if verdict.spans is not None and not (isinstance(verdict.spans, list) and all(isinstance(s, Span) for s in verdict.spans)):
        return "returned spans that are not Spans"
    return None


def _settle(stages: _Stages, analysis: CaseAnalysis, findings: list[Finding]) -> None:
    """The facts the verdict's safeguards read (:mod:`hallucheck.verdict_facts`), set for these
    findings under the error guard: when they cannot be computed the rule that reads them does not
    apply and the answer is not accepted."""
    stages.run("restatement facts", partial(settle_facts, analysis, findings), None,
               then="a restated answer is not told apart; the answer is not accepted", hold=True)


def _coverage(findings: list[Finding], answer_chars: int, intake: Intake | None) -> Coverage | None:
    coverage = merge_coverage(findings, answer_chars)
    return intake.coverage(coverage) if intake is not None else coverage


def _report_spans(chosen: list[Span], analysis: CaseAnalysis) -> list[Span]:
    answer = analysis.case.answer
    return tidy_spans(merge_spans(list(chosen), answer), answer, analysis.tokens)


def _span_order(span: Span) -> tuple[int, int]:
    return span.start, span.end


def _placed(intake: Intake, spans: list[Span], findings: list[Finding]) -> tuple[list[Span], list[Finding]]:
    return intake.spans(spans), intake.findings(findings)


def _needs_llm(name: str) -> bool:
    return detector_layer(name) == 5 and name != "claims"


def _takes_llm(name: str) -> bool:
    return detector_layer(name) == 5


def _safe_detect(det: Detector, analysis: CaseAnalysis) -> Finding:
    t0 = time.perf_counter()
    try:
        return det.detect(analysis)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - one failing detector must not sink the check
        return Finding(
            detector=det.name,
            role=getattr(det, "role", "other"),
            risk=0.0,
            error=f"{type(exc).__name__}: {exc}",
            notes=[f"detector failed: {type(exc).__name__}: {exc}"],
            latency_ms=(time.perf_counter() - t0) * 1000.0,
        )


def _total_cost(findings: list[Finding]) -> Cost:
    """The findings' costs added up (one Cost object, not one per finding as with ``Cost.add``)."""
    costs = [f.cost for f in findings]
    usd = 0.0
    for c in costs:  # added in order, as Cost.add does (sum() of floats may round differently)
        usd += c.usd
    return Cost(
        llm_calls=sum(c.llm_calls for c in costs),
        prompt_tokens=sum(c.prompt_tokens for c in costs),
        completion_tokens=sum(c.completion_tokens for c in costs),
        cached_calls=sum(c.cached_calls for c in costs),
        usd=usd,
    )


def _citations(findings: list[Finding]) -> CitationSummary | None:
    for f in findings:
        if f.citations is not None:
            return f.citations
    return None


def _policy_detectors(policy: str | Policy) -> tuple[str, ...] | None:
    """The detectors a policy file was fitted with (a policy named by path brings its own)."""
    if isinstance(policy, str) and policy != "default":
        if is_policy_file(policy):
            return tuple(load_policy_file(policy)["detectors"])
    return None


def _with_window(report: Report, window: SourceWindow, answer_chars: int) -> Report:
    """``report`` saying which part of over-long sources was not read (notes and coverage)."""
    cov = report.coverage or Coverage(answer_chars=answer_chars, checked_chars=answer_chars)
    note = "; ".join(n for n in (cov.note, window.note) if n)
    coverage = cov.model_copy(update={"note": note, "source_chars": window.source_chars,
                                      "unread_source_chars": window.source_chars - window.read_chars})
    return report.model_copy(update={"coverage": coverage, "notes": [window.note, *report.notes]})


def check(
    case: Case | Mapping[str, Any] | None = None,
    *,
    question: str | None = None,
    contexts: Sequence[Any] | None = None,
    answer: str | None = None,
    **options: Any,
) -> Report:
    """Check one answer with the default detectors and policy.

    >>> report = check(question="When was it founded?", contexts=["Founded in 2010 in Paris."],
    ...                answer="It was founded in 2010 in Paris by Jean Dupont.")
    """
    fields = {"question": question, "contexts": list(contexts) if contexts is not None else None, "answer": answer}
    case_fields = {k: options.pop(k) for k in ("task", "language", "citations_expected", "metadata") if k in options}
    return _default_checker(**options).check(case, **fields, **case_fields)


class _Same:
    """Wraps an object that has no value to compare (an LLM client, a policy object): equal only
    to itself, so two clients that print the same (same repr, other key) never share a Checker.
    Holding the object keeps its id from being reused while the cache entry lives."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


def _spec_key(value: Any) -> Any:
    """A hashable key equal for equal option values: plain data by value, anything else by identity."""
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return (type(value).__name__, value)
    if isinstance(value, Mapping):
        return ("map", tuple(sorted(((str(k), _spec_key(v)) for k, v in value.items()), key=lambda kv: kv[0])))
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_spec_key(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(_spec_key(v) for v in value))
    if isinstance(value, Budget):
        return ("budget", value.max_seconds, value.max_llm_calls)
    return ("object", _Same(value))


_DEFAULT_MAX = 16
_DEFAULT: dict[Any, Checker] = {}


def _default_checker(**options: Any) -> Checker:
    """A Checker per distinct set of options, reused (detectors keep their loaded models).

    Keyed by the options' values, never by their repr: objects without a value (LLM clients,
    detector or policy objects) match only themselves. At most ``_DEFAULT_MAX`` are kept; the
    oldest is dropped first.
    """
    key = _spec_key(options)
    checker = _DEFAULT.pop(key, None)
    if checker is None:
        checker = Checker(**options)
        while len(_DEFAULT) >= _DEFAULT_MAX:
            _DEFAULT.pop(next(iter(_DEFAULT)))
    _DEFAULT[key] = checker  # (re)inserted last: most recently used
    return checker
