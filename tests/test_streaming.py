"""Checker.stream: a check per sentence as soon as it is complete, and the same report as check()."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hallucheck import Checker, InputError, Report
from hallucheck.streaming import CheckStream, SentenceCheck
from hallucheck.text import split_sentences
from tests.scripted_checker import ScriptedChecker

CASES = {
    "en": (
        "The Eiffel Tower was completed in 1889 in Paris. It is 330 metres tall and was designed by the company of Gustave Eiffel.",
        "The Eiffel Tower was completed in 1889. It is 450 metres tall and was built by Napoleon! Is it in Paris? Yes, in Paris.",
    ),
    "zh": (
        "埃菲尔铁塔于1889年在巴黎建成。塔高330米，由古斯塔夫·埃菲尔的公司设计。",
        "埃菲尔铁塔于1889年建成。塔高450米，由拿破仑建造！它在巴黎吗？是的，在巴黎。",
    ),
    "de": (
        "Der Eiffelturm wurde 1889 in Paris fertiggestellt. Er ist 330 Meter hoch und wurde von der Firma von Gustave Eiffel entworfen.",
        "Der Eiffelturm wurde 1889 fertiggestellt. Er ist 450 Meter hoch und wurde von Napoleon gebaut. Er steht z.B. in Paris.",
    ),
    "fr": (
        "La tour Eiffel a été achevée en 1889 à Paris. Elle mesure 330 mètres et a été conçue par l'entreprise de Gustave Eiffel.",
        "La tour Eiffel a été achevée en 1889. Elle mesure 450 mètres et a été construite par Napoléon ! Est-elle à Paris ? Oui.",
    ),
}


@pytest.fixture(scope="module")
def checker() -> Checker:
    return Checker()


def _comparable(report: Report) -> dict[str, Any]:
    """A report without its timings (wall clock differs from run to run)."""
    data = report.model_dump()
    data.pop("timings_ms")
    for f in data["findings"]:
        f.pop("latency_ms")
    return data


def _feed(stream: CheckStream, answer: str, size: int) -> list[tuple[int, SentenceCheck]]:
    """Feed ``answer`` in pieces; each result with how many characters had been fed then."""
    out = []
    for i in range(0, len(answer), size):
        out += [(i + size, r) for r in stream.feed(answer[i : i + size])]
    out += [(len(answer), r) for r in stream.flush()]
    return out


@pytest.mark.parametrize("lang", sorted(CASES))
def test_close_gives_the_same_report_as_check(checker: Checker, lang: str) -> None:
    source, answer = CASES[lang]
    stream = checker.stream(question="Tell me about the tower.", contexts=[source])
    _feed(stream, answer, 3)
    streamed = stream.close()
    whole = checker.check(question="Tell me about the tower.", contexts=[source], answer=answer)
    assert _comparable(streamed) == _comparable(whole)
    assert stream.close() is streamed  # closing twice gives the same report


@pytest.mark.parametrize("lang", sorted(CASES))
def test_each_sentence_as_soon_as_it_is_complete(checker: Checker, lang: str) -> None:
    source, answer = CASES[lang]
    stream = checker.stream(question="Tell me about the tower.", contexts=[source], language=lang)
    got = _feed(stream, answer, 1)
    sentences = split_sentences(answer)
    assert [r.text for _, r in got] == [s.text for s in sentences]
    assert [r.index for _, r in got] == list(range(len(sentences)))
    for (fed, result), seg, nxt in zip(got, sentences, [*sentences[1:], None], strict=True):
        assert (result.start, result.end) == (seg.start, seg.end)
        assert answer[result.start : result.end] == result.text
        # out before the answer ended: at the latest once the next sentence's first character came
        assert fed <= (nxt.start + 1 if nxt is not None else len(answer))
        for span in result.spans:
            assert result.start <= span.start < span.end <= result.end
            assert answer[span.start : span.end] == span.text
        assert result.labels == sorted({s.label for s in result.spans})
    assert stream.sentences == [r for _, r in got]


def test_the_made_up_sentence_is_the_flagged_one(checker: Checker) -> None:
    source, answer = CASES["en"]
    stream = checker.stream(question="Tell me about the tower.", contexts=[source])
    results = [r for _, r in _feed(stream, answer, 5)]
    assert results[0].decision == "accept" and not results[0].spans
    assert results[1].hallucinated and results[1].risk_level == "high"
    assert any("450" in s.text or "Napoleon" in s.text for s in results[1].spans)


class _Recording(ScriptedChecker):
    def __init__(self, citations_expected: bool | None = None) -> None:
        super().__init__()
        self.citations_expected = citations_expected
        self.cases: list[Any] = []

    def check(self, case: Any) -> Report:
        self.cases.append(case)
        return super().check(case)


def test_citations_used_earlier_are_expected_later() -> None:
    checker = _Recording()
    stream = CheckStream(checker, _case(), sentence_checker=checker)
    stream.feed("It is a fine sentence. It opened in 2011 [1]. It employs 400 people.")
    stream.close()
    # checked alone, the last sentence has no marker; the answer cites, so it is expected to
    assert [c.citations_expected for c in checker.cases[:3]] == [None, True, True]
    assert [c.answer for c in checker.cases[:3]] == ["It is a fine sentence.", "It opened in 2011 [1].", "It employs 400 people."]


def test_the_callers_citation_setting_wins() -> None:
    for given in (True, False):
        checker = _Recording(citations_expected=given)
        stream = CheckStream(checker, _case())
        stream.feed("It opened in 2011 [1]. It employs 400 people. ")
        stream.flush()
        assert [c.citations_expected for c in checker.cases] == [given, given]


def test_sentence_checker_checks_the_sentences() -> None:
    scripted = ScriptedChecker()
    report_checker = ScriptedChecker()
    stream = CheckStream(report_checker, _case(), sentence_checker=scripted)
    assert [r.decision for r in stream.feed("One fine sentence. A HIGH one. ")] == ["accept"]
    assert [r.decision for r in stream.feed("Then")] == ["reject"]
    [last] = stream.flush()
    assert last.text == "Then"
    report = stream.close()
    assert scripted.checked == ["One fine sentence.", "A HIGH one.", "Then"]
    assert report_checker.checked == ["One fine sentence. A HIGH one. Then"]
    assert report.risk_level == "high" and report.spans[0].start == 21


def _case() -> Any:
    from hallucheck.streaming import stream_case

    return stream_case(question="q", contexts=["a source"])


def test_bad_use_is_an_input_error(checker: Checker) -> None:
    with pytest.raises(InputError, match="contexts"):
        checker.stream(question="q", contexts=[])
    with pytest.raises(InputError, match="feed"):
        checker.stream(question="q", contexts=["s"], answer="given whole")
    stream = checker.stream(question="q", contexts=["s"])
    with pytest.raises(InputError, match="text"):
        stream.feed(b"bytes")  # type: ignore[arg-type]
    stream.close()
    with pytest.raises(InputError, match="closed"):
        stream.feed("more")


def test_empty_answer_closes_like_check(checker: Checker) -> None:
    stream = checker.stream(question="q", contexts=["a source"])
    assert stream.feed("") == [] and stream.flush() == []
    report = stream.close()
    assert report.decision == "review" and report.notes[0].startswith("the answer is empty")


def test_answer_over_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = CheckStream(ScriptedChecker(), _case(), max_answer_chars=10)
    stream.feed("12345")
    with pytest.raises(InputError, match="limit"):
        stream.feed("678901")


def test_async_feed_and_close(checker: Checker) -> None:
    source, answer = CASES["en"]
    stream = checker.stream(question="q", contexts=[source])

    async def run() -> tuple[list[SentenceCheck], Report]:
        got = await stream.afeed(answer)
        got += await stream.aflush()
        return got, await stream.aclose()

    got, report = asyncio.run(run())
    assert len(got) == len(split_sentences(answer))
    assert report.risk_level == "high"
