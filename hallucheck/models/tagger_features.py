"""Inputs of the span tagger for one answer: word pieces plus per-token lexical signals (no torch).

A six-layer encoder fine-tuned on 12k answers cannot learn on its own which words of a sentence
occur in a source it only partly sees, or that "21:30" disagrees with "21:0". These signals are
cheap to compute exactly, so they are given to it as extra inputs (one value per feature and word
piece). The same code builds the inputs at training time and at inference, so the shipped ONNX
model sees exactly what it was trained on.

Layout of one window: ``[CLS] sentences [SEP] question previous-sentence evidence [SEP]``; token
type 0 for the first segment, 1 for the rest. Consecutive short sentences share a window (up to
``max_target`` word pieces) so each pass of the encoder labels more answer tokens; a sentence
longer than that is cut into overlapping windows. Labels and probabilities live only on the
sentence word pieces; every sentence of a window gets its own retrieved evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hallucheck.models.tagger_evidence import SourceView, norms_for_offsets, number_keys, select_units, unit_clauses_of
from hallucheck.models.tagger_polarity import Clause, clashing_marks, clauses_of
from hallucheck.text import Segment, split_sentences, tokenize
from hallucheck.text.tokens import Token

__all__ = [
    "BASE_FEATURES",
    "FEATURE_NAMES",
    "N_FEATURES",
    "TOKEN_TYPES",
    "LabelSpan",
    "EncoderSettings",
    "Window",
    "encode_answer_windows",
    "encode_answer",
]

FEATURE_NAMES: tuple[str, ...] = (
    "is_target",  # word piece belongs to the sentence being judged
    "is_evidence",  # word piece belongs to retrieved source text
    "in_evidence",  # sentence: its word occurs in the evidence; others: word occurs in the sentence
    "in_source",  # sentence: its word occurs anywhere in the sources
    "content",  # not a stop word or punctuation
    "number_absent",  # a number the sources do not contain
    "cap_absent",  # a capitalised word (not sentence-initial) absent from the sources
    "novel_bigram",  # content bigram (previous content word, this word) absent from the sources
    "in_question",  # word occurs in the question
    "null_key",  # sentence: word names an empty attribute; evidence: piece of an empty attribute line
    "polarity_clash",  # a clause the evidence states with the other negation (see tagger_polarity)
)
N_FEATURES = len(FEATURE_NAMES)
# The inputs of the taggers trained before ``polarity_clash`` existed; a model's config names the
# features it reads, and the windows carry exactly those columns, in that order.
BASE_FEATURES: tuple[str, ...] = FEATURE_NAMES[:10]
_POLARITY = FEATURE_NAMES.index("polarity_clash")

# What a labelled answer token can be. Index 0 is "supported"; every other index is a kind of
# unsupported token, so ``label > 0`` is the binary "unsupported" label of the older taggers.
# A conflict says the opposite of a source (RAGTruth "Evident/Subtle Conflict", contradiction
# edits); baseless adds what no source says (RAGTruth "Evident/Subtle Baseless Info").
TOKEN_TYPES: tuple[str, ...] = ("supported", "conflict", "baseless")

# A labelled span: answer offsets [start, end) and optionally its type index in TOKEN_TYPES
# (a bare (start, end) pair means "baseless", the older taggers' only kind).
LabelSpan = tuple[int, int] | tuple[int, int, int]


@dataclass(frozen=True)
class EncoderSettings:
    max_len: int = 256
    max_target: int = 80  # word pieces of answer sentences per window (consecutive sentences grouped)
    target_stride: int = 56  # step between windows of a sentence longer than max_target
    max_question: int = 24
    max_prev: int = 32
    max_unit_tokens: int = 96
    features: tuple[str, ...] = BASE_FEATURES  # the columns of Window.features (names from FEATURE_NAMES)

    def __post_init__(self) -> None:
        object.__setattr__(self, "features", tuple(self.features))  # a JSON list names them too
        unknown = [f for f in self.features if f not in FEATURE_NAMES]
        if unknown:
            raise ValueError(f"unknown tagger features {unknown}; this version computes {list(FEATURE_NAMES)}")


@dataclass
class Window:
    """One model input. ``target_offsets[i]`` are answer character offsets of input position i + 1."""

    sentences: list[int]  # answer sentence index of each sentence word piece
    input_ids: list[int]
    type_ids: list[int]
    features: list[list[float]]
    target_offsets: list[tuple[int, int]]
    units: list[int]  # source units shown as evidence
    labels: list[int] = field(default_factory=list)


def _word_of(offsets: list[tuple[int, int]], toks: list[Token]) -> list[Token | None]:
    out: list[Token | None] = []
    j = 0
    for s, _ in offsets:
        while j < len(toks) and toks[j].end <= s:
            j += 1
        out.append(toks[j] if j < len(toks) and toks[j].start <= s < toks[j].end else None)
    return out


def _target_features(
    words: list[Token | None],
    view: SourceView,
    evidence_norms: set[str],
    question_norms: frozenset[str],
    sentence_start: int,
    prev_content: dict[int, str | None],
    clash: list[tuple[int, int]],
) -> list[list[float]]:
    feats: list[list[float]] = []
    for w in words:
        f = [0.0] * N_FEATURES
        f[0] = 1.0
        if w is not None:
            content = not w.is_punct and not w.is_stop
            f[2] = float(w.norm in evidence_norms)
            f[3] = float(w.norm in view.norms)
            f[4] = float(content)
            if w.is_number:
                full, parts = number_keys(w.text)
                if full not in view.numbers and not (parts and parts <= view.number_parts):
                    f[5] = 1.0
            if w.text[:1].isupper() and w.start > sentence_start and w.norm not in view.norms:
                f[6] = 1.0
            prev = prev_content.get(w.start)
            if content and prev is not None and (prev, w.norm) not in view.bigrams:
                f[7] = 1.0
            f[8] = float(w.norm in question_norms)
            f[9] = float(w.norm in view.null_norms)
            f[_POLARITY] = float(bool(clash) and _overlaps(w.start, w.end, clash))
        feats.append(f)
    return feats


def _overlaps(start: int, end: int, ranges: list[tuple[int, int]]) -> bool:
    return any(a < end and start < b for a, b in ranges)


def _context_features(norms: list[str | None], sentence_norms: set[str], question_norms: frozenset[str]) -> list[list[float]]:
    out = []
    for n in norms:
        f = [0.0] * N_FEATURES
        if n is not None:
            f[2] = float(n in sentence_norms)
            f[8] = float(n in question_norms)
        out.append(f)
    return out


def _question_pieces(
    question: str, tokenizer: Any, language: str, settings: EncoderSettings
) -> tuple[frozenset[str], list[int], list[str | None]]:
    """The question's content lemmas, and its word pieces (capped) with the lemma of each."""
    q_toks = tokenize(question, language) if question else []
    question_norms = frozenset(t.norm for t in q_toks if not t.is_punct and not t.is_stop)
    q_ids: list[int] = []
    q_norms: list[str | None] = []
    if question:
        qe = tokenizer.encode(question, add_special_tokens=False)
        q_ids = list(qe.ids[: settings.max_question])
        q_norms = norms_for_offsets(qe.offsets, q_toks)[: settings.max_question]
    return question_norms, q_ids, q_norms


