"""Detectors, one per module, registered by name and imported only when used."""

from hallucheck.detectors.base import (
    LAYERS,
    BaseDetector,
    Detector,
    UnknownDetectorError,
    available_detectors,
    detector_layer,
    get_detector,
    register,
    register_lazy,
)

__all__ = [
    "LAYERS",
    "BaseDetector",
    "Detector",
    "UnknownDetectorError",
    "available_detectors",
    "detector_layer",
    "get_detector",
    "register",
    "register_lazy",
]

# Built-in detectors: name -> implementation, imported on first use.
for _name, _path, _layer in (
    ("citations", "hallucheck.detectors.rules.citations:CitationDetector", 1),
    ("lexicon", "hallucheck.detectors.rules.lexicon:LexiconDetector", 1),
    ("numbers", "hallucheck.detectors.rules.numbers:NumbersDetector", 1),
    ("opposites", "hallucheck.detectors.rules.opposites:OppositesDetector", 1),
    ("ngram", "hallucheck.detectors.lexical.ngram:NgramDetector", 2),
    ("overlap", "hallucheck.detectors.lexical.overlap:OverlapDetector", 2),
    ("semantic", "hallucheck.detectors.semantic.semantic:SemanticDetector", 3),
    ("ngram_semantic", "hallucheck.detectors.semantic.ngram_semantic:ParaphraseNgramDetector", 3),
    ("model", "hallucheck.detectors.model.model:ModelDetector", 4),
    ("nli", "hallucheck.detectors.model.nli:NLIDetector", 4),
    ("consistency", "hallucheck.detectors.model.consistency:ConsistencyDetector", 4),
    ("triplets", "hallucheck.detectors.model.triplets:TripletsDetector", 4),
    ("llm_judge", "hallucheck.detectors.llm.llm_judge:LLMJudgeDetector", 5),
    ("two_step", "hallucheck.detectors.llm.two_step:TwoStepDetector", 5),
    ("claims", "hallucheck.detectors.llm.claims:ClaimsDetector", 5),
    ("self_consistency", "hallucheck.detectors.llm.self_consistency:SelfConsistencyDetector", 5),
    ("knowledge", "hallucheck.detectors.llm.knowledge:KnowledgeDetector", 5),
):
    register_lazy(_name, _path, _layer)
