"""One labelled sentence pair for the pair model, its labels, and the source group pairs share
(the pieces that the pair sources, :mod:`hallucheck.train.pair_data` and
:mod:`hallucheck.train.pair_minimal`, both build on)."""

from __future__ import annotations

from dataclasses import dataclass

from hallucheck.eval.datasets import Example

__all__ = ["PAIR_LABELS", "PairExample", "source_group"]

PAIR_LABELS: tuple[str, str, str] = ("entailment", "neutral", "contradiction")


@dataclass(frozen=True)
class PairExample:
    """One (premise, hypothesis) pair with its label index into :data:`PAIR_LABELS`.

    ``group`` is the split key of the source the answer came from (edits share their original's),
    ``kind`` what made the pair (``ragtruth``, an edit name, ``synth:<edit>``), for sampling and
    for reporting per kind; ``language`` the answer's language.
    """

    premise: str
    hypothesis: str
    label: int
    group: str
    kind: str
    language: str = "en"
    index: int = -1  # the sentence's position in its answer


def source_group(example: Example) -> str:
    """The split key of the source an example's answer came from (its pairs share it)."""
    meta = example.case.metadata if isinstance(example.case.metadata, dict) else {}
    return str(meta.get("source_key") or meta.get("source_doc") or meta.get("id") or "")
