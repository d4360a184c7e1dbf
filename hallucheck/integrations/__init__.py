"""Adapters that put hallucheck where RAG applications are evaluated already.

- ``hallucheck.integrations.langchain``: ``HallucheckEvaluator``, a LangSmith ``RunEvaluator``
  (what langchain-core 1.x runs through ``EvaluatorCallbackHandler``) that also takes
  ``evaluate_strings(...)`` calls. Extra ``[langchain]``.
- ``hallucheck.integrations.llamaindex``: ``HallucheckEvaluator``, a LlamaIndex ``BaseEvaluator``
  returning ``EvaluationResult``. Extra ``[llamaindex]``.

Each module imports its framework, so import the one you use; ``import hallucheck`` never does.
"""

from hallucheck.integrations.common import missing_extra

__all__ = ["missing_extra"]
