"""Guard(stop_early=True): the first generation is checked while it streams and stopped at the
first rejected sentence; the answer so far is then checked and repaired as usual."""

from __future__ import annotations

import asyncio

from scripted_checker import ScriptedChecker

from hallucheck import Checker
from hallucheck.llm.fake import FakeLLM
from hallucheck.prevent.guard import Guard

SOURCES = [{"id": "FAQ-1", "text": "Click Forgot password."}, {"id": "FAQ-2", "text": "The link is valid for 24 hours."}]
Q = "How do I reset my password?"
GOOD = "Click Forgot password [source:FAQ-1]."
BAD = ("Click Forgot password [source:FAQ-1]. The link is CRIT valid forever. "
       "Then you wait for an email that explains every further step in detail. And more text follows here.")


def test_a_rejected_sentence_stops_the_generation_and_is_repaired() -> None:
    llm = FakeLLM([BAD, GOOD], stream_piece=4)
    result = Guard(llm, ScriptedChecker(), stop_early=True).answer(Q, SOURCES)
    first = llm.calls[0]
    assert first.stopped and first.streamed is not None
    assert len(first.streamed) < BAD.index("Then you wait") + 8  # stopped right after the bad sentence ended
    assert result.stopped_early
    assert result.attempts[0].answer == "Click Forgot password [source:FAQ-1]. The link is CRIT valid forever."
    assert "stopped early at sentence 2 (reject" in result.attempts[0].note
    assert any("generation stopped after sentence 2" in n for n in result.notes)
    assert result.answer == GOOD and result.repaired and result.risk_level == "low"


def test_without_stop_early_the_whole_answer_is_generated() -> None:
    llm = FakeLLM([BAD, GOOD], stream_piece=4)
    result = Guard(llm, ScriptedChecker()).answer(Q, SOURCES)
    assert not llm.calls[0].stopped and llm.calls[0].streamed is None  # not even streamed
    assert result.attempts[0].answer == BAD and not result.stopped_early


def test_a_clean_stream_runs_to_its_end() -> None:
    llm = FakeLLM([GOOD + " The link is valid for 24 hours [source:FAQ-2]."], stream_piece=3)
    result = Guard(llm, ScriptedChecker(), stop_early=True).answer(Q, SOURCES)
    assert not llm.calls[0].stopped and not result.stopped_early
    assert result.answer == GOOD + " The link is valid for 24 hours [source:FAQ-2]."


def test_async_guard_stops_too() -> None:
    llm = FakeLLM([BAD, GOOD], stream_piece=4)
    result = asyncio.run(Guard(llm, ScriptedChecker(), stop_early=True).aanswer(Q, SOURCES))
    assert llm.calls[0].stopped and result.stopped_early and result.answer == GOOD


def test_prompts_whose_output_is_not_the_answer_are_not_watched() -> None:
    llm = FakeLLM([BAD, GOOD])
    result = Guard(llm, ScriptedChecker(), stop_early=True, strategy="chain_of_thought").answer(Q, SOURCES)
    assert not llm.calls[0].stopped and not result.stopped_early
    assert any("chain_of_thought prompt's raw output is not the answer" in n for n in result.notes)


def test_with_the_real_detectors() -> None:
    sources = [{"id": "1", "text": "The Eiffel Tower is 330 metres tall. It was completed in 1889."}]
    answer = ("The Eiffel Tower was completed in 1889 [1]. It is 450 metres tall [1]. "
              "It was painted red in 1920 and again in 1950, and it will be painted again in 2030 [1].")
    llm = FakeLLM([answer, "The Eiffel Tower is 330 metres tall [1]."], stream_piece=5)
    checker = Checker(["numbers", "citations"], "vote", citations_expected=True)
    # the contradicted height stops the generation: the vote's one signal would make the sentence
    # "review", and a contradicted English figure puts a floor under it (reject)
    result = Guard(llm, checker, stop_early=True, stop_on=("review", "reject")).answer("How tall is the Eiffel Tower?", sources)
    assert llm.calls[0].stopped and result.stopped_early
    assert result.attempts[0].answer == "The Eiffel Tower was completed in 1889 [1]. It is 450 metres tall [1]."
    assert "painted" not in (llm.calls[0].streamed or "")
    assert "stopped early at sentence 2 (reject" in result.attempts[0].note and "contradiction" in result.attempts[0].note
