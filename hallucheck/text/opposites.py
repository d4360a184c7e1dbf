"""Words that say the opposite of each other, and the words that negate a statement.

Two sentences that agree word for word except for a negation ("is not suitable" / "is
suitable") or for one word and its opposite ("prices rose" / "prices fell") contradict each
other; no lexical overlap measure sees it, since every other word is shared. This module holds
what a check for that needs, per language (en, de, fr, zh):

- :func:`polarity_symbols` turns a sentence's tokens into the sequence to align: negation words
  become one marker, contracted ones are split (``can't`` -> ``can`` + marker, ``keine`` ->
  marker + ``ein``, ``n'est`` -> marker + ``est``, ``不能`` -> marker + ``能``), and words that
  only carry a negation's grammar are left out (English do-support: "does not take" / "takes";
  French "pas" after "ne", and the second word of one French negation: "n'a aucun",
  "aucun … n'est", "ne … jamais" are one negation, not two);
- :data:`REPLACED_BY_NEGATION`: the articles and "already" words a negation takes the place of
  ("no warranty" / "a warranty", "keine Garantie" / "eine Garantie", "没有保修" / "有保修",
  "尚未发布" / "已发布"), which a flipped negation may drop; words that only say when a negation
  holds ("no longer", "not yet", "nicht mehr", "noch nicht", "不再", "从不") are read as part of it;
- :func:`are_opposites`: a hand-written lexicon of common opposites (adjectives, verbs, adverbs,
  prepositions of order), compared by word and by lemma, plus prefix pairs (un-, in-, im-, il-,
  ir-, dis-, non-; German un-; French in-/dés-/dé-).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from hallucheck.text.tokens import lemma

__all__ = [
    "BREAK", "NEG", "NEGATION_TIME_WORDS", "REPLACED_BY_NEGATION", "Symbol", "are_opposites", "polarity_symbols",
    "opposite_candidates", "CONDITION_WORDS", "CORRECTION_WORDS", "IMPLICIT_NEGATIONS",
    "NEGATION_WORDS", "NEGATION_WORDS_BY_LANGUAGE", "OPPOSITES", "negation_load", "PREFIXES", "opposites_of",
]

NEG = "¬"  # one symbol for every negation word, so "not" and "never" align with each other
BREAK = "|"  # a clause break (comma, semicolon, colon, bracket): a negation does not reach past it
_BREAKS = frozenset(",;:()，；：（）、")

# Negation words per language (lower case); the same meaning whatever the word. The one list of
# them: the consistency and triplets detectors read it too (with a few more words that negate a
# whole sentence without being aligned as a negation here, see ``consistency.NEGATIONS``).
NEGATION_WORDS_BY_LANGUAGE: dict[str, frozenset[str]] = {
    "en": frozenset({"not", "no", "never", "cannot", "neither", "nobody", "nothing", "nowhere"}),
    "de": frozenset({"nicht", "nie", "niemals", "nirgends", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nichts"}),
    "fr": frozenset({"jamais", "aucun", "aucune", "aucuns", "aucunes", "ni", "ne", "nul", "nulle", "rien"}),
    "zh": frozenset({"不", "没", "沒", "没有", "沒有", "未", "无", "無", "非", "别", "別", "勿", "莫", "毋"}),
}
# Every language's at once: a sentence is read with all of them (an English answer may quote a
# German name, a language tag may be wrong), and no word of one negates something in another.
NEGATION_WORDS: frozenset[str] = frozenset().union(*NEGATION_WORDS_BY_LANGUAGE.values())

# French "ne ... pas" is one negation: "ne" / "n'" carries it, "pas" is left out.
_FR_FILLERS = frozenset({"pas"})
# French words that make one negation with "ne" / "n'" in the same clause, before or after it
# ("n'a aucun frais", "aucun frais n'est facturé", "ne ... jamais", "ne ... plus"): the first of
# them in a clause is the negation, the others are its grammar. "plus" and "personne" negate only
# after "ne" ("plus" is "more" elsewhere).
_FR_PAIRED = frozenset({"aucun", "aucune", "aucuns", "aucunes", "jamais", "rien", "nul", "nulle", "ni", "plus", "personne"})
_FR_ONLY_AFTER_NE = frozenset({"plus", "personne"})
# The French words "aucun" / "aucune" stand for a negation and an article ("aucune garantie" /
# "une garantie").
_FR_AUCUN = {"aucun": "un", "aucune": "une", "aucuns": "des", "aucunes": "des"}
# Words that only say when a negation holds ("no longer", "not yet", "nicht mehr", "noch nicht",
# "不再", "尚未", "从不", "并不"): read as part of the negation, so "no longer supports" against
# "supports" is a flipped negation like "does not support". English and German: the word right
# after the negation; "noch" right before it. Chinese: a character right after (再) or right
# before (尚, 还, 從 ...) a negation character.
_AFTER_NEG = {"en": frozenset({"longer", "yet"}), "de": frozenset({"mehr"})}
_BEFORE_NEG = {"de": frozenset({"noch"})}
_ZH_AFTER_NEG = frozenset("再")
_ZH_BEFORE_NEG = frozenset("尚还還从從并並")
# All of them: a flipped negation may also drop one ("ist mehr zeitgemäß" over "ist nicht mehr
# zeitgemäß").
NEGATION_TIME_WORDS: frozenset[str] = frozenset().union(*_AFTER_NEG.values(), *_BEFORE_NEG.values(), _ZH_AFTER_NEG,
                                                        _ZH_BEFORE_NEG)
# Words a negation takes the place of: articles ("no warranty" / "a warranty"; "kein" is split
# into a negation and "ein" above; "没有保修" / "有保修"), "already" ("未发布" / "已发布", "not yet
# released" / "already released") and "still" ("不再担任" / "仍然担任"): a flipped negation may drop
# or add one.
REPLACED_BY_NEGATION: frozenset[str] = frozenset({
    "a", "an", "any", "ein", "un", "une", "de", "des", "du", "有", "already", "bereits", "schon", "déjà", "已",
    # "still" ("仍然担任" / "不再担任", "still supports" / "no longer supports", "est toujours" / "n'est plus")
    "still", "toujours", "仍", "依",
})
# Words that negate without a negation word ("avoid using", "failed to provide", "unless"): a
# sentence holding one may say the same as a sentence with "not" elsewhere.
IMPLICIT_NEGATIONS: frozenset[str] = frozenset({
    "avoid", "fail", "lack", "refuse", "without", "prevent", "deny", "instead", "unless", "except",
    "hardly", "barely", "rarely", "seldom", "absent", "missing", "stop", "cease", "ban", "prohibit", "forbid",
    "exclude", "omit", "decline", "reject", "neither", "nor", "none", "scarce", "insufficient",
    "ohne", "außer", "weder", "vermeiden", "verhindern", "fehlen", "statt", "anstatt", "kaum",
    "sans", "sauf", "éviter", "empêcher", "manquer", "guère",
    "避免", "除非", "除了", "缺少", "缺乏", "拒绝", "拒絕", "禁止", "防止", "失败", "失敗", "而非",
})


# Words that make a negation part of a larger frame: a condition ("if it does not move", read
# within the negation's own clause) or a correction after it ("not on X, but on Y"); a negation
# inside such a frame is not a plain statement.
CONDITION_WORDS: frozenset[str] = frozenset({
    "if", "unless", "whether", "wenn", "falls", "ob", "si", "如果", "若", "假如", "要是",
})
CORRECTION_WORDS: frozenset[str] = frozenset({"but", "sondern", "mais", "而是", "但", "但是"})


def negation_load(symbols: Sequence[Symbol], unmatched: Iterable[int] = ()) -> int:
    """Negation words in a sentence's symbols, plus the words that negate without one among
    those at the positions ``unmatched`` (where the other sentence says something else)."""
    return sum(s.form == NEG for s in symbols) + sum(
        symbols[i].form in IMPLICIT_NEGATIONS or symbols[i].word in IMPLICIT_NEGATIONS for i in unmatched)


# English contractions of a negated auxiliary: the auxiliary they keep.
_NT = {"can't": "can", "won't": "will", "shan't": "shall", "ain't": "be", "cannot": "can"}
_DO = frozenset({"do", "does", "did"})
# "kein X" negates "ein X".
_KEIN = {"kein": "ein", "keine": "eine", "keinen": "einen", "keinem": "einem", "keiner": "einer", "keines": "eines"}
# Chinese words that begin with a negation character but do not negate ("未来" is the future).
_ZH_NOT_NEGATED = frozenset({
    "未来", "未來", "非常", "不过", "不過", "无论", "無論", "不断", "不斷", "不仅", "不僅", "不少", "不同", "不久",
    "非法", "无数", "無數", "不但", "没什么", "沒什麼", "不管", "不得不", "毫不", "并非", "並非", "无疑", "無疑",
    "不错", "不錯", "别人", "別人", "别的", "別的", "非洲", "莫名",
})
_ZH_NEG_CHARS = "不没沒未无無非别別勿"
# Function characters: not content when counting what two sentences share.
_ZH_FUNCTION_CHARS = frozenset(
    "的了在是和与與或也就都而及其之以于於为為这這那个個些从從到被把将將会會要对對让讓给給着著过過吗嗎呢吧很更最又还還再即则則并並"
)
# Chinese modal words that mean the same (can / must): 无法 ("no way to") negates 可以.
_ZH_SAME = {
    "可以": "能", "能够": "能", "能夠": "能", "必须": "必", "必須": "必", "必需": "必", "法": "能", "需要": "需",
    "应该": "应", "應該": "應",
}


class Symbol(NamedTuple):
    """One aligned unit: its form (a lemma, :data:`NEG` or :data:`BREAK`), the token it came
    from (character offsets), and whether it is a content word."""

    form: str
    word: str  # the word it came from, lower case
    start: int
    end: int
    content: bool


def polarity_symbols(tokens: Sequence[Any], language: str) -> list[Symbol]:
    """The alignment symbols of ``tokens`` (hallucheck Tokens of one sentence, punctuation left
    out): lemmas, with negations made explicit (see the module doc)."""
    zh = language.lower().startswith("zh")
    fr = language.lower().startswith("fr")
    out: list[Symbol] = []
    clause = _FrClause()  # where the French negations of the current clause stand
    for n, t in enumerate(tokens):
        if t.is_punct:
            if t.text in _BREAKS and out and out[-1].form != BREAK:
                out.append(Symbol(BREAK, t.text, t.start, t.end, False))
                clause = _FrClause()
            continue
        low = t.text.lower()
        norm = t.norm
        a, b = t.start, t.end
        if fr and (low in _FR_PAIRED or low in _FR_FILLERS or low == "ne" or _ne_contracted(low)):
            out += _fr_negation(tokens, n, language, clause)
            continue
        if low in _NT:
            out += [Symbol(_NT[low], low, a, b, False), Symbol(NEG, low, a, b, False)]
        elif low.endswith(("n't", "n’t")):
            base = low[:-3]
            if base not in _DO:
                out.append(Symbol(_aux(base), low, a, b, False))
            out.append(Symbol(NEG, low, a, b, False))
        elif low in _KEIN:
            out += [Symbol(NEG, low, a, b, False), Symbol(lemma(_KEIN[low], language), low, a, b, False)]
        elif low in NEGATION_WORDS:
            if low == "no" and n + 1 < len(tokens) and tokens[n + 1].is_punct:
                continue  # "No." / "No," answers a question; it negates nothing that follows
            out.append(Symbol(NEG, low, a, b, False))
        elif low in _DO:
            continue
        elif not zh and _ne_contracted(low):
            out += [Symbol(NEG, low, a, a + 2, False), _ne_verb(low, a, b, language)]
        elif zh and _has_han(t.text):
            out += _zh_symbols(t)
        elif zh:
            out.append(Symbol(low, low, a, b, not t.is_stop and not t.is_number))
        else:
            out.append(Symbol(norm, low, a, b, not t.is_stop and not t.is_number))
    return _without_time_words(out, tokens, language)


def _without_time_words(symbols: list[Symbol], tokens: Sequence[Any], language: str) -> list[Symbol]:
    """``symbols`` less the words that only say when a negation next to them holds ("no
    longer", "noch nicht", "不再", "尚未"; see ``_AFTER_NEG``). German "mehr" before "als" or a
    noun keeps its place: "nicht mehr als zehn", "nicht mehr Informationen" compare ("more")."""
    lang = language.lower()[:2]
    after = _ZH_AFTER_NEG if lang == "zh" else _AFTER_NEG.get(lang, frozenset())
    before = _ZH_BEFORE_NEG if lang == "zh" else _BEFORE_NEG.get(lang, frozenset())
    if not after and not before:
        return symbols
    drop: set[int] = set()
    for i, sym in enumerate(symbols):
        if sym.form != NEG:
            continue
        nxt = symbols[i + 1] if i + 1 < len(symbols) else None
        if nxt is not None and (nxt.word in after or nxt.form in after):
            if not (lang == "de" and _compares(tokens, nxt.end)):
                drop.add(i + 1)
        if i > 0 and (symbols[i - 1].word in before or symbols[i - 1].form in before):
            drop.add(i - 1)
    return [s for i, s in enumerate(symbols) if i not in drop]


def _compares(tokens: Sequence[Any], end: int) -> bool:
    """Whether the German word after offset ``end`` makes "mehr" a comparison: "als" or a noun."""
    nxt = next((t for t in tokens if t.start >= end and not t.is_punct), None)
    return nxt is not None and (nxt.text.lower() == "als" or nxt.text[:1].isupper())


def _ne_contracted(low: str) -> bool:
    """Whether ``low`` is "n'" and a verb ("n'est"); "n'importe" ("any") negates nothing."""
    return low[:2] in ("n'", "n’") and len(low) > 2 and low[2:] != "importe"


def _ne_verb(low: str, a: int, b: int, language: str) -> Symbol:
    """The verb of a contracted "n'" (``low`` = "n'est", characters ``a..b-1``): "être"."""
    return Symbol(lemma(low[2:], language), low[2:], a + 2, b, True)


@dataclass
class _FrClause:
    """The state of French negation in one clause: ``open`` once a "ne" is read and until the
    word that completes it ("pas", "aucun", "jamais" ...); ``partner`` once "aucun", "rien",
    "jamais" ... is read before any "ne", whose "ne" then belongs to it ("aucun frais n'est")."""

    open: bool = False
    partner: bool = False


def _fr_negation(tokens: Sequence[Any], n: int, language: str, clause: _FrClause) -> list[Symbol]:
    """The symbols of French negation word ``tokens[n]``, one marker per negation however many of
    its words the clause holds: "ne" (or "n'") opens one, unless it is the partner of an "aucun"
    read before it or the "ne … que" of a restriction; "pas", "aucun", "jamais" … after an open
    "ne" complete it (no marker; "aucun" leaves the article it stands for); "aucun", "rien",
    "jamais" … with no "ne" open are a negation of their own; "plus" and "personne" negate only
    after "ne" ("plus" is "more" elsewhere). A second "ne … pas" in one clause is a second
    negation ("ne peut pas ne pas y avoir")."""
    t = tokens[n]
    low = t.text.lower()
    a, b = t.start, t.end
    verb = [_ne_verb(low, a, b, language)] if _ne_contracted(low) else []
    article = [Symbol(lemma(_FR_AUCUN[low], language), low, a, b, False)] if low in _FR_AUCUN else []
    if low == "ne" or verb:
        if clause.partner:
            clause.partner = False
            return verb
        if _only_restriction(tokens, n):
            return verb
        clause.open = True
        return [Symbol(NEG, low, a, a + 2 if verb else b, False), *verb]
    if clause.open:  # "pas", "aucun", "jamais" … completing "ne"
        clause.open = False
        return article
    if low in _FR_FILLERS or low in _FR_ONLY_AFTER_NE:
        return [Symbol(t.norm, low, a, b, not t.is_stop and not t.is_number)]
    clause.partner = True
    return [Symbol(NEG, low, a, b, False), *article]


def _only_restriction(tokens: Sequence[Any], n: int) -> bool:
    """Whether the "ne" at ``tokens[n]`` is the "ne ... que" of a restriction ("il n'a que deux
    enfants", he has only two): a "que" later in its clause and no other negation word."""
    for t in tokens[n + 1 :]:
        low = t.text.lower()
        if t.is_punct and t.text in _BREAKS:
            return False
        if low in _FR_FILLERS or low in _FR_PAIRED:
            return False
        if low in ("que", "qu'", "qu’") or low.startswith(("qu'", "qu’")):
            return True
    return False


def _has_han(text: str) -> bool:
    return any("\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" for c in text)


def _zh_symbols(t: Any) -> list[Symbol]:
    """Chinese by characters: a word segmenter splits the same text differently once a 不 is put
    in ("我們將提供" / "我們 將 不 提供"), so words would not align. Each character is a symbol
    (content unless a function character), a negation character is :data:`NEG` (unless its word is
    one that does not negate, "未来"), and a modal word is one symbol ("可以" and "能" align; "无法"
    is "¬ 能"). The first character carries its word, for the lexicons of whole words."""
    text, a = t.text, t.start
    if text in _ZH_SAME:
        return [Symbol(_ZH_SAME[text], text, a, t.end, True)]
    if len(text) == 2 and text[0] in _ZH_NEG_CHARS and text[1:] in _ZH_SAME and text not in _ZH_NOT_NEGATED:
        return [Symbol(NEG, text, a, a + 1, False), Symbol(_ZH_SAME[text[1:]], text[1:], a + 1, t.end, True)]
    plain = text in _ZH_NOT_NEGATED
    out = []
    for k, c in enumerate(text):
        word = text if k == 0 else c
        if c in _ZH_NEG_CHARS and not plain:
            out.append(Symbol(NEG, word, a + k, a + k + 1, False))
        else:
            out.append(Symbol(c, word, a + k, a + k + 1, c not in _ZH_FUNCTION_CHARS))
    return out


def _aux(base: str) -> str:
    return {"is": "be", "are": "be", "was": "be", "were": "be", "has": "have", "had": "have", "wo": "will",
            "ca": "can", "sha": "shall"}.get(base, base)


def _pairs(*groups: str) -> Iterable[tuple[str, str]]:
    for g in groups:
        for item in g.split(","):
            item = item.strip()
            if item:
                a, b = item.split("/")
                yield a.strip(), b.strip()


# Written for this check: ordinary opposites of everyday and technical text. Inflected forms are
# listed where a lemmatiser may leave them as they are (past tenses, comparatives).
_LEXICON = tuple(_pairs(
    # English adjectives and adverbs
    "able/unable, absent/present, active/passive, alive/dead, ancient/modern, asleep/awake, bad/good, "
    "beautiful/ugly, best/worst, better/worse, big/small, big/little, bright/dark, broad/narrow, cheap/expensive, "
    "clean/dirty, cold/hot, cold/warm, common/rare, complex/simple, complicated/simple, correct/wrong, "
    "dangerous/safe, deep/shallow, difficult/easy, dry/wet, early/late, earlier/later, earliest/latest, "
    "easy/hard, easier/harder, empty/full, false/true, fast/slow, faster/slower, female/male, few/many, "
    "fewer/more, first/last, guilty/innocent, happy/sad, hard/soft, healthy/sick, heavy/light, high/low, "
    "higher/lower, highest/lowest, inner/outer, internal/external, large/small, larger/smaller, "
    "largest/smallest, bigger/smaller, biggest/smallest, long/short, longer/shorter, longest/shortest, "
    "loose/tight, loud/quiet, major/minor, maximum/minimum, max/min, more/less, most/least, narrow/wide, "
    "natural/artificial, negative/positive, new/old, newer/older, newest/oldest, noisy/quiet, open/closed, "
    "optimistic/pessimistic, permanent/temporary, poor/rich, poorer/richer, private/public, rare/frequent, "
    "rough/smooth, same/different, senior/junior, strong/weak, stronger/weaker, strongest/weakest, "
    "superior/inferior, thick/thin, top/bottom, upper/lower, wealthy/poor, right/wrong, young/old, "
    "younger/older, youngest/oldest, warmer/cooler, hotter/colder, heavier/lighter, greater/smaller, "
    "greater/less, increasing/decreasing, ascending/descending, mandatory/optional, required/optional, "
    "compulsory/optional, rural/urban, domestic/foreign, success/failure, successful/failed, victory/defeat, "
    "gain/loss, profit/loss, majority/minority, always/never, often/rarely, often/seldom, frequently/rarely, "
    "usually/rarely, everything/nothing, all/none, everyone/nobody, before/after, above/below, above/beneath, "
    "over/under, inside/outside, up/down, upward/downward, forward/backward, north/south, east/west, "
    "northern/southern, eastern/western, past/future, previous/next, ahead/behind, win/lose, won/lost, "
    "wins/loses, winner/loser, arrive/depart, arrived/departed, begin/end, began/ended, start/finish, "
    "started/finished, buy/sell, bought/sold, buyer/seller, accept/reject, accept/refuse, agree/disagree, "
    "allow/forbid, allow/prohibit, allowed/forbidden, allowed/prohibited, allowed/banned, permit/prohibit, "
    "permitted/prohibited, include/exclude, increase/decrease, increase/reduce, raise/lower, rise/fall, "
    "rose/fell, risen/fallen, rise/decline, grow/shrink, add/remove, added/removed, attack/defend, "
    "borrow/lend, push/pull, love/hate, like/dislike, import/export, imports/exports, enter/exit, "
    "open/close, open/shut, opened/closed, connect/disconnect, enable/disable, enabled/disabled, "
    "appear/disappear, approve/reject, approved/rejected, confirm/deny, confirmed/denied, admit/deny, "
    "support/oppose, supported/opposed, praise/criticize, praise/criticise, praised/criticized, "
    "strengthen/weaken, improve/worsen, improved/worsened, improve/deteriorate, succeed/fail, "
    "succeeded/failed, pass/fail, passed/failed, remember/forget, release/capture, released/captured, "
    "acquit/convict, acquitted/convicted, hire/fire, hired/fired, punish/reward, expand/shrink, "
    "surplus/deficit, asset/liability, boost/cut, inflow/outflow, input/output, encrypt/decrypt, "
    "encrypted/decrypted, compress/decompress, compressed/uncompressed, install/uninstall, "
    "mount/unmount, lock/unlock, locked/unlocked, load/unload, include/omit, maximal/minimal, "
    "minimize/maximize, overestimate/underestimate, overweight/underweight, overpaid/underpaid, "
    "upgrade/downgrade, upgraded/downgraded, appreciate/depreciate, appreciated/depreciated, "
    "upstairs/downstairs, uphill/downhill, upstream/downstream, inbound/outbound, incoming/outgoing, "
    "superior/inferior, plus/minus, pros/cons, benefit/harm, beneficial/harmful, helpful/harmful, "
    "friend/enemy, ally/enemy, peace/war, legal/illegal, sooner/later, cheaper/costlier, "
    "rose/fall, fell/rise, grow/fall, grew/fell, grown/fallen, grow/decline, grew/declined, rise/drop, rose/dropped, "
    "climb/fall, climbed/fell, surge/plunge, surged/plunged, robust/weak, growth/decline, "
    # German
    "groß/klein, größer/kleiner, größte/kleinste, hoch/niedrig, höher/niedriger, alt/neu, älter/neuer, "
    "alt/jung, schnell/langsam, schneller/langsamer, früh/spät, früher/später, erlaubt/verboten, "
    "richtig/falsch, wahr/falsch, immer/nie, immer/niemals, mehr/weniger, vor/nach, vorher/nachher, "
    "oben/unten, lang/kurz, länger/kürzer, erste/letzte, ersten/letzten, aktivieren/deaktivieren, "
    "aktiviert/deaktiviert, einschalten/ausschalten, eingeschaltet/ausgeschaltet, öffnen/schließen, "
    "geöffnet/geschlossen, hinzufügen/entfernen, erhöhen/verringern, erhöhen/senken, steigen/sinken, "
    "leicht/schwer, einfach/schwierig, gut/schlecht, besser/schlechter, minimal/maximal, "
    "minimum/maximum, intern/extern, statisch/dynamisch, oft/selten, häufig/selten, gleich/verschieden, "
    "lokal/entfernt, installieren/deinstallieren, einhängen/aushängen, aufwärts/abwärts, "
    "eingehend/ausgehend, importieren/exportieren, verschlüsselt/unverschlüsselt, sicher/unsicher, "
    "obligatorisch/optional, erforderlich/optional, zulassen/verbieten, akzeptieren/ablehnen, "
    "annehmen/ablehnen, gewinnen/verlieren, kaufen/verkaufen, beginnen/enden, starten/beenden, "
    "genehmigen/ablehnen, genehmigt/abgelehnt, akzeptiert/abgelehnt, angenommen/abgelehnt, "
    "zugestimmt/abgelehnt, bestätigen/dementieren, bestätigt/dementiert, bestätigen/bestreiten, "
    "bestätigt/bestritten, unterstützen/bekämpfen, unterstützt/bekämpft, steigt/sinkt, stieg/sank, "
    "gestiegen/gesunken, anstieg/rückgang, zunahme/abnahme, zunehmen/abnehmen, wachsen/schrumpfen, "
    "gewachsen/geschrumpft, wuchs/schrumpfte, erhöht/gesenkt, erhöht/verringert, erhöhte/senkte, "
    "gewinn/verlust, gewinne/verluste, erfolg/misserfolg, sieg/niederlage, überschuss/defizit, "
    "gewonnen/verloren, gewann/verlor, gekauft/verkauft, kaufte/verkaufte, einstellen/entlassen, "
    "eingestellt/entlassen, verbessern/verschlechtern, verbessert/verschlechtert, loben/kritisieren, "
    "gelobt/kritisiert, freigesprochen/verurteilt, erlauben/verbieten, begann/endete, begonnen/beendet, "
    "einschließen/ausschließen, eingeschlossen/ausgeschlossen, einfuhr/ausfuhr, bestanden/durchgefallen, "
    "reich/arm, billig/teuer, günstig/teuer, stark/schwach, stärker/schwächer, voll/leer, "
    "öffentlich/privat, innen/außen, legal/illegal, positiv/negativ, warm/kalt, heiß/kalt, nass/trocken, "
    "dick/dünn, breit/schmal, tief/flach, mehrheit/minderheit, vorteil/nachteil, vorteile/nachteile, "
    "freund/feind, krieg/frieden, gesund/krank, lebendig/tot, männlich/weiblich, nördlich/südlich, "
    "östlich/westlich, norden/süden, osten/westen, zuerst/zuletzt, gefährlich/ungefährlich, "
    "steigen/fallen, stieg/fiel, gestiegen/gefallen, wuchs/sank, gewachsen/gesunken, robust/schwach, "
    "wachstum/rückgang, "
    # French
    "grand/petit, haut/bas, élevé/faible, nouveau/ancien, nouveau/vieux, "
    "rapide/lent, tôt/tard, autorisé/interdit, vrai/faux, toujours/jamais, plus/moins, avant/après, "
    "premier/dernier, première/dernière, long/court, activer/désactiver, activé/désactivé, ouvrir/fermer, "
    "ouvert/fermé, ajouter/supprimer, ajouter/retirer, augmenter/diminuer, augmenter/réduire, "
    "facile/difficile, simple/complexe, simple/compliqué, bon/mauvais, meilleur/pire, supérieur/inférieur, "
    "interne/externe, statique/dynamique, souvent/rarement, local/distant, même/différent, "
    "obligatoire/facultatif, obligatoire/optionnel, accepter/refuser, chaud/froid, entrée/sortie, "
    "monter/descendre, début/fin, installer/désinstaller, monter/démonter, monté/démonté, "
    "chiffré/déchiffré, gagner/perdre, acheter/vendre, commencer/terminer, permettre/interdire, "
    "lourd/léger, fort/faible, sécurisé/dangereux, entrant/sortant, importer/exporter, "
    "approuver/rejeter, approuvé/rejeté, approuvée/rejetée, approuvés/rejetés, confirmer/démentir, "
    "confirmé/démenti, confirmer/nier, confirmé/nié, accepté/refusé, acceptée/refusée, soutenir/combattre, "
    "hausse/baisse, hausses/baisses, augmenté/diminué, augmentée/diminuée, augmente/diminue, "
    "progressé/reculé, progresse/recule, croissance/recul, bénéfice/perte, bénéfices/pertes, gain/perte, "
    "succès/échec, réussi/échoué, réussite/échec, victoire/défaite, gagné/perdu, acheté/vendu, "
    "excédent/déficit, embaucher/licencier, embauché/licencié, améliorer/détériorer, amélioré/détérioré, "
    "améliorer/aggraver, amélioré/aggravé, autoriser/interdire, autorisée/interdite, acquitté/condamné, "
    "riche/pauvre, plein/vide, pleine/vide, public/privé, publique/privée, légal/illégal, "
    "positif/négatif, positive/négative, commencé/terminé, ouverte/fermée, arrivée/départ, "
    "arriver/partir, inclure/exclure, inclus/exclu, majorité/minorité, avantage/inconvénient, "
    "avantages/inconvénients, ami/ennemi, guerre/paix, vivant/mort, nord/sud, humide/sec, épais/mince, "
    "large/étroit, grande/petite, haute/basse, nouvelle/ancienne, élevée/faible, premiers/derniers, "
    "premières/dernières, importation/exportation, importations/exportations, montée/descente, "
    "augmenté/baissé, augmentée/baissée, progressé/baissé, hausse/recul, progression/recul, "
    "progression/baisse, augmentation/diminution, augmentation/baisse, robuste/faible, solide/faible, "
    # Chinese (simplified and traditional)
    "大/小, 高/低, 多/少, 新/旧, 新/舊, 快/慢, 早/晚, 长/短, 長/短, 增加/减少, 增加/減少, 上升/下降, "
    "提高/降低, 增大/减小, 增大/減小, 允许/禁止, 允許/禁止, 启用/禁用, 啟用/停用, 启用/停用, 打开/关闭, "
    "打開/關閉, 开启/关闭, 開啟/關閉, 添加/删除, 添加/刪除, 新增/刪除, 新增/删除, 安装/卸载, 安裝/卸載, "
    "成功/失败, 成功/失敗, 正确/错误, 正確/錯誤, 真/假, 最大/最小, 最高/最低, 最多/最少, 之前/之后, "
    "之前/之後, 以前/以后, 以前/以後, 第一/最后, 第一/最後, 总是/从不, 總是/從不, 容易/困难, 容易/困難, "
    "简单/复杂, 簡單/複雜, 内部/外部, 內部/外部, 静态/动态, 靜態/動態, 本地/远程, 本地/遠端, 本地/遠程, "
    "必须/可选, 必須/可選, 相同/不同, 接受/拒绝, 接受/拒絕, 输入/输出, 輸入/輸出, 上/下, 前/后, 前/後, "
    "开始/结束, 開始/結束, 加密/解密, 挂载/卸载, 掛載/卸載, 导入/导出, 匯入/匯出, 导入/導出, 上传/下载, "
    "上傳/下載, 买/卖, 買/賣, 赢/输, 贏/輸, 好/坏, 好/壞, 更多/更少, 优点/缺点, 優點/缺點, 安全/危险, 安全/危險, "
    "有效/无效, 有效/無效, 合法/非法, 公开/私有, 公開/私有, 强/弱, 強/弱, 增强/减弱, 增強/減弱, 热/冷, 熱/冷, "
    "批准/否决, 批准/否決, 批准/拒绝, 批准/拒絕, 通过/否决, 通過/否決, 确认/否认, 確認/否認, 证实/否认, "
    "證實/否認, 支持/反对, 支持/反對, 赞成/反对, 贊成/反對, 同意/反对, 同意/反對, 同意/拒绝, 同意/拒絕, "
    "上涨/下跌, 上漲/下跌, 增长/下降, 增長/下降, 增长/减少, 增長/減少, 增多/减少, 增多/減少, 升高/降低, "
    "上调/下调, 上調/下調, 涨价/降价, 漲價/降價, 涨/跌, 漲/跌, 升/降, 盈利/亏损, 盈利/虧損, 利润/亏损, "
    "利潤/虧損, 胜利/失败, 勝利/失敗, 获胜/落败, 獲勝/落敗, 赢得/输掉, 贏得/輸掉, 买入/卖出, 買入/賣出, "
    "购买/出售, 購買/出售, 雇用/解雇, 僱用/解僱, 聘用/解雇, 改善/恶化, 改善/惡化, 扩大/缩小, 擴大/縮小, "
    "扩张/收缩, 擴張/收縮, 加强/削弱, 加強/削弱, 赞扬/批评, 讚揚/批評, 表扬/批评, 表揚/批評, 无罪/有罪, "
    "無罪/有罪, 富有/贫穷, 富有/貧窮, 便宜/昂贵, 便宜/昂貴, 公共/私人, 积极/消极, 積極/消極, 正面/负面, "
    "正面/負面, 顺差/逆差, 順差/逆差, 盈余/赤字, 盈餘/赤字, 多数/少数, 多數/少數, 优势/劣势, 優勢/劣勢, "
    "朋友/敌人, 朋友/敵人, 战争/和平, 戰爭/和平, 男性/女性, 北部/南部, 东部/西部, 東部/西部, 北方/南方, "
    "东方/西方, 東方/西方, 进口/出口, 進口/出口, 到达/离开, 到達/離開, 包括/排除, 包含/排除, 开放/关闭, "
    "開放/關閉, 提前/推迟, 提前/推遲, 延长/缩短, 延長/縮短, 最早/最晚, 最新/最旧, 最新/最舊, 高于/低于, "
    "高於/低於, 多于/少于, 多於/少於, 超过/低于, 超過/低於, 胜/负, 勝/負, "
    "增加/降低, 加快/减慢, 加快/減慢, 加入/退出, 升级/降级, 升級/降級, 增持/减持, 增持/減持, 胜诉/败诉, "
    "勝訴/敗訴, 真实/虚假, 真實/虛假, 主动/被动, 主動/被動, 利好/利空, 加息/降息, 升值/贬值, 升值/貶值, "
    "优于/劣于, 優於/劣於, 强劲/疲软, 強勁/疲軟, 增长/下滑, 增長/下滑, 上升/下滑, 上涨/下滑, 上漲/下滑",
))

OPPOSITES: dict[str, frozenset[str]] = {}
for _a, _b in _LEXICON:
    OPPOSITES[_a] = OPPOSITES.get(_a, frozenset()) | {_b}
    OPPOSITES[_b] = OPPOSITES.get(_b, frozenset()) | {_a}

# Negating prefixes: "unavailable" is the opposite of "available" (the stem must be a word of
# its own length, so "invaluable" / "valuable" is a known exception listed below).
PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non-", "non", "dé", "dés")
_NOT_PREFIXED = frozenset({
    "invaluable", "inflammable", "infamous", "unravel", "unloosen", "disannul", "impassive", "inhabitable",
    "intense", "indent", "install", "instead", "inform", "invest", "impress", "import", "income", "input",
    "discover", "display", "dispose", "dissolve", "distress", "depart", "deliver", "design", "desire",
    "dépasser", "dessous", "inside", "insight", "intend", "inward", "invent", "disease", "impose",
    "impact", "discount", "dispatch", "unless", "discharge", "impair", "infuse", "discuss", "disarray",
})


# French verbs whose "dé-" is no negation, by stem: "démontre" says what "montre" does, "détient"
# what "tient" does (every form of the verb).
_NOT_PREFIXED_STEMS = ("démontr", "détien", "déten", "détin", "délivr", "dépos", "défend", "dénonc", "déclar",
                       "dépend", "déplac", "désign", "décid")


def _not_prefixed(word: str) -> bool:
    return word in _NOT_PREFIXED or word.startswith(_NOT_PREFIXED_STEMS)


def _prefixed(word: str, other: str) -> bool:
    """Whether ``word`` is ``other`` with a negating prefix ("unavailable" / "available")."""
    if _not_prefixed(word) or len(other) < 4:
        return False
    return any(word == p + other for p in PREFIXES)


def opposites_of(word: str, norm: str) -> frozenset[str]:
    """The lexicon's opposites of a word (by the word and by its lemma); prefix pairs are not
    listed here (see :func:`are_opposites`)."""
    return OPPOSITES.get(word, frozenset()) | OPPOSITES.get(norm, frozenset())


@lru_cache(maxsize=65536)
def _opposite_forms(x: str) -> frozenset[str]:
    """Every ``y`` that :func:`are_opposites` reads as the opposite of ``x`` alone: the lexicon's
    opposites, ``x`` without a negating prefix, and ``x`` with one."""
    out = set(OPPOSITES.get(x, ()))
    if not _not_prefixed(x):
        out.update(x[len(p):] for p in PREFIXES if x.startswith(p) and len(x) - len(p) >= 4)
    if len(x) >= 4:
        out.update(y for p in PREFIXES if not _not_prefixed(y := p + x))
    return frozenset(out)


def opposite_candidates(word: str, norm: str | None = None) -> frozenset[str]:
    """The words (or lemmas) ``b`` for which ``are_opposites(word, b, norm, ...)`` can hold: a
    word ``b`` with lemma ``b_norm`` is its opposite exactly when ``b != word`` and ``b`` or
    ``b_norm`` is in this set. Why: a sentence pair is read word against word, and one set lookup
    a word replaces reading every word of the other sentence against the lexicon and the prefixes."""
    return _opposite_forms(word) | _opposite_forms(norm or word)


def are_opposites(a: str, b: str, a_norm: str | None = None, b_norm: str | None = None) -> bool:
    """Whether words ``a`` and ``b`` (lower case; optionally their lemmas too) are opposites."""
    if a == b:
        return False
    # by word and by lemma, and across them: "rose" (whose lemma a tagger may read as the flower)
    # against the lemma "fall" of "falls"
    for x, y in ((a, b), (a_norm or a, b_norm or b), (a, b_norm or b), (a_norm or a, b)):
        if y in OPPOSITES.get(x, ()):
            return True
        if _prefixed(x, y) or _prefixed(y, x):
            return True
    return False