def _previous_content_lemmas(answer_tokens: list[Token]) -> dict[int, str | None]:
    """The previous content lemma of each content token, answer-wide (the bigram novelty feature)."""
    prev_content: dict[int, str | None] = {}
    last: str | None = None
    for t in answer_tokens:
        if not t.is_punct and not t.is_stop:
            prev_content[t.start] = last
            last = t.norm
    return prev_content


_SentenceInfo = tuple[list[int], list[tuple[int, int]], list[Any], set[str], frozenset[str]]


def _sentence_infos(sentences: list[Segment], answer_tokens: list[Token], tokenizer: Any) -> list[_SentenceInfo]:
    """Per sentence: word-piece ids, their answer offsets, the word token of each piece, the
    sentence's lemmas and its content lemmas."""
    sent_texts = [s.text for s in sentences]
    encs = tokenizer.encode_batch(sent_texts, add_special_tokens=False) if sent_texts else []
    infos: list[_SentenceInfo] = []
    tok_i = 0
    for seg, enc in zip(sentences, encs):
        while tok_i < len(answer_tokens) and answer_tokens[tok_i].end <= seg.start:
            tok_i += 1
        j = tok_i
        while j < len(answer_tokens) and answer_tokens[j].start < seg.end:
            j += 1
        stoks = answer_tokens[tok_i:j]
        offsets = [(seg.start + a, seg.start + b) for a, b in enc.offsets]
        infos.append(
            (
                list(enc.ids),
                offsets,
                _word_of(offsets, stoks),
                {t.norm for t in stoks if not t.is_punct},
                frozenset(t.norm for t in stoks if not t.is_punct and not t.is_stop),
            )
        )
    return infos


