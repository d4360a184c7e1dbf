"""Prometheus metrics, one registry per app so that several apps (tests) never share counters.

Counters follow the detection guideline's monitoring list: checks by risk level, invalid citations, uncited
sentences; plus detector latencies and LLM calls and tokens, which drive cost.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from hallucheck.types import Report

__all__ = ["ServiceMetrics", "CONTENT_TYPE_LATEST"]

# The *_created timestamp series double the output and nobody graphs them.
disable_created_metrics()

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class ServiceMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.checks = Counter("hallucheck_checks", "Checks served, by risk level and decision",
                              ["risk_level", "decision"], registry=r)
        self.hallucinated = Counter("hallucheck_hallucinated", "Checks whose answer was judged hallucinated", registry=r)
        self.invalid_citations = Counter("hallucheck_invalid_citations", "Invalid citations found", registry=r)
        self.checks_with_invalid = Counter("hallucheck_checks_with_invalid_citations",
                                           "Checks with at least one invalid citation", registry=r)
        self.uncited = Counter("hallucheck_uncited_sentences", "Long sentences without a citation", registry=r)
        self.checks_with_uncited = Counter("hallucheck_checks_with_uncited_sentences",
                                           "Checks with at least one uncited long sentence", registry=r)
        self.spans = Counter("hallucheck_spans", "Flagged spans, by label", ["label"], registry=r)
        self.risk = Histogram("hallucheck_risk_score", "Risk score of served checks", registry=r,
                              buckets=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0))
        self.check_seconds = Histogram("hallucheck_check_seconds", "Wall time of one check (detectors + policy)",
                                       registry=r, buckets=_LATENCY_BUCKETS)
        self.detector_seconds = Histogram("hallucheck_detector_seconds", "Latency of one detector on one case",
                                          ["detector"], registry=r, buckets=_LATENCY_BUCKETS)
        self.detector_errors = Counter("hallucheck_detector_errors", "Detector failures (the check went on)",
                                       ["detector"], registry=r)
        self.llm_calls = Counter("hallucheck_llm_calls", "LLM calls made by detectors", registry=r)
        self.llm_tokens = Counter("hallucheck_llm_tokens", "LLM tokens, by kind", ["kind"], registry=r)
        self.requests = Counter("hallucheck_http_requests", "HTTP requests by route and status",
                                ["route", "status"], registry=r)
        self.stored = Counter("hallucheck_checks_stored", "Checks committed to the store", registry=r)
        self.refused = Counter("hallucheck_requests_refused",
                               "Requests not served: busy (no capacity before the deadline), timeout "
                               "(the check passed the deadline), slow_client (headers or body too slow)",
                               ["reason"], registry=r)

    def observe(self, report: Report, seconds: float) -> None:
        self.checks.labels(report.risk_level, report.decision).inc()
        if report.hallucinated:
            self.hallucinated.inc()
        cit = report.citations
        invalid = len(cit.invalid) if cit else 0
        uncited = cit.uncited_count if cit else 0
        self.invalid_citations.inc(invalid)
        self.uncited.inc(uncited)
        if invalid:
            self.checks_with_invalid.inc()
        if uncited:
            self.checks_with_uncited.inc()
        for s in report.spans:
            self.spans.labels(s.label).inc()
        self.risk.observe(report.risk_score)
        self.check_seconds.observe(seconds)
        for f in report.findings:
            self.detector_seconds.labels(f.detector).observe(f.latency_ms / 1000.0)
            if f.error:
                self.detector_errors.labels(f.detector).inc()
        self.llm_calls.inc(report.cost.llm_calls)
        self.llm_tokens.labels("prompt").inc(report.cost.prompt_tokens)
        self.llm_tokens.labels("completion").inc(report.cost.completion_tokens)

    def render(self) -> bytes:
        return generate_latest(self.registry)
