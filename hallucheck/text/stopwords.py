"""Stop words per language: function words that carry no claim and are ignored by lexical checks."""

from __future__ import annotations

from hallucheck.text.language import base_language

__all__ = ["stopwords", "is_stopword"]

_EN = """a about above after again against all am an and any are aren't as at be because been before
being below between both but by can cannot could couldn't did didn't do does doesn't doing don't down
during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself
let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves
out over own same shan't she she'd she'll she's should shouldn't so some such than that that's the their
theirs them themselves then there there's these they they'd they'll they're they've this those through
to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's
where where's which while who who's whom why why's will with won't would wouldn't you you'd you'll
you're you've your yours yourself yourselves also just may might must shall us via per upon within
without s t""".split()

_DE = """aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes
auch auf aus bei bin bis bist da damit dann das dass dasselbe dazu daß dein deine deinem deinen deiner
dem demselben den denn denselben der derer derselbe derselben des desselben dessen dich die dies diese
dieselbe dieselben diesem diesen dieser dieses dir doch dort du durch ein eine einem einen einer eines
einig einige einigem einigen einiger einiges einmal er es etwas euch euer eure eurem euren eurer für
gegen gewesen hab habe haben hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren
ihrer ihres im in indem ins ist jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann
kein keine keinem keinen keiner keines können könnte machen man manche manchem manchen mancher manches
mein meine meinem meinen meiner meines mich mir mit muss musste nach nicht nichts noch nun nur ob oder
ohne sehr sein seine seinem seinen seiner seines selbst sich sie sind so solche solchem solchen solcher
solches soll sollte sondern sonst um und uns unser unsere unserem unseren unserer unseres unter viel vom
von vor war waren warst was weg weil weiter welche welchem welchen welcher welches wenn werde werden
wie wieder will wir wird wirst wo wollen wollte während würde würden zu zum zur zwar zwischen über""".split()

_FR = """a au aux avec ce ces dans de des du elle en et eux il ils je la le les leur leurs lui ma mais me
même mes moi mon ne nos notre nous on ou où par pas pour qu que qui sa se ses son sur ta te tes toi ton tu
un une vos votre vous c d j l à m n s t y été étée étées étés étant étante étants étantes suis es est
sommes êtes sont serai seras sera serons serez seront serais serait serions seriez seraient étais était
étions étiez étaient fus fut fûmes fûtes furent sois soit soyons soyez soient fusse fusses fût fussions
fussiez fussent ayant ayante ayantes ayants eu eue eues eus ai as avons avez ont aurai auras aura aurons
aurez auront aurais aurait aurions auriez auraient avais avait avions aviez avaient eut eûmes eûtes
eurent aie aies ait ayons ayez aient eusse eusses eût eussions eussiez eussent ceci cela celà cet cette
ici ils les leurs quel quels quelle quelles sans soi aussi donc alors très plus comme si""".split()

_ZH = """的 了 和 是 就 都 而 及 与 與 着 著 或 一个 一個 没有 沒有 我们 我們 你们 你們 他们 他們 她们 她們
是否 这 這 那 之 在 也 有 被 把 给 給 从 從 对 對 向 于 於 以 为 為 但 并 並 等 吗 嗎 呢 吧 啊 个 個 其
这个 這個 那个 那個 这些 這些 那些 它 它们 它們 我 你 他 她 此 将 將 会 會 能 可以 要 让 讓 由 因为 因為
所以 如果 则 則 即 及其 还 還 又 很 最 更 已 已经 已經 所 的话 的話""".split()

# Chinese connectives, discourse markers, frequency and degree adverbs and modal verbs beside
# those above: they link or qualify claims but state none, and a faithful answer swaps one for
# another ("但是" / "不过", "可以" / "能够") without changing what it says. Words that flip a claim
# (不, 没有 / 有) are not among them.
_ZH_LINKS = """例如 比如 譬如 因此 因而 于是 於是 但是 不过 不過 可是 然而 而且 并且 並且 以及 或者 假如 若
要是 通常 一般 往往 经常 經常 常常 非常 十分 特别 特別 能够 能夠 需要 须要 須要 需 必须 必須 应该
應該 另外 此外 虽然 雖然 即使 比较 比較""".split()

_BY_LANG: dict[str, frozenset[str]] = {
    "en": frozenset(_EN),
    "de": frozenset(_DE),
    "fr": frozenset(_FR),
    "zh": frozenset(_ZH + _ZH_LINKS),
}


def stopwords(language: str) -> frozenset[str]:
    """The stop words of ``language`` (English for languages we have no list for)."""
    return _BY_LANG.get(base_language(language), _BY_LANG["en"])


def is_stopword(word: str, language: str) -> bool:
    return word.lower() in stopwords(language)