def _piece_groups(infos: list[_SentenceInfo], settings: EncoderSettings) -> list[list[tuple[int, int, int]]]:
    """Chunks of word pieces ``(sentence, start, end)``: whole short sentences grouped up to
    ``max_target`` pieces, long ones cut into overlapping windows."""
    groups: list[list[tuple[int, int, int]]] = []
    current: list[tuple[int, int, int]] = []
    size = 0
    for si, info in enumerate(infos):
        n = len(info[0])
        if n == 0:
            continue
        if n > settings.max_target:
            if current:
                groups.append(current)
                current, size = [], 0
            starts = list(range(0, n - settings.max_target + 1, settings.target_stride))
            if starts[-1] + settings.max_target < n:
                starts.append(n - settings.max_target)
            groups.extend([(si, a, a + settings.max_target)] for a in starts)
            continue
        if size + n > settings.max_target and current:
            groups.append(current)
            current, size = [], 0
        current.append((si, 0, n))
        size += n
    if current:
        groups.append(current)
    return groups


def _evidence_pieces(
    view: SourceView, chosen: list[int], settings: EncoderSettings, sent_norms: set[str],
    question_norms: frozenset[str], dot_id: int, budget: int, clash: dict[int, list[tuple[int, int]]],
    tokenizer: Any,
) -> tuple[list[int], list[list[float]], set[str]]:
    """The chosen source units as word pieces with their features (cut to ``budget``), and their
    lemmas; ``clash`` gives the character ranges of units to mark as ``polarity_clash``."""
    ev_ids: list[int] = []
    ev_feats: list[list[float]] = []
    ev_norms: set[str] = set()
    for ui in chosen:
        u = view.units[ui]
        ev_norms |= u.norms
        ev_ids.extend(u.ids[: settings.max_unit_tokens])
        fs = _context_features(u.wp_norms[: settings.max_unit_tokens], sent_norms, question_norms)
        for f in fs:
            f[1] = 1.0
            f[3] = 1.0
            f[9] = float(u.is_null)
        if ui in clash:
            offsets = tokenizer.encode(u.text, add_special_tokens=False).offsets[: settings.max_unit_tokens]
            for f, (a, b) in zip(fs, offsets):
                f[_POLARITY] = float(_overlaps(a, b, clash[ui]))
        ev_feats.extend(fs)
        if u.text[-1:] not in ".!?;。！？":  # keep record lines apart
            ev_ids.append(dot_id)
            ev_feats.append([0.0, 1.0] + [0.0] * (N_FEATURES - 2))
    return ev_ids[: max(budget, 0)], ev_feats[: max(budget, 0)], ev_norms


def encode_answer(
    answer: str,
    question: str,
    view: SourceView,
    tokenizer: Any,
    language: str,
    settings: EncoderSettings = EncoderSettings(),
    sentences: list[Segment] | None = None,
    answer_tokens: list[Token] | None = None,
    spans: list[LabelSpan] | None = None,
) -> list[Window]:
    """All windows of an answer (one or more per sentence); ``spans`` given -> labels filled in.

    See :func:`encode_answer_windows` for the first few windows only.
    """
    return encode_answer_windows(answer, question, view, tokenizer, language, settings, sentences,
                                 answer_tokens, spans)[0]


