"""Layer 4: the project's own groundedness model, a token tagger of unsupported answer spans.

Each answer sentence (grouped with its neighbours into windows, with the question and the
previous sentence) is read together with the source evidence retrieved for it, plus per-token
lexical signals; the tagger (trained on RAGTruth, int8 ONNX, see docs/model.md) gives every word
piece a probability of being unsupported. Pieces above the threshold become spans (grown to whole
words, neighbours merged) whose evidence is the source text the model compared them with. A typed
tagger (token types supported / conflict / baseless) also says what kind of unsupported a span is:
``contradiction`` when most of its unsupported probability is conflict, else ``baseless``.

Every sentence of the answer is read (long sentences in overlapping windows). The source is not
read whole: for each window the best-matching source units fill the model's input, and the
Finding's notes say how much of the source the evidence covered. ``max_windows`` caps the work on
huge answers; sentences beyond it are reported in ``Finding.coverage``, and so are those left when
the check's deadline passes (the windows then run in answer order and the deadline is looked at
between every few).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.model.restated import RESTATED_CAP, restated_sentences
from hallucheck.types import Coverage, Evidence, Finding, Role, Span

if TYPE_CHECKING:
    from hallucheck.models.tagger import TaggedAnswer

__all__ = ["ModelDetector", "model_features", "FEATURE_KEYS", "FEATURE_THRESHOLD", "TYPED_FEATURE_KEYS"]

FEATURE_KEYS: tuple[str, ...] = (
    "model_max",
    "model_top3_mean",
    "model_mean",
    "model_frac_above",
    "model_sent_max_mean",
    "model_sent_frac_flagged",
    "model_span_chars_frac",
    "model_n_spans",
)
# Given besides FEATURE_KEYS by a typed tagger (supported / conflict / baseless per token).
TYPED_FEATURE_KEYS: tuple[str, str] = ("model_conflict_max", "model_n_contradiction_spans")


FEATURE_THRESHOLD = 0.5  # token probability the policy's count features use (fixed, see detect)


def model_features(
    probs: np.ndarray, sentences: list[int], threshold: float, span_chars: int, n_spans: int, answer_chars: int
) -> dict[str, float]:
    """Answer-level numbers the learned policy stacks (stable names, never NaN)."""
    if len(probs) == 0:
        return {k: 0.0 for k in FEATURE_KEYS}
    top = np.sort(probs)[::-1]
    per_sent: dict[int, float] = {}
    for s, p in zip(sentences, probs):
        per_sent[s] = max(per_sent.get(s, 0.0), float(p))
    sent_max = np.array(list(per_sent.values()))
    return {
        "model_max": float(top[0]),
        "model_top3_mean": float(top[:3].mean()),
        "model_mean": float(probs.mean()),
        "model_frac_above": float((probs >= threshold).mean()),
        "model_sent_max_mean": float(sent_max.mean()),
        "model_sent_frac_flagged": float((sent_max >= threshold).mean()),
        "model_span_chars_frac": span_chars / max(answer_chars, 1),
        "model_n_spans": float(n_spans),
    }


class ModelDetector(BaseDetector):
    """Options: ``model_dir`` (default: the shipped tagger for the answer's language — the
    multilingual one for zh-Hans, zh-Hant, de and fr, the English one otherwise), ``threshold`` (token probability for
    a span; default from the model's config, chosen on the calib part, one per task where it lists them), ``answer_threshold``
    (max token probability above which the answer is flagged), ``max_windows`` (cap on model
    inputs per answer), ``threads``, ``restated`` (keep the probabilities of sentences that restate
    a source sentence in another word order at or below
    :data:`~hallucheck.detectors.model.restated.RESTATED_CAP`; True), ``converted`` (the same
    cap on a length of time the sources give in another unit, "一年" over "12个月", and on a figure
    they give in another form, "1250" over "1,250", "3成" over "30%"; True)."""

    name: ClassVar[str] = "model"

    role: ClassVar[Role] = "tagger"
    layer: ClassVar[int] = 4

    def __init__(
        self,
        model_dir: str | Path | None = None,
        threshold: float | None = None,
        answer_threshold: float | None = None,
        max_windows: int = 48,
        threads: int | None = None,
        restated: bool = True,
        converted: bool = True,
    ) -> None:
        if max_windows < 1:
            raise ValueError("max_windows must be at least 1")
        self.model_dir = model_dir
        self._threshold = threshold
        self._answer_threshold = answer_threshold
        self.max_windows = max_windows
        self.threads = threads
        self.restated = restated
        self.converted = converted

    def _tagger(self, analysis: CaseAnalysis) -> Any:
        from hallucheck.models.tagger import get_tagger, tagger_dir_for  # lazy: loaded only on this path

        if self.model_dir:
            return get_tagger(self.model_dir, self.threads)
        source_language = analysis.source_language if analysis.cross_lingual else None
        return get_tagger(tagger_dir_for(analysis.language, source_language), self.threads)

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        if not case.answer.strip():
            return Finding(detector=self.name, risk=0.0, notes=["empty answer: nothing to check"], flagged=False,
                           features=model_features(np.zeros(0), [], FEATURE_THRESHOLD, 0, 0, 0))
        tagger = self._tagger(analysis)
        thr = self._threshold if self._threshold is not None else tagger.threshold_for(case.task)
        ans_thr = self._answer_threshold if self._answer_threshold is not None else float(
            tagger.config.get("answer_threshold", thr)
        )
        from hallucheck.models.tagger_spans import probs_to_spans  # lazy: loaded only on this path

        contexts = tuple(s.text for s in case.contexts)
        # The tagger reads the masked answer: it learned from answers that cite nothing, so a
        # marker's word pieces would look unsupported to it and colour the words around them.
        answer = analysis.answer
        tagged, skipped = tagger.tag(
            answer, case.question or "", contexts, analysis.language,
            analysis.sentences, analysis.tokens, self.max_windows,
            stop=analysis.out_of_time if analysis.deadline is not None else None,
        )
        restated = self._cap_restated(analysis, tagged)
        converted = self._cap_converted(analysis, tagged)
        pspans = probs_to_spans(answer, tagged.offsets, tagged.probs, thr, analysis.tokens)
        spans = [self._span(analysis, tagged, ps) for ps in pspans if any(c.isalnum() for c in answer[ps.start : ps.end])]
        # The policy's features always use FEATURE_THRESHOLD, whatever the span threshold: the
        # learned policy was fitted on features computed that way, and a calib-chosen span
        # threshold must not shift them under it.
        # spans at other thresholds (the features' 0.5, the contradiction count's), each computed once
        by_threshold = {thr: [(s.start, s.end) for s in spans]}

        def marked(at: float) -> list[tuple[int, int]]:
            if at not in by_threshold:
                by_threshold[at] = [
                    (ps.start, ps.end) for ps in probs_to_spans(answer, tagged.offsets, tagged.probs, at, analysis.tokens)
                    if any(c.isalnum() for c in answer[ps.start : ps.end])]
            return by_threshold[at]

        fspans = marked(FEATURE_THRESHOLD)
        feats = model_features(
            tagged.probs, tagged.sentences, FEATURE_THRESHOLD, sum(e - b for b, e in fspans), len(fspans), analysis.answer_chars
        )
        if tagged.conflict is not None and not len(tagged.probs):
            # a typed tagger that had no word to read (an answer of punctuation or markers) gives its
            # extra numbers too: a policy fitted with them needs every feature it was fitted on
            feats.update(dict.fromkeys(TYPED_FEATURE_KEYS, 0.0))
        elif tagged.conflict is not None:
            # extra numbers of a typed tagger (a policy fitted without them ignores them)
            conflict_max, contradiction_spans = TYPED_FEATURE_KEYS
            feats[conflict_max] = float((tagged.probs * tagged.conflict).max())
            # counted where the fits saw it: at the tagger's own span threshold of their time
            # (``feature_span_threshold`` in its config), whatever spans this report shows
            at = float(tagger.config.get("feature_span_threshold", FEATURE_THRESHOLD))
            feats[contradiction_spans] = float(sum(_span_type(tagged, a, b)[0] == "contradiction" for a, b in marked(at)))
        risk = feats["model_max"]
        notes: list[str] = []
        if not contexts or not any(c.strip() for c in contexts):
            notes.append("no source text: every claim is unsupported by construction")
        if restated:
            notes.append(f"{restated} sentence(s) restate a source sentence in another word order (every content word "
                         "there, the same negations, no swapped sides): the tagger's marks there are not kept")
        if converted:
            notes.append(f"{len(converted)} figure(s) or length(s) of time the sources give in another form "
                         f"({_quoted(converted)}): the tagger's marks there are not kept")
        shown = {u for w in tagged.windows for u in w.units}
        if tagged.view.units:
            notes.append(f"evidence: {len(shown)} of {len(tagged.view.units)} source units were read")
        coverage = None
        if skipped:
            covered_to = max((e for _, e in tagged.offsets), default=0)
            coverage = Coverage(
                answer_chars=len(case.answer),
                checked_chars=covered_to,
                unchecked=[(covered_to, len(case.answer))],
                note=(f"the check's time was up: {skipped} model windows were not read" if tagged.stopped
                      else f"{skipped} model windows beyond max_windows={self.max_windows} were not read"),
            )
        return Finding(
            detector=self.name,
            risk=min(max(risk, 0.0), 1.0),
            spans=spans,
            notes=notes,
            coverage=coverage,
            flagged=bool(risk >= ans_thr),
            features=feats,
            details={
                "threshold": thr,
                "answer_threshold": ans_thr,
                "token_probs": {"offsets": [list(o) for o in tagged.offsets], "probs": [round(float(p), 4) for p in tagged.probs]},
            },
        )

    def _cap_restated(self, analysis: CaseAnalysis, tagged: TaggedAnswer) -> int:
        """Cap the probabilities of the sentences that restate a source sentence (see
        :mod:`hallucheck.detectors.model.restated`); returns how many sentences had a piece above the cap."""
        if not self.restated or not len(tagged.probs) or float(tagged.probs.max()) <= RESTATED_CAP:
            return 0
        marked = {s for s, p in zip(tagged.sentences, tagged.probs) if p > RESTATED_CAP}
        restated = restated_sentences(analysis, only=marked)
        if restated:
            _cap(tagged, np.array([s in restated for s in tagged.sentences]))
        return len(restated)

    def _cap_converted(self, analysis: CaseAnalysis, tagged: TaggedAnswer) -> list[str]:
        """Cap the probabilities of the pieces of a length of time the sources give in another
        unit (:func:`~hallucheck.detectors.rules.numbers.durations_in_other_units`) and of a figure
        they give in another form (:func:`~hallucheck.detectors.rules.numbers.figures_in_other_forms`):
        the tagger compares words and cannot know that 一年 is 12个月 or 百分之十二 is 12%. Returns
        the figures it had marked (their text in the answer), for the note that names them."""
        if not self.converted or not len(tagged.probs) or float(tagged.probs.max()) <= RESTATED_CAP:
            return []
        from hallucheck.detectors.rules.numbers import figures_given_otherwise  # lazy: loaded only on this path

        ranges = figures_given_otherwise(analysis)
        if not ranges:
            return []
        within = [[a <= s and e <= b for s, e in tagged.offsets] for a, b in ranges]
        marked = [analysis.answer[a:b] for (a, b), w in zip(ranges, within, strict=True)
                  if bool((np.array(w) & (tagged.probs > RESTATED_CAP)).any())]
        _cap(tagged, np.array(within).any(axis=0))
        return marked

    def _span(self, analysis: CaseAnalysis, tagged: Any, ps: Any) -> Span:
        case = analysis.case
        label, share = _span_type(tagged, ps.start, ps.end)
        # the window that holds the span's first piece: its evidence units, best overlap first
        evidence: list[Evidence] = []
        for w in tagged.windows:
            if any(s <= ps.start < e or ps.start <= s < ps.end for s, e in w.target_offsets):
                from hallucheck.text import tokenize  # lazy: already loaded by this module's imports; kept where it is used

                words = {t.norm for t in tokenize(analysis.answer[ps.start : ps.end], analysis.language) if not t.is_punct}
                sent_idx = {si for (s, e), si in zip(w.target_offsets, w.sentences) if s < ps.end and ps.start < e}
                sent_words = {
                    t.norm for si in sent_idx for t in analysis.tokens_by_sentence[si] if not t.is_punct and not t.is_stop
                }
                ranked = sorted(
                    w.units,
                    key=lambda ui: (-len(tagged.view.units[ui].norms & words), -len(tagged.view.units[ui].norms & sent_words), ui),
                )
                for ui in ranked[:2]:
                    u = tagged.view.units[ui]
                    src = case.contexts[u.context] if u.context < len(case.contexts) else None
                    evidence.append(
                        Evidence(
                            source_id=src.id if src is not None else None,
                            text=u.text,
                            relation="nearest",
                            score=round(len(u.norms & sent_words) / max(len(sent_words), 1), 3),
                            start=u.start,
                            end=u.end,
                        )
                    )
                break
        return Span(
            start=ps.start,
            end=ps.end,
            text=case.answer[ps.start : ps.end],
            label=label,
            score=round(min(max(ps.score, 0.0), 1.0), 4),
            detector=self.name,
            reason=(
                f"the span tagger reads it as contradicting the source evidence (p={ps.score:.2f}, "
                f"conflict share {share:.2f})"
                if label == "contradiction"
                else f"the span tagger finds no support in the source evidence (p={ps.score:.2f})"
            ),
            evidence=evidence,
        )


def _quoted(texts: list[str], most: int = 3) -> str:
    """The first ``most`` texts in quotes, and how many more: a note names what it speaks of."""
    shown = ", ".join(f"'{t}'" for t in texts[:most])
    return shown + (f" and {len(texts) - most} more" if len(texts) > most else "")


def _cap(tagged: TaggedAnswer, where: np.ndarray | np.bool_) -> None:
    """Keep the tagger's probabilities at ``where`` (a mask over its pieces) at or below
    :data:`~hallucheck.detectors.model.restated.RESTATED_CAP`, what it gives a copied sentence."""
    tagged.probs = np.where(where, np.minimum(tagged.probs, RESTATED_CAP), tagged.probs).astype(np.float32)


def _span_type(tagged: TaggedAnswer, start: int, end: int) -> tuple[str, float]:
    """``contradiction`` when most of the span's unsupported probability is conflict, else ``baseless``.

    The share is weighted by each piece's P(unsupported), so confident pieces decide. A binary
    tagger has no types: its spans are baseless.
    """
    if tagged.conflict is None:
        return "baseless", 0.0
    num = den = 0.0
    for (s, e), p, c in zip(tagged.offsets, tagged.probs, tagged.conflict):
        if s < end and start < e:
            num += float(p) * float(c)
            den += float(p)
    share = num / den if den > 0 else 0.0
    return ("contradiction" if share >= 0.5 else "baseless"), share
