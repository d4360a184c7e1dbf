"""Yes/no fields of a record source, and what an answer sentence says about them.

Data-to-text sources are records ("attributes": {"RestaurantsGoodForGroups": true, "WiFi":
"no", ...}); an answer turns each field into words ("is good for groups", "offers no Wi-Fi"). A
sentence that names a field's subject with the opposite polarity ("is not suitable for groups"
where the record says true) contradicts the record, although every word of it may be in the
source. This module reads the yes/no fields of a record (:func:`yes_no_fields`) and the
polarity an answer clause gives a word (:func:`mention_polarity`).

A field is named in a sentence by its last word when that is a content word ("groups" for
``RestaurantsGoodForGroups``, "street" for ``BusinessParking.street``) or by its words written as
one ("takeout", "wifi"). The polarity of a mention is negative when a negation word or a word
that denies (without, lack, unavailable …) stands at most three words before it in its clause
("does not offer delivery", "no garage"), or a word that says the field's opposite ("a bad
place for groups", "the options exclude street parking"; not when negated itself), or when the
clause's predicate after it denies it ("street parking is not available"). A positive mention
counts as a claim only when no negation stands anywhere before it in its sentence, since a list keeps a negation across commas ("no
garage, street or lot parking").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hallucheck.models.structured_sources import flatten_structured, readable_key
from hallucheck.text.opposites import BREAK, NEG, Symbol
from hallucheck.text.stopwords import stopwords
from hallucheck.text.tokens import lemma

__all__ = ["YesNoField", "mention_polarity", "negated_before", "yes_no_fields"]

_TRUE = frozenset({"true", "yes", "free", "paid"})
_FALSE = frozenset({"false", "no", "none"})
# Words of field names that say where the field sits, not what it is about.
_GENERIC = frozenset({"attributes", "attribute", "restaurants", "restaurant", "business", "info", "has", "is", "good",
                      "for", "accepts", "the", "a", "of", "by"})
# Words that deny a field ("without Wi-Fi", "lacks parking"), beside the negation words.
_NEGATIVE_WORDS = frozenset({"without", "lack", "lacks", "lacking", "lacked", "unavailable", "absent", "ohne", "sans",
                             "缺少", "缺乏"})
# Words that deny a field by saying its opposite ("a bad place for groups" where the record says
# good for groups, "the parking options exclude street parking"). Negated, they affirm it ("not bad
# for groups", "does not exclude street parking").
_OPPOSITE_WORDS = frozenset({"bad", "unsuitable", "unfit", "exclude", "excludes", "excluded", "excluding"})
# Words after which a denial belongs to another noun ("casual with no Wi-Fi", "a lot without valet").
_PREPOSITIONS = frozenset({"with", "without", "except", "for", "of", "in", "on", "at", "to", "from"})
_CLAUSE_ENDS = frozenset({"but", "while", "whereas", "although", "though", "however", "yet", "which", "who", "that"})
_COORDINATION = frozenset({"and", "or", "nor", "as", "well"})


@dataclass(frozen=True)
class YesNoField:
    """One yes/no leaf of a record: the words that name it in a sentence, its value, its line."""

    names: frozenset[str]
    value: bool
    text: str  # the readable line, "attributes restaurants good for groups: true"


def yes_no_fields(text: str, language: str) -> list[YesNoField]:
    """The yes/no fields of the record in ``text`` (none when it is not a record)."""
    lines = flatten_structured(text)
    if not lines:
        return []
    stops = stopwords(language)
    out = []
    for line in lines:
        if line.is_null or line.key == "text":
            continue
        value = line.text.rsplit(":", 1)[-1].strip().strip("'\"").lower()
        value = re.sub(r"^u'", "", value)
        if value not in _TRUE and value not in _FALSE:
            continue
        words = [w for w in readable_key(line.key).split() if w not in _GENERIC and not w.startswith("#")]
        if not words:
            continue
        names = {"".join(words), "-".join(words)}
        last = words[-1]
        if last not in stops and len(last) > 2:
            names.add(lemma(last, language))
        out.append(YesNoField(frozenset(names), value in _TRUE, line.text))
    return out


def _negative(s: Symbol) -> bool:
    return s.form == NEG or s.word in _NEGATIVE_WORDS or s.form in _NEGATIVE_WORDS


def _opposite(s: Symbol) -> bool:
    return s.word in _OPPOSITE_WORDS or s.form in _OPPOSITE_WORDS


def negated_before(syms: Sequence[Symbol], i: int) -> bool:
    """Whether any negative word stands before symbol ``i`` in its sentence: a list after a
    negation ("no garage, street or lot parking") keeps it, across commas."""
    return any(_negative(s) for s in syms[:i])


def mention_polarity(syms: Sequence[Symbol], i: int, before: int = 3) -> bool:
    """Whether the clause gives symbol ``i`` a positive polarity (False: negated)."""
    for k in range(i - 1, max(i - 1 - before, -1), -1):
        s = syms[k]
        if s.form == BREAK or s.word in _CLAUSE_ENDS:
            break
        if _opposite(s):  # "a bad place for groups" denies; "not bad for groups" affirms
            return k > 0 and syms[k - 1].form == NEG
        if _negative(s):
            return False
    # after it, only as the clause's predicate: "street parking is not available", "is unavailable"
    seen_be = False
    for k in range(i + 1, min(i + 5, len(syms))):
        s = syms[k]
        if s.form == BREAK or s.word in _CLAUSE_ENDS or s.word in _COORDINATION or s.word in _PREPOSITIONS:
            break
        if s.form in ("be", "sein", "être"):
            seen_be = True
        elif seen_be and _negative(s):
            return False
    return True
