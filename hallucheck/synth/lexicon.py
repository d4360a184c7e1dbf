"""Word lists the case generator edits with, per language (en, de, fr, zh-Hans, zh-Hant).

Kept apart from the detectors' own phrase lists on purpose: labelled data made with the
detectors' words would only measure whether the detectors find their own words.
"""

from __future__ import annotations

__all__ = [
    "ANTONYMS",
    "CAPITALISED_SENTENCE_WORDS",
    "CITATION_WORD",
    "MONTHS",
    "NEGATABLE",
    "NEGATED",
    "QUESTION",
    "REWORD",
    "SPECULATION",
    "SUMMARY_QUESTION",
    "UNIT_FAMILIES",
]

# Questions of QA-style cases, about the section title.
QUESTION: dict[str, tuple[str, ...]] = {
    "en": ("What does the documentation say about {title}?", "Can you explain {title}?", "{title}: what should I know?"),
    "de": ("Was sagt die Dokumentation über „{title}“?", "Können Sie „{title}“ erklären?", "{title}: Was muss ich wissen?"),
    "fr": ("Que dit la documentation sur « {title} » ?", "Pouvez-vous expliquer « {title} » ?", "{title} : que faut-il savoir ?"),
    "zh-Hans": ("关于“{title}”，文档是怎么说的？", "请解释一下“{title}”。", "{title}：我需要知道什么？"),
    "zh-Hant": ("關於「{title}」，文件是怎麼說的？", "請解釋一下「{title}」。", "{title}：我需要知道什麼？"),
}
SUMMARY_QUESTION: dict[str, str] = {
    "en": "Summarize the section “{title}”.",
    "de": "Fassen Sie den Abschnitt „{title}“ zusammen.",
    "fr": "Résumez la section « {title} ».",
    "zh-Hans": "请总结“{title}”一节。",
    "zh-Hant": "請總結「{title}」一節。",
}

# Phrases put in front of a copied sentence: they claim a certainty (or a hearsay) the source
# does not have. ``lower`` says whether the sentence's first word is lower-cased after them.
SPECULATION: dict[str, tuple[tuple[str, bool], ...]] = {
    "en": (("It is likely that ", True), ("Presumably, ", True), ("Probably, ", True), ("Reportedly, ", True),
           ("Rumour has it that ", True)),
    "de": (("Vermutlich gilt: ", False), ("Wahrscheinlich gilt Folgendes: ", False), ("Angeblich gilt: ", False),
           ("Gerüchten zufolge gilt: ", False)),
    "fr": (("Il est probable que ", True), ("Probablement, ", True), ("Selon toute vraisemblance, ", True),
           ("Selon certaines rumeurs, ", True)),
    "zh-Hans": (("据推测，", False), ("可能", False), ("大概", False), ("据说，", False), ("估计", False)),
    "zh-Hant": (("據推測，", False), ("可能", False), ("大概", False), ("據說，", False), ("估計", False)),
}
# Sentence-initial words that are lower-cased after a speculation phrase (other words, names
# such as "Debian" or "APT", keep their capital).
CAPITALISED_SENTENCE_WORDS: frozenset[str] = frozenset(
    [
        "the", "this", "that", "these", "those", "there", "it", "its", "you", "your", "we", "our", "a", "an", "in", "on",
        "if", "when", "for", "to", "as", "by", "all", "some", "many", "most", "each", "every", "one", "after", "before",
        "while", "since", "although", "however", "then", "here",
        "le", "la", "voici", "voilà", "les", "l'", "un", "une", "des", "ce", "cette", "ces", "il", "ils", "elle", "elles",
        "on", "vous", "nous", "si", "en", "pour", "dans", "par", "sur", "avec", "lorsque", "quand",
    ]
)

