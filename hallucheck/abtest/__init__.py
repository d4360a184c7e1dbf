"""Prompt A/B testing (RAG prompting guide): strategies × cases × one LLM backend, scored and reported.

    >>> from hallucheck.abtest import ABTester, demo_cases, write_report
    >>> result = ABTester(llm).run(demo_cases())
    >>> write_report(result, "abtest-report")
"""

from hallucheck.abtest.cases import ABCase, demo_cases, load_cases
from hallucheck.abtest.report import render_html, render_markdown, write_report
from hallucheck.abtest.runner import ABTester, ABTestResult
from hallucheck.abtest.scoring import CaseRun, StrategySummary, Weights, keyword_coverage, parse_weights, summarize

__all__ = [
    "ABCase",
    "ABTestResult",
    "ABTester",
    "CaseRun",
    "StrategySummary",
    "Weights",
    "demo_cases",
    "keyword_coverage",
    "load_cases",
    "parse_weights",
    "render_html",
    "render_markdown",
    "summarize",
    "write_report",
]
