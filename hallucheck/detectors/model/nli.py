"""Layer 4: a sentence-pair verifier (NLI) judges each answer sentence against its evidence.

Each answer sentence is the hypothesis; the premise is its best evidence — the source sentences
the semantic layer aligned to it (``analysis.facts.sentence_alignment``) when that ran, else
the top units of a lexical retrieval over the sources. A sentence whose contradiction probability
reaches ``threshold`` becomes a ``contradiction`` span; one that is neither entailed nor
contradicted (entailment below ``1 - threshold``) becomes a ``baseless`` span with a lower score,
unless ``baseless_spans`` is off. A model's ``config.json`` may set both defaults (``threshold``,
``baseless_spans``): a model trained with most entailed sentences left out (as ``hallucheck
train-pairs`` does) gives an entailment that is no verdict on its own, and may be precise only
near the top of its contradiction probability.

The model: ``model_path`` or ``HALLUCHECK_NLI_MODEL`` names a local NLI cross-encoder (see
:mod:`hallucheck.models.nli` for the accepted layouts); without either, the verifier shipped in
``hallucheck/models/verifier`` (trained on human-labelled pairs in en, de, fr, zh-Hans, zh-Hant
and across them; its config sets threshold 0.5 with baseless spans). As a detector it is opt-in;
the default checker runs the same model through :meth:`NLIDetector.verify` on the sentences a
verdict rests on (:mod:`hallucheck.policies.entailment`; docs/model.md, "The verifier").
Each read sentence's probabilities are also a typed :class:`hallucheck.types.SentenceVerdict`.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
import regex

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.model.source_forms import written_as_source
from hallucheck.errors import InputError
from hallucheck.text.language import is_cjk_char
from hallucheck.types import Evidence, Finding, Role, SentenceVerdict, Span

__all__ = ["MODEL_ENV", "NLIDetector", "SHIPPED_MODEL", "long_enough", "model_defaults", "pair_features", "sentence_premises"]

MODEL_ENV = "HALLUCHECK_NLI_MODEL"
SHIPPED_MODEL = Path(__file__).resolve().parents[2] / "models" / "verifier"

_MIN_CHARS = 8


def long_enough(text: str) -> bool:
    """Whether a sentence says enough to judge: a letter or digit, and at least 8 characters with
    a CJK ideograph counting as two. Why two: one Han character carries about as much as a short
    word of an alphabetic script ("今天是禮拜四。" is a whole claim in 7 characters), so a length rule
    in characters alone would leave short Chinese sentences unread."""
    stripped = text.strip()
    if not any(c.isalnum() for c in stripped):
        return False
    return sum(2 if is_cjk_char(c) else 1 for c in stripped) >= _MIN_CHARS


def sentence_premises(
    analysis: CaseAnalysis, top_k: int = 3, max_chars: int = 1200, rows: Collection[int] | None = None
) -> list[list[tuple[str | None, str, int | None, int | None]]]:
    """For each answer sentence: (source id, text, start, end) of its best evidence, best first.
    ``rows``: only those sentences are looked up (the others get no evidence), so that reading an
    answer a few sentences at a time looks each sentence up once."""
    aligned = analysis.facts.sentence_alignment
    case = analysis.case
    out: list[list[tuple[str | None, str, int | None, int | None]]] = []
    if aligned is not None and len(aligned) == len(analysis.sentences):
        for row in aligned:
            out.append([(sid, text, s, e) for sid, text, s, e, _ in row[:top_k]])
        return out
    from hallucheck.models.tagger_evidence import select_units, source_view  # lazy: loaded only on this path

    view = source_view(tuple(s.text for s in case.contexts), analysis.language, None)
    for i, toks in enumerate(analysis.tokens_by_sentence):
        if rows is not None and i not in rows:
            out.append([])
            continue
        target = frozenset(t.norm for t in toks if not t.is_punct and not t.is_stop)
        # without a tokenizer every unit costs 1; select_units keeps 4 of the budget spare
        chosen = select_units(view, [target], frozenset(), top_k + 4) if target else []
        items: list[tuple[str | None, str, int | None, int | None]] = []
        used = 0
        for ui in chosen:
            u = view.units[ui]
            if used + len(u.text) > max_chars and items:
                break
            used += len(u.text)
            sid = case.contexts[u.context].id if u.context < len(case.contexts) else None
            items.append((sid, u.text, u.start, u.end))
        out.append(items)
    return out


def pair_features(probs: np.ndarray, threshold: float) -> dict[str, float]:
    """The numbers a learned policy stacks from the pair probabilities of the sentences read
    (rows of entailment, neutral, contradiction): contradiction at its largest and on average,
    how many sentences reach ``threshold``, entailment at its smallest and on average, and the
    share not entailed (below ``1 - threshold``). No sentence read: nothing contradicted, all entailed."""
    probs = np.asarray(probs, dtype=float).reshape(-1, 3)
    if not len(probs):
        return {"nli_max_contradiction": 0.0, "nli_mean_contradiction": 0.0, "nli_n_contradicted": 0.0,
                "nli_min_entailment": 1.0, "nli_mean_entailment": 1.0, "nli_frac_not_entailed": 0.0}
    ent = probs[:, 0]
    return {
        "nli_max_contradiction": float(probs[:, 2].max()),
        "nli_mean_contradiction": float(probs[:, 2].mean()),
        "nli_n_contradicted": float((probs[:, 2] >= threshold).sum()),
        "nli_min_entailment": float(ent.min()),
        "nli_mean_entailment": float(ent.mean()),
        "nli_frac_not_entailed": float((ent < 1.0 - threshold).mean()),
    }


_MASK_GAP = regex.compile(r"\s*\^?\s+(?=[.,;:!?。！？，；：])|\^\s*(?=[.,;:!?。！？，；：]|$)")


def _as_written(sentence: str) -> str:
    """The sentence as its writer would have written it without citation markers: the masked view
    leaves blanks (and a footnote caret) where a marker stood, and the pair model should read the
    same words whether the answer cited its sources or not."""
    return " ".join(_MASK_GAP.sub("", sentence).split())


def model_defaults(path: Path) -> dict[str, Any]:
    """The settings a model's ``config.json`` gives for its use: ``max_length`` (the pair length
    it was trained at), ``threshold`` and ``baseless_spans``; those it does not give are absent."""
    import json  # lazy: loaded only on this path

    try:
        raw = json.loads((path.expanduser() / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict):
        return {}
    out: dict[str, Any] = {}
    if isinstance(raw.get("max_length"), int) and not isinstance(raw["max_length"], bool) and raw["max_length"] > 0:
        out["max_length"] = raw["max_length"]
    if isinstance(raw.get("threshold"), float) and 0.0 < raw["threshold"] < 1.0:
        out["threshold"] = raw["threshold"]
    if isinstance(raw.get("baseless_spans"), bool):
        out["baseless_spans"] = raw["baseless_spans"]
    return out


class NLIDetector(BaseDetector):
    """Options: ``model_path`` (a local NLI cross-encoder; default ``HALLUCHECK_NLI_MODEL``, else the
    shipped pair model), ``backend`` ("auto" | "onnx" | "transformers"), ``threshold``
    (contradiction probability for a span; default the model's ``threshold``, else 0.5),
    ``baseless_spans`` (mark sentences not entailed; default the model's, else on), ``top_k``
    (evidence sentences joined into the premise), ``max_length`` (tokens per pair; default the
    model's ``max_length``, else 256)."""

    name: ClassVar[str] = "nli"

    role: ClassVar[Role] = "entailment"
    layer: ClassVar[int] = 4

    def __init__(
        self,
        model_path: str | Path | None = None,
        backend: Literal["auto", "onnx", "transformers"] = "auto",
        threshold: float | None = None,
        top_k: int = 3,
        max_length: int | None = None,
        baseless_spans: bool | None = None,
    ) -> None:
        model_path = model_path or os.environ.get(MODEL_ENV) or None
        if not model_path:
            if not (SHIPPED_MODEL / "model.onnx").is_file():
                raise InputError(
                    "the nli detector needs model_path: this installation has no pair model. Set "
                    f"{MODEL_ENV}=/models/nli (or detector_options={{'nli': {{'model_path': '/models/nli'}}}}); "
                    "an ONNX export (model.onnx + tokenizer.json + config.json) runs as is, a Hugging "
                    "Face checkpoint needs pip install 'hallucheck[train]'"
                )
            model_path = SHIPPED_MODEL
        defaults = model_defaults(Path(model_path))
        max_length = max_length if max_length is not None else defaults.get("max_length", 256)
        threshold = threshold if threshold is not None else defaults.get("threshold", 0.5)
        if not 0.0 < threshold < 1.0:
            raise ValueError("threshold must be between 0 and 1")
        from hallucheck.models.nli import get_nli_model  # lazy: loaded only on this path

        self.model: Any = get_nli_model(model_path, backend, max_length)
        self.threshold = threshold
        self.baseless_spans = baseless_spans if baseless_spans is not None else defaults.get("baseless_spans", True)
        self.top_k = top_k

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        return self.verify(analysis)

    def checkable(self, analysis: CaseAnalysis) -> list[int]:
        """Indices of the answer sentences long enough to judge (:func:`long_enough`)."""
        return [i for i, s in enumerate(analysis.sentences) if long_enough(s.text)]

    def verify(self, analysis: CaseAnalysis, sentences: Collection[int] | None = None) -> Finding:
        """The finding over the checkable sentences among ``sentences`` (all when None).

        Why a subset: the checker asks the verifier only about the sentences a verdict rests on,
        so an answer that is accepted anyway costs no pair-model time."""
        feats = pair_features(np.zeros((0, 3)), self.threshold)
        wanted = None if sentences is None else set(sentences)
        rows = [i for i in self.checkable(analysis) if wanted is None or i in wanted]
        if not rows:
            return Finding(detector=self.name, role=self.role, risk=0.0, notes=["no sentence long enough to check"],
                           flagged=False, features=feats, sentence_verdicts=[])
        premises = sentence_premises(analysis, self.top_k, rows=set(rows))
        pairs = []
        same_language = not analysis.cross_lingual
        for i in rows:
            premise = " ".join(t for _, t, _, _ in premises[i]) if premises[i] else ""
            seg = analysis.sentences[i]
            # equal figures in the evidence's words (hallucheck.detectors.model.source_forms)
            sentence = written_as_source(analysis, seg.start, seg.text, premise) if same_language else seg.text
            pairs.append((premise, _as_written(sentence)))
        probs = self.model.predict(pairs)
        spans: list[Span] = []
        verdicts: list[SentenceVerdict] = []
        for i, (ent, neu, con) in zip(rows, probs):
            seg = analysis.sentences[i]
            evidence = [
                Evidence(source_id=sid, text=text, relation="contradicts" if con >= self.threshold else "nearest",
                         score=round(float(con if con >= self.threshold else ent), 4), start=s, end=e)
                for sid, text, s, e in premises[i]
            ]
            verdicts.append(SentenceVerdict(start=seg.start, end=seg.end, entailment=round(float(ent), 4),
                                            neutral=round(float(neu), 4), contradiction=round(float(con), 4),
                                            evidence=evidence[:1]))
            if con >= self.threshold:
                spans.append(Span(start=seg.start, end=seg.end, text=seg.text, label="contradiction", score=round(float(con), 4),
                                  detector=self.name, reason=f"the evidence contradicts this sentence (verifier p={con:.2f})",
                                  evidence=evidence))
            elif self.baseless_spans and ent < 1.0 - self.threshold:
                spans.append(Span(start=seg.start, end=seg.end, text=seg.text, label="baseless", score=round(float(1.0 - ent) * 0.8, 4),
                                  detector=self.name,
                                  reason=f"the evidence does not entail this sentence (verifier entailment p={ent:.2f})",
                                  evidence=evidence))
        feats = pair_features(probs, self.threshold)
        risk = float(np.clip(max(feats["nli_max_contradiction"], 1.0 - feats["nli_min_entailment"]), 0.0, 1.0))
        notes = [] if any(premises[i] for i in rows) else ["no source text to use as premise"]
        return Finding(detector=self.name, role=self.role, risk=risk, spans=spans, notes=notes, flagged=bool(spans),
                       features=feats, sentence_verdicts=verdicts)