# Meaning-keeping rewordings (old, new): a faithful answer that is not a verbatim copy.
REWORD: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("in order to", "to"), ("However, ", "But "), ("is able to", "can"), ("are able to", "can"),
           ("do not", "don't"), ("does not", "doesn't"), ("cannot", "can't"), ("is not", "isn't"),
           ("are not", "aren't"), ("e.g.", "for example"), ("i.e.", "that is"), ("a lot of", "many"),
           ("Please ", ""), ("usually", "normally"), ("You can", "You may"), ("also", "as well"),
           ("following", "below"), ("such as", "like")),
    "de": (("z. B.", "zum Beispiel"), ("z.B.", "zum Beispiel"), ("d. h.", "das heißt"), ("d.h.", "das heißt"),
           ("bzw.", "beziehungsweise"), ("Bitte ", ""), ("außerdem", "zudem"), ("Außerdem", "Zudem"),
           ("jedoch", "allerdings"), ("Jedoch", "Allerdings"), ("normalerweise", "üblicherweise"),
           ("Normalerweise", "Üblicherweise"), ("beispielsweise", "zum Beispiel"), ("eventuell", "möglicherweise")),
    "fr": (("par exemple", "p. ex."), ("c'est-à-dire", "à savoir"), ("cependant", "toutefois"),
           ("Cependant", "Toutefois"), ("également", "aussi"), ("afin de", "pour"), ("Veuillez noter que ", ""),
           ("habituellement", "normalement"), ("généralement", "en général"), ("Généralement", "En général")),
    "zh-Hans": (("例如", "比如"), ("因此", "所以"), ("但是", "不过"), ("可以", "能够"), ("如果", "假如"),
                ("通常", "一般"), ("非常", "十分"), ("以及", "和"), ("然而", "不过"), ("需要", "须要")),
    "zh-Hant": (("例如", "比如"), ("因此", "所以"), ("但是", "不過"), ("可以", "能夠"), ("如果", "假如"),
                ("通常", "一般"), ("非常", "十分"), ("以及", "和"), ("然而", "不過"), ("需要", "須要")),
}

# Auxiliaries after which a negation is inserted (en, de) or around which it is put (fr).
NEGATABLE: dict[str, tuple[str, ...]] = {
    "en": ("is", "are", "was", "were", "can", "could", "should", "will", "would", "must", "may"),
    "de": ("ist", "sind", "war", "waren", "kann", "können", "konnte", "muss", "müssen", "soll", "sollte", "sollten",
           "wird", "werden", "darf", "dürfen"),
    "fr": ("est", "sont", "peut", "peuvent", "pouvez", "doit", "doivent", "devez", "permet", "permettent",
           "fournit", "fournissent", "contient", "contiennent", "sera", "seront", "était", "utilise", "installe",
           "faut"),
    # Chinese: the verbs in front of which 不 is put (有 becomes 没有/沒有).
    "zh-Hans": ("是", "会", "能", "可以", "需要", "应该", "支持", "包含", "提供", "允许", "使用", "安装", "能够", "必须"),
    "zh-Hant": ("是", "會", "能", "可以", "需要", "應該", "支援", "包含", "提供", "允許", "使用", "安裝", "能夠", "必須"),
}
# Negated forms whose removal states the opposite: (negated, positive).
NEGATED: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("cannot", "can"), ("can't", "can"), ("don't", "do"), ("doesn't", "does"), ("isn't", "is"),
           ("aren't", "are"), ("won't", "will"), ("shouldn't", "should"), ("wasn't", "was"), ("didn't", "did"),
           ("never", "always")),
    "de": (("nie", "immer"), ("niemals", "immer")),
    "fr": (("jamais", "toujours"),),
    "zh-Hans": (("不是", "是"), ("不能", "能"), ("不会", "会"), ("无法", "可以"), ("没有", "有"), ("不要", "要"),
                ("不需要", "需要"), ("不应该", "应该"), ("不可以", "可以"), ("不支持", "支持"), ("不必", "必须")),
    "zh-Hant": (("不是", "是"), ("不能", "能"), ("不會", "會"), ("無法", "可以"), ("沒有", "有"), ("不要", "要"),
                ("不需要", "需要"), ("不應該", "應該"), ("不可以", "可以"), ("不支援", "支援"), ("不必", "必須")),
}

