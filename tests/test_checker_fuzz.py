"""Random check inputs within the documented limits: ``check`` never raises anything but InputError,
never hangs, and every offset of its report indexes the texts as given.

The inputs mix any Unicode (controls, format characters, CJK, emoji; lone surrogates, which are
an input error), runs of digits up to hundreds long, figures with units, invisible characters
inside words and figures, citation markers, and up to hundreds of tiny contexts. The default run
is small; ``-m slow`` runs more and larger examples.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hallucheck.cases import MAX_ANSWER_CHARS, MAX_SOURCE_CHARS
from hallucheck.checker import check
from hallucheck.errors import InputError
from hallucheck.types import TASKS, Report

INVISIBLE = list("\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u034f\ufe0f")
CONTROLS = list("\x00\x01\x08\x0b\x0c\x1b\x7f\x85\x9f\r\t\n\u2028\u2029")
WORDS = ["Lyon", "France", "Paris", "is", "not", "never", "the", "city", "in", "has", "founded", "inhabitants", "thousand",
         "million", "km", "%", "$", "€", "2010", "1999", "500", "3.5", "1,000", ".", ",", "?", "!", ";", "(", ")", "\"", "[1]",
         "[2]", "[Source 1]", " ", " ", " ", "\n\n", "巴黎", "是", "法国", "的", "首都", "。", "，", "nicht", "März", "Straße",
         "über", "années", "€5", "5km", "12:30", "2026-12-01", "Jan.", "Dr.", "e.g.", "COVID-19", "🇫🇷", "👩‍👩‍👧", "a\u0301"]

_piece = st.one_of(
    st.sampled_from(WORDS),
    st.sampled_from(WORDS),
    st.sampled_from(INVISIBLE),
    st.sampled_from(CONTROLS),
    st.text(st.characters(codec="utf-8"), max_size=12),
    st.text("0123456789", min_size=1, max_size=400),  # runs of digits
    st.sampled_from([308, 309, 310, 400, 1000]).map(lambda n: "1" * n),  # past what a float holds
    st.from_regex(r"[0-9]{1,15}([.,][0-9]{1,8})?( ?(thousand|million|billion|%|km|years))?", fullmatch=True),
)


def _texts(pieces: int) -> st.SearchStrategy[str]:
    return st.lists(_piece, max_size=pieces).map("".join)


@st.composite
def _cases(draw: st.DrawFn, pieces: int = 25, many: int = 300, repeat: int = 1) -> dict[str, Any]:
    texts = _texts(pieces)
    contexts: list[Any] = draw(st.one_of(
        st.lists(texts, min_size=1, max_size=4),
        st.lists(st.text(st.characters(codec="utf-8"), max_size=2), min_size=1, max_size=many),  # many tiny contexts
        st.lists(st.fixed_dictionaries({"id": st.text(st.characters(codec="utf-8"), min_size=1, max_size=4), "text": texts}),
                 min_size=1, max_size=3),
    ))
    answer = draw(st.one_of(texts, st.builds(lambda a, b: a + b, texts, texts)))
    if draw(st.booleans()) and isinstance(contexts[0], str):  # an answer that copies its source, marks and all
        answer = contexts[0] + answer[: len(answer) // 4]
    answer *= draw(st.integers(1, repeat))
    if draw(st.sampled_from([False] * 19 + [True])):
        answer += "\ud800"  # a lone surrogate now and then: an input error, never a crash
    return {
        "question": draw(_texts(5)),
        "contexts": contexts,
        "answer": answer,
        "task": draw(st.sampled_from([*TASKS, None])),
        "language": draw(st.sampled_from([None, None, None, "en", "zh", "de", "fr", "ja", "xx"])),
    }




def _holds(case: dict[str, Any]) -> None:
    """``check`` on ``case`` returns a report whose offsets index the texts and no detector or
    step of which failed, or raises InputError."""
    assert len(case["answer"]) <= MAX_ANSWER_CHARS
    assert sum(len(c if isinstance(c, str) else c["text"]) for c in case["contexts"]) <= MAX_SOURCE_CHARS
    try:
        report = check(**case)
    except InputError as exc:
        event(f"input error: {str(exc)[:60]}")
        return
    event(f"decision {report.decision}")
    event("spans" if report.spans else "no spans")
    for f in report.findings:
        assert f.error is None, (f.detector, f.error)
    for n in report.notes:
        assert " failed: " not in n, n
    _offsets_hold(report, case)
    assert report.decision in ("accept", "review", "reject")
    report.to_json()  # serialisable as the service sends it


def _offsets_hold(report: Report, case: dict[str, Any]) -> None:
    answer = case["answer"]
    texts = {str(i): c for i, c in enumerate(case["contexts"], start=1) if isinstance(c, str)}
    texts.update({c["id"]: c["text"] for c in case["contexts"] if isinstance(c, dict)})
    for span in report.spans + [s for f in report.findings for s in f.spans]:
        assert 0 <= span.start <= span.end <= len(answer), (span.detector, span.start, span.end, len(answer))
        assert span.text == answer[span.start : span.end], (span.detector, span.start, span.end)
        for ev in span.evidence:
            if ev.start is None or ev.end is None or ev.source_id not in texts:
                continue
            assert 0 <= ev.start <= ev.end <= len(texts[ev.source_id]), (span.detector, ev)
    for cov in [report.coverage] + [f.coverage for f in report.findings]:
        if cov is not None:
            assert all(0 <= a <= b <= len(answer) for a, b in cov.unchecked), cov


_FAST = settings(max_examples=30, deadline=timedelta(seconds=30), database=None, derandomize=False,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
_SLOW = settings(_FAST, max_examples=400)


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Load the default detectors' models once, so that no example's deadline pays for it."""
    check(question="q", contexts=["Lyon has 500 thousand inhabitants."], answer="Lyon has 500 thousand inhabitants.")


@pytest.mark.timeout(600)
@_FAST
@given(case=_cases())
def test_check_never_fails_on_legal_input(case: dict[str, Any]) -> None:
    _holds(case)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@_SLOW
@given(case=_cases(pieces=200, many=5000, repeat=40))
def test_check_never_fails_on_legal_input_many_examples(case: dict[str, Any]) -> None:
    _holds(case)
