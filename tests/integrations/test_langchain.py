"""The LangChain adapter inside a real langchain-core chain, evaluated by EvaluatorCallbackHandler."""

from __future__ import annotations

import socket
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.documents import Document
from langchain_core.language_models import FakeListLLM
from langchain_core.prompts import PromptTemplate
from langchain_core.runnables import (
    RunnableLambda,
    RunnableParallel,
    RunnablePassthrough,
)
from langchain_core.tracers.evaluation import EvaluatorCallbackHandler

from hallucheck import Checker, InputError
from hallucheck.integrations.langchain import HallucheckEvaluator

DOCS = [
    Document(page_content="The Eiffel Tower was completed in 1889 in Paris."),
    Document(page_content="It is 330 metres tall and was designed by the company of Gustave Eiffel."),
]
GOOD = "The Eiffel Tower was completed in 1889 [1]. It is 330 metres tall [2]."
BAD = "The Eiffel Tower was completed in 1889 [1]. It is 450 metres tall [4]."


class _FeedbackSink:
    """Stands in for the LangSmith client: records feedback, answers any other call with None."""

    def __init__(self) -> None:
        self.feedback: list[dict[str, Any]] = []

    def create_feedback(self, run_id: Any, key: str, **kwargs: Any) -> None:
        self.feedback.append({"run_id": run_id, "key": key, **kwargs})

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2"):
        monkeypatch.setenv(var, "false")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"network use: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.fixture(scope="module")
def evaluator() -> HallucheckEvaluator:
    return HallucheckEvaluator(Checker(["numbers", "citations"], "vote"))


def _chain(answer: str) -> Any:
    retriever = RunnableLambda(lambda question: DOCS)
    prompt = PromptTemplate.from_template("Sources: {context}\nQuestion: {question}\nAnswer:")
    return RunnableParallel(context=retriever, question=RunnablePassthrough()).assign(
        answer=prompt | FakeListLLM(responses=[answer])
    )


@pytest.mark.parametrize(("answer", "passing"), [(GOOD, True), (BAD, False)])
def test_evaluator_callback_grades_each_run(evaluator: HallucheckEvaluator, no_network: None, answer: str, passing: bool) -> None:
    sink = _FeedbackSink()
    handler = EvaluatorCallbackHandler(evaluators=[evaluator], client=sink, max_concurrency=0)  # type: ignore[arg-type]
    out = _chain(answer).invoke("How tall is the Eiffel Tower?", config={"callbacks": [handler]})
    assert out["answer"] == answer
    [result] = [r for results in handler.logged_eval_results.values() for r in results]
    assert result.key == "hallucheck_groundedness"
    assert result.metadata["passing"] is passing
    assert result.value == ("accept" if passing else "reject")
    assert (result.score == 1.0) is passing
    [fed] = sink.feedback
    assert fed["key"] == "hallucheck_groundedness" and fed["score"] == result.score
    if not passing:
        assert "contradiction (score 0.80, numbers): '450'" in fed["comment"]
        assert "invalid_citation" in fed["comment"] and "[4]" in fed["comment"]


def test_serialised_runs_and_examples(evaluator: HallucheckEvaluator) -> None:
    run = SimpleNamespace(
        id="run-1",
        inputs={"query": "How tall is it?"},
        outputs={"output": {"lc": 1, "type": "constructor", "kwargs": {"content": BAD}},
                 "source_documents": [{"lc": 1, "type": "constructor", "kwargs": {"page_content": d.page_content}}
                                      for d in DOCS]},
    )
    result = evaluator.evaluate_run(run)
    assert result.value == "reject" and result.metadata["report"]["spans"]

    bare = SimpleNamespace(id="run-2", inputs={"question": "q"}, outputs={"answer": GOOD})
    example = SimpleNamespace(inputs={"contexts": [d.page_content for d in DOCS]}, outputs=None)
    assert evaluator.evaluate_run(bare, example).value == "accept"
    with pytest.raises(InputError, match="no contexts"):
        evaluator.evaluate_run(bare)


def test_evaluate_strings_convention(evaluator: HallucheckEvaluator) -> None:
    got = evaluator.evaluate_strings(prediction=BAD, input="How tall?", reference=[d.page_content for d in DOCS])
    assert got["value"] == "reject" and got["passing"] is False and "450" in got["reasoning"]
    got = evaluator.evaluate_strings(prediction=GOOD, input="How tall?", contexts=DOCS)
    assert got["value"] == "accept" and got["score"] == 1.0
    with pytest.raises(InputError):
        evaluator.evaluate_strings(prediction=GOOD)


def test_threshold_and_async(no_network: None) -> None:
    import asyncio

    lenient = HallucheckEvaluator(Checker(["numbers"], "weighted"), threshold=0.99)
    strict = HallucheckEvaluator(Checker(["numbers"], "weighted"), threshold=0.0)
    run = SimpleNamespace(id="r", inputs={"question": "q"}, outputs={"answer": BAD, "context": DOCS})
    assert asyncio.run(lenient.aevaluate_run(run)).metadata["passing"] is True
    assert asyncio.run(strict.aevaluate_run(run)).metadata["passing"] is False
    with pytest.raises(ValueError):
        HallucheckEvaluator(threshold=1.5)
