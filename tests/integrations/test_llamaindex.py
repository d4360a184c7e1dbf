"""The LlamaIndex adapter as a real BaseEvaluator: evaluate, evaluate_response, BatchEvalRunner."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("llama_index.core")

from llama_index.core.base.response.schema import Response
from llama_index.core.evaluation import BaseEvaluator, BatchEvalRunner, EvaluationResult
from llama_index.core.schema import NodeWithScore, TextNode

from hallucheck import Checker, InputError
from hallucheck.integrations.llamaindex import HallucheckEvaluator

SOURCES = ["The Eiffel Tower was completed in 1889 in Paris.", "It is 330 metres tall and was designed by the company of Gustave Eiffel."]
GOOD = "The Eiffel Tower was completed in 1889 [1]. It is 330 metres tall [2]."
BAD = "The Eiffel Tower was completed in 1889 [1]. It is 450 metres tall [4]."


@pytest.fixture(scope="module")
def evaluator() -> HallucheckEvaluator:
    return HallucheckEvaluator(Checker(["numbers", "citations"], "vote"))


def test_is_a_base_evaluator(evaluator: HallucheckEvaluator) -> None:
    assert isinstance(evaluator, BaseEvaluator)
    assert evaluator.get_prompts() == {}


def test_evaluate(evaluator: HallucheckEvaluator) -> None:
    good = evaluator.evaluate(query="How tall?", response=GOOD, contexts=SOURCES)
    assert isinstance(good, EvaluationResult)
    assert good.passing is True and good.score == 1.0 and good.contexts == SOURCES
    bad = evaluator.evaluate(query="How tall?", response=BAD, contexts=SOURCES)
    assert bad.passing is False and bad.score == 0.0
    assert "contradiction (score 0.80, numbers): '450'" in bad.feedback
    assert "invalid citations: 4" in bad.feedback
    assert {s["label"] for s in bad.report["spans"]} == {"contradiction", "invalid_citation"}
    with pytest.raises(InputError):
        evaluator.evaluate(query="q", response=GOOD)


def test_evaluate_response_reads_the_source_nodes(evaluator: HallucheckEvaluator) -> None:
    nodes = [NodeWithScore(node=TextNode(text=t), score=0.9) for t in SOURCES]
    result = evaluator.evaluate_response(query="How tall?", response=Response(response=BAD, source_nodes=nodes))
    assert result.passing is False and result.response == BAD
    result = asyncio.run(evaluator.aevaluate_response(query="How tall?", response=Response(response=GOOD, source_nodes=nodes)))
    assert result.passing is True


def test_batch_eval_runner(evaluator: HallucheckEvaluator) -> None:
    runner = BatchEvalRunner({"hallucheck": evaluator}, workers=2)
    results = asyncio.run(runner.aevaluate_response_strs(
        queries=["How tall?", "How tall?"], response_strs=[GOOD, BAD], contexts_list=[SOURCES, SOURCES]))
    assert [r.passing for r in results["hallucheck"]] == [True, False]


def test_threshold() -> None:
    lenient = HallucheckEvaluator(Checker(["numbers"], "weighted"), threshold=0.99)
    assert lenient.evaluate(query="q", response=BAD, contexts=SOURCES).passing is True
    with pytest.raises(ValueError):
        HallucheckEvaluator(threshold=-1)
