"""The stack features a fitted policy reads: one registry of their names, and how a case's
findings become them.

A feature is named ``case.<name>`` (the case itself: its task, length, sentence count, whether
answer and sources are in different languages) or ``<detector>.<what>``: ``risk`` and ``flagged``
from the detector's finding, ``f.<key>`` from its ``Finding.features``. The keys each detector
gives are listed here once, so that a spec naming a feature no detector gives fails when it is
loaded (``hallucheck.policies.learned_spec``), and a detector that renames or drops a key fails its
test (``tests/policies/test_features.py`` runs the detectors against this registry) instead of
leaving the policy to read nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from hallucheck.types import RAGTRUTH_TASKS

__all__ = ["CASE_FEATURES", "DETECTOR_FEATURES", "MARKER_EVIDENCE", "FINDING_FEATURES", "case_features", "is_known_feature",
           "register_features", "stack_features", "unknown_features"]

# The case's own features (``case_features``).
CASE_FEATURES: frozenset[str] = frozenset(
    {f"case.task_{t}" for t in RAGTRUTH_TASKS} | {"case.answer_kchars", "case.sentences", "case.cross_lingual"}
)

# What every finding gives: its risk and whether it flagged the answer.
FINDING_FEATURES: frozenset[str] = frozenset({"risk", "flagged"})

# The keys of ``Finding.features`` each detector gives (the learned policy's detectors).
DETECTOR_FEATURES: dict[str, frozenset[str]] = {
    "citations": frozenset({"claims", "expected", "invalid_markers", "long_claim_fraction", "long_claims"}),
    "lexicon": frozenset({"fabrication", "fabrication_occurrences", "in_sources", "per_100_words", "speculation",
                          "speculation_occurrences"}),
    "numbers": frozenset({"contradicted_numbers", "entities", "frac_unsupported", "frac_unsupported_entities",
                          "frac_unsupported_numbers", "numbers", "unsupported_entities", "unsupported_numbers"}),
    "opposites": frozenset({"opposites_checked", "opposites_fields", "opposites_names", "opposites_negations",
                            "opposites_swaps", "opposites_words"}),
    "ngram": frozenset({"content_tokens", "flagged_fraction", "max_novelty", "mean_novelty", "novel_token_fraction",
                        "novelty", "novelty_n1", "novelty_n2", "sentences", "worst_novel_count"}),
    "overlap": frozenset({"flagged_fraction", "mean_sentence_precision", "min_sentence_precision", "rougeL_fmeasure",
                          "rougeL_precision", "rougeL_recall", "sentences"}),
    # the span tagger; the last two come from a typed tagger (supported / conflict / baseless per token)
    "model": frozenset({"model_max", "model_top3_mean", "model_mean", "model_frac_above", "model_sent_max_mean",
                        "model_sent_frac_flagged", "model_n_spans", "model_span_chars_frac", "model_conflict_max",
                        "model_n_contradiction_spans"}),
}

# Detectors whose risk and verdict come from the answer's citation markers (coverage, ratio): a
# fitted stack reads only their marker-independent features (the answer's shape, invalid ids), so
# that correct citations never count for or against an answer.
MARKER_EVIDENCE: frozenset[str] = frozenset({"citations"})


def register_features(detector: str, keys: Iterable[str]) -> None:
    """Make the ``Finding.features`` keys of a detector of your own known, so that a policy fitted
    on it (``hallucheck calibrate`` with that detector) loads."""
    DETECTOR_FEATURES[detector] = DETECTOR_FEATURES.get(detector, frozenset()) | frozenset(keys)


def is_known_feature(name: str) -> bool:
    """Whether ``name`` is a feature of the registry."""
    if name.startswith("case."):
        return name in CASE_FEATURES
    detector, _, what = name.partition(".")
    if detector not in DETECTOR_FEATURES:
        return False
    if what in FINDING_FEATURES:
        return detector not in MARKER_EVIDENCE
    return what.startswith("f.") and what[2:] in DETECTOR_FEATURES[detector]


def unknown_features(names: Iterable[str]) -> list[str]:
    """The names that are not features of the registry, in their order."""
    return [n for n in names if not is_known_feature(n)]


def case_features(task: str | None, answer_chars: int, sentences: int, cross_lingual: bool | None = None) -> dict[str, float]:
    """The case's own stack features. ``cross_lingual`` (answer and sources in different
    languages) is left out when unknown, so that caches collected before it existed fit as before:
    over a source in another language every word of the answer is new to the lexical detectors,
    and only this feature tells a fit that the novelty then says nothing."""
    out = {f"case.task_{t}": float(task == t) for t in RAGTRUTH_TASKS}
    out["case.answer_kchars"] = answer_chars / 1000.0
    out["case.sentences"] = float(sentences)
    if cross_lingual is not None:
        out["case.cross_lingual"] = float(cross_lingual)
    return out


def stack_features(summaries: Mapping[str, Mapping[str, Any]], case: Mapping[str, float]) -> dict[str, float]:
    """Flat feature dict from per-detector summaries {name: {risk, flagged, features}}."""
    out = dict(case)
    for name, s in summaries.items():
        if name not in MARKER_EVIDENCE:
            out[f"{name}.risk"] = float(s.get("risk", 0.0))
            out[f"{name}.flagged"] = float(bool(s.get("flagged", False)))
        for k, v in (s.get("features") or {}).items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(float(v)):
                out[f"{name}.f.{k}"] = float(v)
            elif isinstance(v, bool):
                out[f"{name}.f.{k}"] = float(v)
    return out
