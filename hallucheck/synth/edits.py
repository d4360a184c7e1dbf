"""Rule edits of one copied sentence, each returning the edited sentence with exact labelled spans.

Faithful edits (``reword``) keep the meaning; unfaithful ones change it in one checkable way:

- ``figure``: a number changed ("67672 packages" -> "67673 packages"): ``contradiction``;
- ``date``: a year, month name or Chinese month changed: ``contradiction``;
- ``unit``: a unit swapped within its family (MB -> GB, minutes -> hours): ``contradiction``;
- ``term``: a name or term replaced by another one of the same document: ``contradiction``;
- ``negation``: a negation added or removed: ``contradiction``;
- ``antonym``: a word replaced by its opposite ("enabled" -> "disabled", "本地" -> "远程"):
  ``contradiction``;
- ``speculation``: a hedging or hearsay phrase put in front: ``speculation``;
- ``swap``: two names or terms of the sentence trade places ("dpkg calls apt" for "apt calls
  dpkg"): ``contradiction`` on both.

A new figure, date or term is never one the sources contain anywhere, so the edited sentence
cannot be read as a restatement of another part of the sources.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from hallucheck.synth.draft import Draft
from hallucheck.synth.lexicon import (
    ANTONYMS,
    CAPITALISED_SENTENCE_WORDS,
    MONTHS,
    NEGATABLE,
    NEGATED,
    REWORD,
    SPECULATION,
    UNIT_FAMILIES,
)
from hallucheck.text.language import is_chinese

__all__ = ["SENTENCE_EDITS", "EditContext", "SentenceEdit", "figure_matches", "number_absent", "reword"]

# A number that is a figure: not part of a code-like token (amd64, /dev/sda1, UTF-8), a version
# or a section number (2.1.5), nor of a longer number. Chinese text around it is fine.
_FIGURE = regex.compile(
    r"(?<![\p{Latin}\p{N}.,/:_\-@#~+=\\])(\d{1,3}(?:,\d{3})+|\d+)(?:[.,](\d+))?(?![\p{N}/:_\-@=\\]|[.,]\p{N})"
)
_UNIT_AFTER = regex.compile(r"\s?(\p{Latin}+)")
_YEAR = regex.compile(r"(?<![\p{N}.,/:_\-@#])(?:19[5-9]\d|20[0-4]\d)(?![\p{N}]|[.,:/\-]\p{N})")
_ZH_MONTH = regex.compile(r"(?<![\p{N}])(1[0-2]|[1-9])(?=月)")
_SPACE_BEFORE_UNIT = regex.compile(r"^\s?$")
_LATIN_WORD = regex.compile(r"\p{Latin}[\p{Latin}\p{N}_.+\-]*\p{Latin}|\p{Latin}")


@dataclass
class EditContext:
    """What an edit may consult: the sources' text (a new value must not be there) and the
    document's terms (a term swap takes its replacement from them)."""

    language: str
    source_text: str
    terms: Sequence[str] = ()
    rng: random.Random = field(default_factory=lambda: random.Random(0))


SentenceEdit = Callable[[str, EditContext], Draft | None]


