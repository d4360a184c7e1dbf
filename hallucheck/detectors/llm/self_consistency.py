"""SelfCheckGPT-style self-consistency (seeds 001 and 003): sample N fresh answers from the
question and sources at temperature 0.7, and check in how many of them each claim of the answer
appears. Facts the model knows come back in most samples; hallucinated details vary.

Presence of a claim in a sample is checked by ``presence``:

- ``"embeddings"``: best cosine similarity between the claim and a sample sentence
  (``hallucheck.models.embedder``), present at ``similarity >= sim_threshold``;
- ``"model"``: the project's groundedness detector (``model``) with the sample as the source;
- ``"llm"``: one call per sample asking YES/NO for every claim at once;
- ``"lexical"``: share of the claim's content lemmas found in the sample (no model at all);
- ``"auto"`` (default): embeddings when the embedder loads, else lexical.

Samples are drawn in parallel threads (the client's concurrency limit applies) and are never
cached (temperature > 0). Each sample and presence call takes one from the call budget.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar, Literal

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import Claim
from hallucheck.detectors.llm.claims import answer_claims
from hallucheck.detectors.llm.llm_base import LLMDetector
from hallucheck.detectors.llm.schemas import PresenceList
from hallucheck.llm.base import LLMError, Message
from hallucheck.llm.session import BudgetExhausted, LLMSession
from hallucheck.prompts import render
from hallucheck.text import split_sentences, tokenize
from hallucheck.types import Finding, Role, Span

__all__ = ["SelfConsistencyDetector", "Presence"]

Presence = Literal["auto", "embeddings", "model", "llm", "lexical"]


def _lexical(claims: list[str], sample: str, language: str) -> list[float]:
    norms = {t.norm for t in tokenize(sample, language) if not t.is_punct}
    out = []
    for c in claims:
        toks = [t for t in tokenize(c, language) if not t.is_punct and not t.is_stop]
        out.append(sum(t.norm in norms for t in toks) / len(toks) if toks else 1.0)
    return out


class SelfConsistencyDetector(LLMDetector):
    name: ClassVar[str] = "self_consistency"
    role: ClassVar[Role] = "sampling"

    def __init__(self, llm: Any = None, *, n_samples: int = 5, temperature: float = 0.7,
                 presence: Presence = "auto", sim_threshold: float = 0.7, lexical_threshold: float = 0.6,
                 threshold: float = 0.5, sample_max_tokens: int = 512, max_claims: int = 40,
                 **options: Any) -> None:
        super().__init__(llm, threshold=threshold, **options)
        if n_samples < 1:
            raise ValueError("n_samples must be at least 1")
        if presence not in ("auto", "embeddings", "model", "llm", "lexical"):
            raise ValueError("presence must be auto, embeddings, model, llm or lexical")
        self.n_samples = n_samples
        self.temperature = temperature
        self.presence = presence
        self.sim_threshold = sim_threshold
        self.lexical_threshold = lexical_threshold
        self.sample_max_tokens = sample_max_tokens
        self.max_claims = max_claims
        self._model_detector: Any = None

    def empty_features(self) -> dict[str, float]:
        return _features(0, [], 0.0)

    # ---- sampling ---------------------------------------------------------------------------

    def _samples(self, analysis: CaseAnalysis, session: LLMSession, notes: list[str]) -> tuple[list[str], str | None]:
        sources, src_notes = self.prompt_sources(analysis)
        notes.extend(src_notes)
        prompt = render("self_consistency/sample", self.prompt_language(analysis),
                        question=analysis.case.question or "(no question: restate what the sources say)", sources=sources)
        settings = {"temperature": self.temperature, "max_tokens": self.sample_max_tokens}

        def one(_: int) -> str | Exception:
            try:
                return session.complete([Message("user", prompt)], **settings).text
            except LLMError as exc:
                return exc

        workers = max(1, min(self.n_samples, int(getattr(self.llm, "max_concurrency", 4) or 1)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(one, range(self.n_samples)))
        samples = [r for r in results if isinstance(r, str) and r.strip()]
        errors = [r for r in results if isinstance(r, Exception) and not isinstance(r, BudgetExhausted)]
        if any(isinstance(r, BudgetExhausted) for r in results):
            notes.append(f"LLM call budget spent: {len(samples)} of {self.n_samples} samples drawn")
        if errors:
            notes.append(f"{len(errors)} sample(s) failed: {errors[0]}")
        return samples, (str(errors[0]) if errors else None)

    # ---- presence ---------------------------------------------------------------------------

    def _method(self, notes: list[str]) -> str:
        if self.presence != "auto":
            return self.presence
        try:
            from hallucheck.models.embedder import get_embedder  # lazy: heavy: pulls in numpy; loaded only when this path runs

            get_embedder("auto").encode(["probe"])
            return "embeddings"
        except Exception as exc:  # noqa: BLE001 - any failure to load means: use the fallback
            notes.append(f"embeddings unavailable ({type(exc).__name__}); presence checked lexically")
            return "lexical"

    def _presence(self, method: str, claims: list[str], sample: str, analysis: CaseAnalysis,
                  session: LLMSession, notes: list[str]) -> tuple[list[bool], list[float], str]:
        lang = analysis.language
        if method == "embeddings":
            try:
                import numpy as np  # lazy: heavy: numpy loads only when this path runs

                from hallucheck.models.embedder import get_embedder  # lazy: heavy: pulls in numpy; loaded only when this path runs

                emb = get_embedder("auto")
                sents = [s.text for s in split_sentences(sample, lang)] or [sample]
                a = emb.encode(claims, language=lang)
                b = emb.encode(sents, language=lang)
                sims = (a @ b.T).max(axis=1) if len(sents) else np.zeros(len(claims))
                vals = [float(x) for x in sims]
                return [v >= self.sim_threshold for v in vals], vals, method
            except Exception as exc:  # noqa: BLE001
                notes.append(f"embedding presence failed ({type(exc).__name__}: {exc}); used lexical")
        elif method == "llm":
            prompt = render("self_consistency/presence", self.prompt_language(analysis), text=sample, claims=claims)
            result = session.structured([Message("user", prompt)], PresenceList, reask=False, temperature=0.0)
            if result.ok and len(result.value.present) >= len(claims):  # type: ignore[union-attr]
                vals = [1.0 if p else 0.0 for p in result.value.present[: len(claims)]]  # type: ignore[union-attr]
                return [v > 0.5 for v in vals], vals, method
            notes.append(f"LLM presence check unusable ({result.stage}: {result.error or 'wrong number of answers'}); used lexical")
        elif method == "model":
            try:
                from hallucheck.cases import make_case  # lazy: loaded only on this path
                from hallucheck.detectors import get_detector  # lazy: already loaded by the package; kept where it is used

                if self._model_detector is None:
                    self._model_detector = get_detector("model")
                vals = []
                for c in claims:
                    f = self._model_detector.detect(CaseAnalysis(make_case(contexts=[sample], answer=c, language=lang)))
                    vals.append(1.0 - float(f.risk))
                return [v >= 0.5 for v in vals], vals, method
            except Exception as exc:  # noqa: BLE001
                notes.append(f"model presence failed ({type(exc).__name__}: {exc}); used lexical")
        vals = _lexical(claims, sample, lang)
        return [v >= self.lexical_threshold for v in vals], vals, "lexical"

    # ---- detect -----------------------------------------------------------------------------

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        session = self.session(analysis)
        notes: list[str] = []
        answer = analysis.case.answer
        claims: list[Claim] = answer_claims(analysis)
        coverage = None
        if len(claims) > self.max_claims:
            coverage = self.coverage(analysis, [(claims[self.max_claims].start, len(answer))],
                                     f"only the first {self.max_claims} claims were checked")
            claims = claims[: self.max_claims]
        if not claims:
            return Finding(detector=self.name, risk=0.0, notes=["no claims found in the answer"],
                           flagged=False, features=_features(0, [], 0.0), details={"claims": []})
        samples, error = self._samples(analysis, session, notes)
        if not samples:
            stage = "budget" if session.budget_hit else "llm_error"
            f = self.failure(session, stage, error or "no sample could be drawn", notes=notes)
            return f
        method = self._method(notes)
        texts = [c.statement or c.text for c in claims]
        votes: list[list[bool]] = [[] for _ in claims]
        scores: list[list[float]] = [[] for _ in claims]
        used = set()
        for sample in samples:
            try:
                present, vals, how = self._presence(method, texts, sample, analysis, session, notes)
            except BudgetExhausted:
                notes.append("LLM call budget spent during presence checks")
                break
            used.add(how)
            for i, (p, val) in enumerate(zip(present, vals)):
                votes[i].append(p)
                scores[i].append(val)
        spans: list[Span] = []
        rows = []
        consistencies = []
        for c, v, s in zip(claims, votes, scores):
            if not v:
                continue
            cons = sum(v) / len(v)
            consistencies.append(cons)
            rows.append({**c.as_dict(), "consistency": round(cons, 4), "present_in": sum(v), "samples": len(v),
                         "similarity": [round(x, 4) for x in s]})
            if cons < self.threshold:
                spans.append(Span(start=c.start, end=c.end, text=answer[c.start : c.end], label="baseless",
                                  score=round(1.0 - cons, 4), detector=self.name,
                                  reason=f"found in {sum(v)} of {len(v)} resampled answers"))
        inconsistent = len(spans)
        risk = inconsistent / len(consistencies) if consistencies else 0.0
        agreement = _sample_agreement(samples, analysis.language) if method == "embeddings" else 0.0
        details = {
            "claims": rows,
            "samples": [s[:1000] for s in samples],
            "presence": sorted(used) or [method],
            "overall_reliability": round(1.0 - risk, 4),
        }
        if session.budget_hit:
            details["budget_hit"] = True
        return Finding(detector=self.name, risk=round(risk, 6), flagged=bool(risk > self.threshold or (inconsistent and risk >= 0.5)),
                       features=_features(len(samples), consistencies, agreement), spans=spans, notes=notes, details=details,
                       cost=session.cost, coverage=coverage)


def _features(n_samples: int, consistencies: list[float], agreement: float) -> dict[str, float]:
    return {
        "sc_samples": float(n_samples),
        "sc_mean_consistency": float(sum(consistencies) / len(consistencies)) if consistencies else 1.0,
        "sc_min_consistency": float(min(consistencies)) if consistencies else 1.0,
        "sc_inconsistent_frac": float(sum(c < 0.5 for c in consistencies) / len(consistencies)) if consistencies else 0.0,
        "sc_sample_agreement": float(agreement),
    }


def _sample_agreement(samples: list[str], language: str) -> float:
    """Mean pairwise cosine similarity of the samples (the production pipeline guide's whole-answer consistency)."""
    if len(samples) < 2:
        return 1.0
    try:
        from hallucheck.models.embedder import get_embedder  # lazy: heavy: pulls in numpy; loaded only when this path runs

        v = get_embedder("auto").encode(samples, language=language)
        sims = v @ v.T
        n = len(samples)
        return float((sims.sum() - sims.trace()) / (n * (n - 1)))
    except Exception:  # noqa: BLE001
        return 0.0