# Units that measure the same kind of thing: swapping one for another changes the quantity.
UNIT_FAMILIES: dict[str, tuple[tuple[str, ...], ...]] = {
    "*": (("KB", "MB", "GB", "TB"), ("KiB", "MiB", "GiB", "TiB"), ("kHz", "MHz", "GHz"), ("ms", "µs", "ns")),
    "en": (("seconds", "minutes", "hours", "days", "weeks", "months", "years"),
           ("second", "minute", "hour", "day", "week", "month", "year"),
           ("bits", "bytes"), ("kilobytes", "megabytes", "gigabytes", "terabytes")),
    "de": (("Sekunden", "Minuten", "Stunden", "Tage", "Wochen", "Monate", "Jahre"),
           ("Sekunde", "Minute", "Stunde", "Tag", "Woche", "Monat", "Jahr"), ("Bit", "Byte")),
    "fr": (("secondes", "minutes", "heures", "jours", "semaines", "mois", "ans"),
           ("seconde", "minute", "heure", "jour", "semaine", "an"), ("bits", "octets")),
    "zh-Hans": (("秒", "分钟", "小时", "天", "周", "个月"),),
    "zh-Hant": (("秒", "分鐘", "小時", "天", "週", "個月"), ("位元", "位元組")),
}

MONTHS: dict[str, tuple[str, ...]] = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
}

# The word of "[Source 1]"-style markers in each language.
CITATION_WORD: dict[str, str] = {"en": "Source", "de": "Quelle", "fr": "Source", "zh-Hans": "来源", "zh-Hant": "來源"}