# Spelled numbers a source may give a small figure as ("one", "zwei", "trois", "一", "两").
_SPELLED: dict[str, dict[str, float]] = {
    "en": dict(zip("zero one two three four five six seven eight nine ten eleven twelve".split(), range(13))),
    "de": dict(zip("null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split(), range(13))),
    "fr": dict(zip("zéro un deux trois quatre cinq six sept huit neuf dix onze douze".split(), range(13))),
    "zh": {**dict(zip("零一二三四五六七八九十", range(11))), "两": 2, "兩": 2},
}
_DIGITS = regex.compile(r"(?<![\p{N}.,])(\d{1,3}(?:,\d{3})+|\d+)(?:[.,](\d+))?(?![\p{N}])")


def _value(text: str) -> tuple[float, float] | None:
    """The value of a figure as written and its precision (the unit of its last written digit:
    0.1 for "2.5", 10 for "4110", 1 for "7")."""
    m = _DIGITS.fullmatch(text)
    if m is None:
        return None
    whole = m.group(1).replace(",", "")
    if m.group(2):
        return float(f"{whole}.{m.group(2)}"), 10.0 ** -len(m.group(2))
    zeros = len(whole) - len(whole.rstrip("0")) if whole.strip("0") else 0
    return float(whole), 10.0 ** zeros


def _source_values(source_text: str, language: str) -> list[tuple[float, float]]:
    out = [v for m in _DIGITS.finditer(source_text) if (v := _value(m.group())) is not None]
    spelled = _SPELLED.get(language[:2], {})
    if is_chinese(language):
        out.extend((float(v), 1.0) for ch, v in spelled.items() if ch in source_text)
    else:
        low = source_text.lower()
        out.extend((float(v), 1.0) for w, v in spelled.items() if regex.search(rf"\b{w}\b", low))
    return out


def number_absent(value: str, source_text: str, language: str = "en") -> bool:
    """Whether no figure of the sources could be read as ``value``: neither the same number nor
    one that rounds to it or that it rounds (4105 against 4110, 69000 against 68980), nor a small
    number spelled out. Such a new figure is a change, not a restatement."""
    new = _value(value)
    if new is None:
        return regex.search(rf"(?<![\p{{N}}.,]){regex.escape(value)}(?![\p{{N}}]|[.,]\p{{N}})", source_text) is None
    v, p = new
    for w, q in _source_values(source_text, language):
        coarse = max(p, q)
        if abs(v - w) <= coarse / 2 + 1e-9:
            return False
    return True


# Numbers that name a thing rather than measure it: a manual section ("bash(1)"), a chapter,
# section, table or figure number ("Chapter 11", "Abschnitt 1.6", "第 3 章"), a footnote.
_REFERENCE_BEFORE = regex.compile(
    r"(?:\b(?:Section|Chapter|Table|Figure|Appendix|Abschnitt|Kapitel|Tabelle|Abbildung|Anhang|Chapitre|Tableau|"
    r"Annexe|section|chapter|table|figure|chapitre|tableau)\s*|第\s*|[表图圖节節章]\s*)$"
)
_REFERENCE_AFTER = regex.compile(r"^\s*[节節章]")


def _is_reference(sentence: str, m: regex.Match[str]) -> bool:
    before, after = sentence[: m.start()], sentence[m.end() :]
    if before.endswith(("(", "（")) and after.startswith((")", "）")):
        return True  # bash(1), sshd (8), a footnote or a bare figure in parentheses
    if before.endswith("[") and after.startswith("]"):
        return True  # a footnote or citation marker [4]
    return bool(_REFERENCE_BEFORE.search(before[-16:]) or _REFERENCE_AFTER.match(after))


def figure_matches(sentence: str) -> list[regex.Match[str]]:
    """The figures of ``sentence`` that a figure edit may change: quantities, not references
    (manual sections, chapter and table numbers) and not years (the date edit's business)."""
    out = []
    for m in _FIGURE.finditer(sentence):
        if _YEAR.fullmatch(m.group()) or _is_reference(sentence, m):
            continue
        # A number glued to Latin letters is a figure only when they are a unit ("10MB").
        tail = sentence[m.end() : m.end() + 1]
        if tail and regex.match(r"\p{Latin}", tail):
            unit = _UNIT_AFTER.match(sentence, m.end())
            if unit is None or not any(unit.group(1) in fam for fam in UNIT_FAMILIES["*"]):
                continue
        out.append(m)
    return out


def _new_figure(text: str, rng: random.Random) -> str:
    """A different number written like ``text`` (same separators and decimals)."""
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    plain = text.isdigit()
    if plain and len(text) < 7 and rng.random() < 0.6:
        n = int(text)
        options = [n + k for k in (1, 2, 3, 5, 7, 10, 20)] + [n * 2, n * 3, n * 10] + [n - k for k in (1, 2, 5) if n - k > 0]
        options = [o for o in options if o != n and o > 0]
        return str(rng.choice(options))
    pos = rng.choice(digits[:2]) if len(digits) > 1 else digits[0]
    old = int(text[pos])
    choices = [d for d in range(10) if d != old and not (d == 0 and pos == digits[0])]
    return text[:pos] + str(rng.choice(choices)) + text[pos + 1 :]


def edit_figure(sentence: str, ctx: EditContext, which: int | None = None) -> Draft | None:
    """Change one figure (the ``which``-th, or one drawn at random) to a value the sources do not give."""
    matches = figure_matches(sentence)
    if which is not None:
        matches = matches[which : which + 1]
    ctx.rng.shuffle(matches)
    for m in matches:
        for _ in range(6):
            new = _new_figure(m.group(), ctx.rng)
            if new != m.group() and number_absent(new, ctx.source_text, ctx.language):
                draft = Draft(sentence)
                draft.replace(m.start(), m.end(), new, "contradiction")
                return draft
    return None


def edit_date(sentence: str, ctx: EditContext) -> Draft | None:
    """Change a year (by 1 to 6), a month name, or a Chinese month number."""
    rng = ctx.rng
    options: list[tuple[int, int, list[str]]] = []
    for m in _YEAR.finditer(sentence):
        y = int(m.group())
        options.append((m.start(), m.end(), [str(y + d) for d in (-6, -4, -3, -2, -1, 1, 2, 3, 4, 6) if y + d <= 2049]))
    months = MONTHS.get(ctx.language, ())
    if months:
        for m in regex.finditer(r"\b(" + "|".join(months) + r")\b", sentence):
            if m.group() == "May" and ctx.language == "en" and m.start() == 0:
                continue
            options.append((m.start(), m.end(), [x for x in months if x != m.group()]))
    if is_chinese(ctx.language):
        for m in _ZH_MONTH.finditer(sentence):
            options.append((m.start(), m.end(), [str(x) for x in range(1, 13) if str(x) != m.group()]))
    rng.shuffle(options)
    for start, end, values in options:
        rng.shuffle(values)
        for new in values:
            if new.isdigit() and not number_absent(new, ctx.source_text, ctx.language):
                continue
            if not new.isdigit() and new in ctx.source_text:
                continue
            draft = Draft(sentence)
            draft.replace(start, end, new, "contradiction")
            return draft
    return None


def edit_unit(sentence: str, ctx: EditContext) -> Draft | None:
    """Swap the unit after a figure for another of its family (MB -> GB, Minuten -> Stunden)."""
    families = UNIT_FAMILIES["*"] + UNIT_FAMILIES.get(ctx.language, ())
    options: list[tuple[int, int, tuple[str, ...], str]] = []
    for m in regex.finditer(r"\d\s?", sentence):
        rest = sentence[m.end() :]
        for fam in families:
            for unit in sorted(fam, key=len, reverse=True):
                if rest.startswith(unit) and not regex.match(r"[\p{Latin}]", rest[len(unit) : len(unit) + 1]):
                    options.append((m.end(), m.end() + len(unit), fam, unit))
                    break
            else:
                continue
            break
    ctx.rng.shuffle(options)
    for start, end, fam, unit in options:
        others = [u for u in fam if u != unit]
        ctx.rng.shuffle(others)
        for new in others:
            draft = Draft(sentence)
            draft.replace(start, end, new, "contradiction")
            return draft
    return None


def _term_at(sentence: str, term: str) -> list[int]:
    """Where ``term`` stands as a whole token in ``sentence``."""
    pat = rf"(?<![\p{{Latin}}\p{{N}}_\-./]){regex.escape(term)}(?![\p{{Latin}}\p{{N}}_\-/]|\.\p{{L}})"
    return [m.start() for m in regex.finditer(pat, sentence)]


def _fallback_terms(sentence: str, language: str) -> list[str]:
    """Names in a sentence when the document gave no code terms: Latin words in Chinese text,
    and capitalised words that do not open the sentence elsewhere (all caps or with a digit in German)."""
    words = [m for m in _LATIN_WORD.finditer(sentence)]
    if is_chinese(language):
        return [m.group() for m in words if len(m.group()) > 1]
    out = []
    for m in words:
        w = m.group()
        if m.start() == 0 or len(w) < 3 or w.lower() in CAPITALISED_SENTENCE_WORDS:
            continue
        if language == "de":
            if w.isupper() or any(c.isdigit() for c in w) or (w[0].isupper() and any(c.isupper() for c in w[1:])):
                out.append(w)
        elif w[0].isupper():
            out.append(w)
    return out


def _same_shape(a: str, b: str) -> bool:
    """Both all capitals, both capitalised, or both neither: a name is swapped for a name."""
    def shape(w: str) -> int:
        return 2 if w.isupper() else 1 if w[:1].isupper() else 0

    return shape(a) == shape(b)


def edit_term(sentence: str, ctx: EditContext) -> Draft | None:
    """Replace a term of the sentence by another term of the same document the sentence lacks."""
    pool = [t for t in dict.fromkeys(ctx.terms) if t]
    present = [t for t in pool if _term_at(sentence, t)]
    if not present:
        present = [t for t in _fallback_terms(sentence, ctx.language)]
        pool = list(dict.fromkeys(pool + _fallback_terms(ctx.source_text, ctx.language)))
    if not present:
        return None
    rng = ctx.rng
    old = rng.choice(present)
    lowered = sentence.lower()
    candidates = [
        t for t in pool
        if t.lower() != old.lower() and t.lower() not in lowered and old.lower() not in t.lower() and _same_shape(t, old)
    ]
    if not candidates:
        return None
    new = rng.choice(candidates)
    starts = _term_at(sentence, old)
    if not starts:
        return None
    start = rng.choice(starts)
    draft = Draft(sentence)
    draft.replace(start, start + len(old), new, "contradiction")
    return draft


# What between two names makes their exchange no swap of roles: a list's joints ("A, B and C"
# read as "B, A and C" says the same) or a clause break (two clauses, not one relation).
_LIST_JOINT = regex.compile(r"[,，、/]|\b(?:and|or|und|oder|et|ou)\b|[和与與或及]", regex.IGNORECASE)
_CLAUSE_BREAK = regex.compile(r"[;:。；：!?！？()（）\[\]“”\"]|\s[-–—]\s")


def edit_swap(sentence: str, ctx: EditContext) -> Draft | None:
    """Exchange two different names or terms of one clause of the sentence (a swap of roles)."""
    pool = [t for t in dict.fromkeys(ctx.terms) if t]
    present = [t for t in pool if _term_at(sentence, t)] or list(dict.fromkeys(_fallback_terms(sentence, ctx.language)))
    spots = sorted({(start, start + len(t)) for t in present for start in _term_at(sentence, t)})
    pairs = []
    for n, (a1, a2) in enumerate(spots):
        for b1, b2 in spots[n + 1 :]:
            x, y = sentence[a1:a2], sentence[b1:b2]
            between = sentence[a2:b1]
            if b1 < a2 or x.lower() == y.lower() or x.lower() in y.lower() or y.lower() in x.lower():
                continue
            if not between.strip() or len(between) > 60 or _LIST_JOINT.search(between) or _CLAUSE_BREAK.search(between):
                continue
            if not _same_shape(x, y):
                continue
            pairs.append((a1, a2, b1, b2))
    if not pairs:
        return None
    a1, a2, b1, b2 = ctx.rng.choice(pairs)
    x, y = sentence[a1:a2], sentence[b1:b2]
    draft = Draft(sentence)
    draft.replace(b1, b2, x, "contradiction")
    draft.replace(a1, a2, y, "contradiction")
    if draft.text in ctx.source_text:
        return None
    return draft


# Characters that make a one-character verb part of another word: 但是 可能 功能 机会 是否 能力 ...
_ZH_BEFORE = {
    "是": set("但可要若只就还還总總于於或凡即真正不于也"),
    "会": set("机社学开聚约大协工都不"),
    "會": set("機社學開聚約大協工都不"),
    "能": set("可功性智本才技体體效动動不"),
}
_ZH_AFTER = {"是": set("否"), "会": set("议话员计场"), "會": set("議話員計場"), "能": set("力量源够夠")}
_ZH_NEGATORS = set("不没沒未无無并並非别別")


def _negate_zh(sentence: str, ctx: EditContext) -> Draft | None:
    """Chinese negation by characters (no word segmenter reads both scripts well): a negated
    form becomes positive (无法 -> 可以), or 不 goes in front of a verb that is not part of a
    longer word."""
    lang = ctx.language
    options: list[tuple[int, int, str]] = []  # (start, end, replacement)
    taken: set[int] = set()
    for neg, pos in sorted(NEGATED[lang], key=lambda x: -len(x[0])):
        for m in regex.finditer(regex.escape(neg), sentence):
            if taken.isdisjoint(range(m.start(), m.end())):
                options.append((m.start(), m.end(), pos))
                taken.update(range(m.start(), m.end()))
    for verb in sorted(NEGATABLE[lang], key=len, reverse=True):
        for m in regex.finditer(regex.escape(verb), sentence):
            a, b = m.start(), m.end()
            if not taken.isdisjoint(range(a, b)):
                continue
            before = sentence[a - 1] if a else ""
            after = sentence[b] if b < len(sentence) else ""
            if before in _ZH_NEGATORS or before in _ZH_BEFORE.get(verb, ()) or after in _ZH_AFTER.get(verb, ()):
                continue
            options.append((a, b, "不必" if verb in ("必须", "必須") else "不" + verb))
            taken.update(range(a, b))
    if not options:
        return None
    start, end, new = ctx.rng.choice(options)
    draft = Draft(sentence)
    draft.replace(start, end, new, "contradiction")
    return draft


def _negate_latin(sentence: str, ctx: EditContext) -> Draft | None:
    lang = ctx.language
    rng = ctx.rng
    options: list[tuple[int, int, str]] = []
    aux = "|".join(NEGATABLE[lang])
    if lang == "en":
        for m in regex.finditer(rf"\b({aux}) not\b", sentence):
            options.append((m.start(), m.end(), m.group(1)))
        for m in regex.finditer(rf"\b({aux})\b(?! not\b| never\b)", sentence):
            word = m.group(1)
            options.append((m.start(), m.end(), "cannot" if word == "can" else f"{word} not"))
    elif lang == "de":
        for m in regex.finditer(rf"\b({aux}) nicht\b", sentence):
            options.append((m.start(), m.end(), m.group(1)))
        for m in regex.finditer(rf"(?<!\bnicht )\b({aux})\b(?! nicht\b| kein)", sentence):
            # At the end of a clause the verb comes last ("..., die gespeichert ist,"): "nicht" goes before it.
            final = regex.match(r"\s*(?:[,.;:!?)]|$)", sentence[m.end() :]) is not None
            options.append((m.start(), m.end(), f"nicht {m.group(1)}" if final else f"{m.group(1)} nicht"))
    elif lang == "fr":
        for m in regex.finditer(rf"\b(?:ne |n')({aux}) (?:pas|plus)\b", sentence):
            options.append((m.start(), m.end(), m.group(1)))
        for m in regex.finditer(rf"(?<!\b(?:ne|se|le|la|les|y|en|lui|leur|me|te) |\b[nsljmtc]'|\bqu')\b({aux})\b(?! pas\b)", sentence):
            word = m.group(1)
            neg = "n'" if word[0] in "aeiouéèêh" else "ne "
            options.append((m.start(), m.end(), f"{neg}{word} pas"))
    for neg, pos in NEGATED.get(lang, ()):
        for m in regex.finditer(rf"\b{regex.escape(neg)}\b", sentence):
            options.append((m.start(), m.end(), pos))
    if not options:
        return None
    start, end, new = rng.choice(options)
    draft = Draft(sentence)
    draft.replace(start, end, new, "contradiction")
    return draft


def edit_negation(sentence: str, ctx: EditContext) -> Draft | None:
    """Add a negation to an auxiliary or verb, or remove one (the changed words are the span)."""
    return _negate_zh(sentence, ctx) if is_chinese(ctx.language) else _negate_latin(sentence, ctx)


@lru_cache(maxsize=8)
def _antonym_table(language: str) -> tuple[dict[str, str], regex.Pattern[str] | None]:
    """The language's word -> opposite map and one pattern finding every word of it (longest first)."""
    table: dict[str, str] = {}
    for a, b in ANTONYMS.get(language, ()):
        table.setdefault(a, b)
        table.setdefault(b, a)
    if not table:
        return table, None
    words = sorted(table, key=len, reverse=True)
    if is_chinese(language):
        return table, regex.compile("|".join(map(regex.escape, words)))
    variants = [v for w in words for v in dict.fromkeys((w, w[:1].upper() + w[1:]))]
    return table, regex.compile(r"(?<![\p{L}\p{N}_\-])(?:" + "|".join(map(regex.escape, variants)) + r")(?![\p{L}\p{N}_\-])")


def edit_antonym(sentence: str, ctx: EditContext) -> Draft | None:
    """Replace one word by its opposite. Not where the sentence already holds the opposite ("enable
    or disable"), after a Chinese negator (不安全 is no place for 危险), nor where the edited
    sentence is itself a source sentence."""
    table, pattern = _antonym_table(ctx.language)
    if pattern is None:
        return None
    lowered = sentence.lower()
    options: list[tuple[int, int, str]] = []
    for m in pattern.finditer(sentence):
        word = m.group()
        key = word if word in table else word[:1].lower() + word[1:]
        new = table.get(key)
        if new is None or new.lower() in lowered:
            continue
        if is_chinese(ctx.language) and m.start() and sentence[m.start() - 1] in _ZH_NEGATORS:
            continue
        if word[:1].isupper() and not key[:1].isupper():
            new = new[:1].upper() + new[1:]
        options.append((m.start(), m.end(), new))
    if not options:
        return None
    start, end, new = ctx.rng.choice(options)
    draft = Draft(sentence)
    draft.replace(start, end, new, "contradiction")
    if draft.text in ctx.source_text:
        return None
    return draft


def _common_word(word: str, source_text: str) -> bool:
    """Whether a capitalised sentence-initial word is an ordinary word (lower-cased after a
    phrase put in front), not a name: it is a known function word, or the sources write it in
    lower case somewhere."""
    if not word[:1].isupper() or word.isupper():
        return False
    low = word.lower()
    return low in CAPITALISED_SENTENCE_WORDS or regex.search(rf"(?<!\p{{L}}){regex.escape(low)}(?!\p{{L}})", source_text) is not None


def edit_speculation(sentence: str, ctx: EditContext) -> Draft | None:
    """Put a hedging or hearsay phrase in front of the sentence (the phrase is the span)."""
    phrase, lower = ctx.rng.choice(SPECULATION[ctx.language])
    body = sentence
    if lower:
        first = regex.match(r"\p{L}+", body)
        if first and _common_word(first.group(), ctx.source_text):
            body = body[0].lower() + body[1:]
    draft = Draft(body)
    draft.insert(0, phrase)
    label_end = len(phrase.rstrip(" ,，:："))
    draft.label(0, label_end, "speculation")
    return draft


def reword(sentence: str, ctx: EditContext) -> Draft | None:
    """A faithful rewording by the language's rules, or None when no rule applies."""
    rules = list(REWORD.get(ctx.language, ()))
    ctx.rng.shuffle(rules)
    text = sentence
    changed = 0
    for old, new in rules:
        if changed >= 2:
            break
        boundary = not is_chinese(ctx.language) and old[:1].isalpha()
        pat = (r"\b" if boundary else "") + regex.escape(old) + (r"\b" if boundary and old[-1:].isalpha() else "")
        m = regex.search(pat, text)
        if m is None:
            continue
        if new == "" and m.end() < len(text):
            rest = text[m.end() :]
            text = text[: m.start()] + rest[:1].upper() + rest[1:]
        else:
            text = text[: m.start()] + new + text[m.end() :]
        changed += 1
    if not changed or text == sentence:
        return None
    return Draft(text)


SENTENCE_EDITS: dict[str, SentenceEdit] = {
    "figure": edit_figure,
    "date": edit_date,
    "unit": edit_unit,
    "term": edit_term,
    "negation": edit_negation,
    "speculation": edit_speculation,
    "swap": edit_swap,
    "antonym": edit_antonym,
}
