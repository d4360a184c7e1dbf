"""External knowledge sources for factual grounding (production pipeline guide): a protocol and a local BM25 index."""

from typing import Any

from hallucheck.knowledge.base import KnowledgeSource, Passage, Verification, lexical_verify

__all__ = ["KnowledgeSource", "Passage", "Verification", "lexical_verify", "BM25Index"]


def __getattr__(name: str) -> Any:
    if name == "BM25Index":  # bm25s is an optional extra: import it only when asked
        from hallucheck.knowledge.bm25 import BM25Index  # lazy: loaded only on this path

        return BM25Index
    raise AttributeError(name)