def encode_answer_windows(
    answer: str,
    question: str,
    view: SourceView,
    tokenizer: Any,
    language: str,
    settings: EncoderSettings = EncoderSettings(),
    sentences: list[Segment] | None = None,
    answer_tokens: list[Token] | None = None,
    spans: list[LabelSpan] | None = None,
    max_windows: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[list[Window], int]:
    """The first ``max_windows`` windows of an answer (all when None) and how many more there are.

    Only the windows returned get their evidence chosen: choosing it is the costly part (every
    sentence ranks every source unit), so a very long answer is not paid for beyond the cap.
    ``stop`` (the check's deadline) is asked before each window: once it says yes, the windows
    left are not built and count as the ones beyond the cap.

    A word piece's label is the type index (see ``TOKEN_TYPES``) of the labelled span it overlaps;
    where a conflict and a baseless span overlap, conflict wins (it is the stronger claim).
    """
    if sentences is None:
        sentences = split_sentences(answer, language)
    if answer_tokens is None:
        answer_tokens = tokenize(answer, language)
    cls_id = tokenizer.token_to_id("[CLS]")
    sep_id = tokenizer.token_to_id("[SEP]")
    dot_id = tokenizer.token_to_id(".")
    question_norms, q_ids, q_norms = _question_pieces(question, tokenizer, language, settings)
    prev_content = _previous_content_lemmas(answer_tokens)
    infos = _sentence_infos(sentences, answer_tokens, tokenizer)
    groups = _piece_groups(infos, settings)
    skipped = 0
    if max_windows is not None and len(groups) > max_windows:
        skipped = len(groups) - max_windows
        groups = groups[:max_windows]
    windows: list[Window] = []
    blank = [0.0] * N_FEATURES
    columns = None if settings.features == FEATURE_NAMES else [FEATURE_NAMES.index(f) for f in settings.features]
    polarity = "polarity_clash" in settings.features
    sentence_clauses: dict[int, tuple[Clause, ...]] = {}

    def _sentence_clauses(si: int) -> tuple[Clause, ...]:
        if si not in sentence_clauses:
            seg = sentences[si]
            toks = [t for t in answer_tokens if seg.start <= t.start < seg.end]
            sentence_clauses[si] = clauses_of(toks, language)
        return sentence_clauses[si]

    for k, group in enumerate(groups):
        if stop is not None and stop():
            skipped += len(groups) - k
            break
        first = group[0][0]
        t_ids: list[int] = []
        t_off: list[tuple[int, int]] = []
        t_sent: list[int] = []
        t_feats: list[list[float]] = []
        sent_norms: set[str] = set()
        targets = []
        for si, _a, _b in group:
            sent_norms |= infos[si][3]
            targets.append(infos[si][4])
        prev_ids: list[int] = []
        prev_norms: list[str | None] = []
        ctx = set(question_norms)
        if first > 0:
            pids, poff, pwords, _, pcontent = infos[first - 1]
            prev_ids = pids[-settings.max_prev :]
            prev_norms = [w.norm if w is not None else None for w in pwords][-settings.max_prev :]
            ctx |= pcontent
        budget = settings.max_len - 3 - sum(b - a for _, a, b in group) - len(q_ids) - len(prev_ids)
        chosen = select_units(view, targets, frozenset(ctx), budget, settings.max_unit_tokens)
        answer_marks: list[tuple[int, int]] = []
        ev_marks: dict[int, list[tuple[int, int]]] = {}
        if polarity:
            answer_clauses = [c for si, _a, _b in group for c in _sentence_clauses(si)]
            unit_clauses = [(ui, c) for ui in chosen for c in unit_clauses_of(view, ui, language)]
            answer_marks, ev_marks = clashing_marks(answer_clauses, unit_clauses)
        ev_ids, ev_feats, ev_norms = _evidence_pieces(view, chosen, settings, sent_norms, question_norms, dot_id, budget,
                                                      ev_marks, tokenizer)
        for si, a, b in group:
            ids, offsets, words, _, _ = infos[si]
            t_ids.extend(ids[a:b])
            t_off.extend(offsets[a:b])
            t_sent.extend([si] * (b - a))
            t_feats.extend(
                _target_features(words[a:b], view, ev_norms, question_norms, sentences[si].start, prev_content,
                                 answer_marks)
            )
        input_ids = [cls_id] + t_ids + [sep_id] + q_ids + prev_ids + ev_ids + [sep_id]
        type_ids = [0] * (len(t_ids) + 2) + [1] * (len(q_ids) + len(prev_ids) + len(ev_ids) + 1)
        feats = (
            [blank]
            + t_feats
            + [blank]
            + _context_features(q_norms, sent_norms, question_norms)
            + _context_features(prev_norms, sent_norms, question_norms)
            + ev_feats
            + [blank]
        )
        if columns is not None:
            feats = [[f[c] for c in columns] for f in feats]
        w = Window(t_sent, input_ids, type_ids, feats, t_off, chosen)
        if spans is not None:
            w.labels = [_piece_label(s, e, spans) for s, e in t_off]
        windows.append(w)
    return windows, skipped


_BASELESS = TOKEN_TYPES.index("baseless")
_CONFLICT = TOKEN_TYPES.index("conflict")


def _piece_label(start: int, end: int, spans: list[LabelSpan]) -> int:
    label = 0
    for sp in spans:
        if sp[0] < end and start < sp[1]:
            kind = sp[2] if len(sp) > 2 else _BASELESS
            if kind == _CONFLICT:
                return kind
            label = kind
    return label