# Words and their opposites, per language, for ``antonym`` edits ("enabled" -> "disabled", "本地" ->
# "远程"). Both directions are used. Words of technical prose first (the corpus the generator reads
# is documentation), then common ones. Latin entries match whole words; a lower-case entry also
# matches with a capital first letter. Chinese entries match as characters.
ANTONYMS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("enable", "disable"), ("enabled", "disabled"), ("enables", "disables"), ("allow", "forbid"),
           ("allowed", "forbidden"), ("install", "uninstall"), ("installed", "uninstalled"), ("increase", "decrease"),
           ("increases", "decreases"), ("before", "after"), ("first", "last"), ("newer", "older"), ("newest", "oldest"),
           ("faster", "slower"), ("larger", "smaller"), ("higher", "lower"), ("minimum", "maximum"), ("start", "stop"),
           ("started", "stopped"), ("visible", "hidden"), ("local", "remote"), ("stable", "unstable"),
           ("secure", "insecure"), ("success", "failure"), ("succeeds", "fails"), ("correct", "incorrect"),
           ("valid", "invalid"), ("required", "optional"), ("input", "output"), ("public", "private"),
           ("easy", "difficult"), ("simple", "complex"), ("possible", "impossible"), ("available", "unavailable"),
           ("compatible", "incompatible"), ("supported", "unsupported"), ("static", "dynamic"), ("upstream", "downstream"),
           ("encrypted", "unencrypted"), ("compressed", "uncompressed"), ("inside", "outside"), ("early", "late"),
           ("always", "rarely"), ("safe", "dangerous"), ("accept", "reject"), ("accepted", "rejected")),
    "de": (("aktivieren", "deaktivieren"), ("aktiviert", "deaktiviert"), ("erlaubt", "verboten"),
           ("installiert", "deinstalliert"), ("erhöht", "verringert"), ("erste", "letzte"), ("ersten", "letzten"),
           ("neuere", "ältere"), ("neueren", "älteren"), ("schneller", "langsamer"), ("größer", "kleiner"),
           ("höher", "niedriger"), ("Minimum", "Maximum"), ("starten", "stoppen"), ("gestartet", "gestoppt"),
           ("sichtbar", "unsichtbar"), ("lokale", "entfernte"), ("lokalen", "entfernten"), ("stabil", "instabil"),
           ("sicher", "unsicher"), ("möglich", "unmöglich"), ("gültig", "ungültig"), ("gültige", "ungültige"),
           ("richtig", "falsch"), ("erforderlich", "optional"), ("Eingabe", "Ausgabe"), ("öffentliche", "private"),
           ("öffentlichen", "privaten"), ("früher", "später"), ("kompatibel", "inkompatibel"), ("statisch", "dynamisch"),
           ("statische", "dynamische"), ("verschlüsselt", "unverschlüsselt"), ("komprimiert", "unkomprimiert"),
           ("Erfolg", "Fehlschlag"), ("einfacher", "schwieriger"), ("innerhalb", "außerhalb")),
    "fr": (("activer", "désactiver"), ("activé", "désactivé"), ("activée", "désactivée"), ("autorisé", "interdit"),
           ("autorisée", "interdite"), ("installé", "désinstallé"), ("augmente", "diminue"), ("augmenter", "diminuer"),
           ("avant", "après"), ("premier", "dernier"), ("première", "dernière"), ("nouvelle", "ancienne"),
           ("rapide", "lent"), ("grand", "petit"), ("grande", "petite"), ("supérieur", "inférieur"),
           ("minimum", "maximum"), ("démarrer", "arrêter"), ("démarré", "arrêté"), ("visible", "invisible"),
           ("local", "distant"), ("locale", "distante"), ("stable", "instable"), ("possible", "impossible"),
           ("valide", "invalide"), ("correct", "incorrect"), ("correcte", "incorrecte"), ("obligatoire", "facultatif"),
           ("entrée", "sortie"), ("public", "privé"), ("publique", "privée"), ("facile", "difficile"),
           ("simple", "complexe"), ("compatible", "incompatible"), ("statique", "dynamique"), ("chiffré", "non chiffré"),
           ("compressé", "décompressé"), ("succès", "échec"), ("sûr", "dangereux"), ("à l'intérieur", "à l'extérieur")),
    "zh-Hans": (("启用", "禁用"), ("允许", "禁止"), ("安装", "卸载"), ("增加", "减少"), ("提高", "降低"), ("之前", "之后"),
                ("最新", "最旧"), ("新版本", "旧版本"), ("更快", "更慢"), ("更多", "更少"), ("更大", "更小"), ("最大", "最小"),
                ("最高", "最低"), ("打开", "关闭"), ("开启", "关闭"), ("本地", "远程"), ("安全", "危险"),
                ("成功", "失败"), ("正确", "错误"), ("有效", "无效"), ("必需", "可选"), ("公开", "私有"), ("公钥", "私钥"),
                ("简单", "复杂"), ("容易", "困难"), ("上游", "下游"), ("静态", "动态"), ("同步", "异步"), ("加密", "解密"),
                ("压缩", "解压"), ("上传", "下载"), ("添加", "删除")),
    "zh-Hant": (("啟用", "停用"), ("允許", "禁止"), ("安裝", "卸載"), ("增加", "減少"), ("提高", "降低"), ("之前", "之後"),
                ("最新", "最舊"), ("新版本", "舊版本"), ("更快", "更慢"), ("更多", "更少"), ("更大", "更小"), ("最大", "最小"),
                ("最高", "最低"), ("開啟", "關閉"), ("打開", "關閉"), ("本地", "遠端"), ("安全", "危險"),
                ("成功", "失敗"), ("正確", "錯誤"), ("有效", "無效"), ("必需", "可選"), ("公開", "私有"), ("公鑰", "私鑰"),
                ("簡單", "複雜"), ("容易", "困難"), ("上游", "下游"), ("靜態", "動態"), ("同步", "非同步"), ("加密", "解密"),
                ("壓縮", "解壓縮"), ("上傳", "下載"), ("新增", "刪除")),
}
