"""Meaning-keeping word and phrase swaps the paraphrase rules use, per language.

Why a list of its own: :data:`hallucheck.synth.lexicon.REWORD` only trades connectives and
abbreviations ("jedoch" -> "allerdings"), so its faithful answers still copy every content word of
their sources. Real answers reword content words too; a detector fitted only on copies learns that
any new word is an error. These pairs change content words (verbs, adjectives, plural nouns,
set phrases) without changing what the sentence claims.

How the pairs were chosen: each keeps the grammar of its slot. German and French nouns change
only where the new noun has the same gender (or both are plural), verbs only in forms whose
replacement agrees in person and number, and no pair weakens or strengthens a claim (hedges,
quantifiers and modal verbs keep their force). No pair is also listed the other way round, so two
rules cannot undo each other.
"""

from __future__ import annotations

__all__ = ["PARAPHRASE", "REGISTER"]

# (old, new): the old phrase, matched as whole words (any characters in Chinese), becomes the new one.
PARAPHRASE: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("provides", "offers"), ("provide", "offer"), ("contains", "includes"), ("contain", "include"),
        ("allows", "enables"), ("requires", "needs"), ("required", "needed"), ("necessary", "needed"),
        ("modify", "change"), ("modified", "changed"), ("remove", "delete"), ("removes", "deletes"),
        ("removed", "deleted"), ("displays", "shows"), ("display", "show"), ("create", "make"),
        ("creates", "makes"), ("several", "a number of"), ("many", "numerous"), ("large", "big"),
        ("quickly", "fast"), ("important", "essential"), ("useful", "handy"), ("simple", "straightforward"),
        ("starts", "launches"), ("obtain", "get"), ("retrieve", "fetch"), ("check", "verify"),
        ("checks", "verifies"), ("select", "choose"), ("recommended", "advised"), ("recommend", "advise"),
        ("additional", "extra"), ("various", "different"), ("currently", "at present"), ("initially", "at first"),
        ("automatically", "by itself"), ("especially", "particularly"), ("mainly", "mostly"),
        ("typically", "as a rule"), ("In addition", "Besides"), ("therefore", "so"), ("because", "since"),
        ("although", "even though"), ("instead of", "rather than"), ("the majority of", "most of"),
        ("prior to", "before"), ("directory", "folder"), ("directories", "folders"), ("programs", "applications"),
        ("computer", "machine"), ("method", "way"), ("methods", "ways"), ("problem", "issue"),
        ("problems", "issues"), ("purpose", "aim"), ("features", "capabilities"), ("very ", ""),
        ("really ", ""), ("in order to", "so as to"), ("a lot of", "plenty of"), ("begin", "start"), ("finish", "complete"),
        ("helps", "assists"), ("shows", "indicates"),
    ),
    "de": (
        ("verwenden", "benutzen"), ("verwendet", "benutzt"), ("Verwendung", "Nutzung"), ("enthält", "umfasst"),
        ("ermöglicht", "erlaubt"), ("ermöglichen", "erlauben"), ("bietet", "liefert"), ("bieten", "liefern"),
        ("erstellen", "anlegen"), ("ändern", "anpassen"), ("entfernen", "löschen"), ("anzeigen", "ausgeben"),
        ("wichtig", "bedeutsam"), ("wichtige", "bedeutsame"), ("wichtigen", "bedeutsamen"), ("einfach", "leicht"),
        ("mehrere", "etliche"), ("viele", "zahlreiche"), ("vielen", "zahlreichen"), ("verschiedene", "unterschiedliche"),
        ("verschiedenen", "unterschiedlichen"), ("zusätzliche", "weitere"), ("zusätzlichen", "weiteren"),
        ("schnell", "rasch"), ("automatisch", "selbsttätig"), ("derzeit", "gegenwärtig"), ("zunächst", "erst einmal"),
        ("besonders", "insbesondere"), ("hauptsächlich", "vor allem"), ("ebenfalls", "gleichfalls"),
        ("Verzeichnisse", "Ordner"), ("Probleme", "Schwierigkeiten"), ("Befehle", "Kommandos"),
        ("Programme", "Anwendungen"), ("Möglichkeit", "Option"), ("Möglichkeiten", "Optionen"), ("deshalb", "darum"),
        ("weil", "da"), ("obwohl", "auch wenn"), ("stattdessen", "anstelle dessen"), ("benötigen", "brauchen"),
        ("sehr ", ""), ("beginnen", "anfangen"), ("erhalten", "bekommen"), ("prüfen", "kontrollieren"),
        ("Benutzer", "Anwender"), ("Rechner", "Computer"), ("Hilfe", "Unterstützung"), ("üblich", "gängig"),
        ("häufig", "oft"), ("ausführen", "starten"), ("auswählen", "wählen"), ("empfohlen", "geraten"),
    ),
    "fr": (
        ("utiliser", "employer"), ("utilise", "emploie"), ("utilisent", "emploient"), ("utilisé", "employé"),
        ("utilisée", "employée"), ("utilisés", "employés"), ("utilisant", "employant"), ("contient", "comprend"),
        ("contiennent", "comprennent"), ("fournit", "offre"), ("fournissent", "offrent"),
        ("permet de", "donne la possibilité de"), ("permettent de", "donnent la possibilité de"),
        ("créer", "générer"), ("modifier", "changer"), ("supprimer", "effacer"), ("afficher", "montrer"),
        ("affiche", "montre"), ("important", "essentiel"), ("importante", "essentielle"), ("plusieurs", "un certain nombre de"),
        ("nombreux", "multiples"), ("nombreuses", "multiples"), ("différents", "divers"), ("différentes", "diverses"),
        ("rapidement", "vite"), ("automatiquement", "de façon automatique"), ("actuellement", "à l'heure actuelle"),
        ("principalement", "surtout"), ("notamment", "en particulier"), ("simple", "facile"),
        ("répertoire", "dossier"), ("répertoires", "dossiers"), ("problème", "souci"), ("problèmes", "soucis"),
        ("méthode", "façon"), ("donc", "par conséquent"), ("parce que", "car"), ("bien que", "quoique"),
        ("au lieu de", "plutôt que de"), ("lorsque", "quand"), ("Lorsque", "Quand"), ("très ", ""),
        ("obtenir", "récupérer"), ("vérifier", "contrôler"), ("choisir", "sélectionner"), ("commencer", "débuter"),
        ("souvent", "fréquemment"), ("exécuter", "lancer"), ("recommandé", "conseillé"),
        ("nécessite", "exige"), ("nécessitent", "exigent"), ("utilisateurs", "usagers"),
    ),
    "zh-Hans": (
        ("使用", "利用"), ("提供", "给出"), ("包含", "含有"), ("包括", "涵盖"), ("允许", "准许"), ("重要", "关键"),
        ("许多", "不少"), ("很多", "不少"), ("大约", "约"), ("快速", "迅速"), ("创建", "建立"), ("修改", "更改"),
        ("删除", "移除"), ("显示", "展示"), ("目前", "当前"), ("现在", "如今"), ("主要是", "大多是"), ("特别", "尤其"),
        ("自动", "自行"), ("目录", "文件夹"), ("方法", "办法"), ("之后", "以后"), ("之前", "以前"), ("的时候", "时"),
        ("因为", "由于"), ("虽然", "尽管"), ("而且", "并且"), ("所有", "全部"), ("每个", "每一个"), ("简单", "简便"),
        ("计算机", "电脑"), ("命令", "指令"), ("执行", "运行"), ("获取", "取得"), ("检查", "查看"),
        ("选择", "挑选"), ("推荐", "建议"), ("额外的", "附加的"), ("常用", "常见"), ("功能", "作用"), ("得到", "获得"), ("经常", "时常"),
    ),
    "zh-Hant": (
        ("使用", "利用"), ("提供", "給出"), ("包含", "含有"), ("包括", "涵蓋"), ("允許", "准許"), ("重要", "關鍵"),
        ("許多", "不少"), ("很多", "不少"), ("大約", "約"), ("快速", "迅速"), ("創建", "建立"), ("修改", "更改"),
        ("刪除", "移除"), ("顯示", "展示"), ("目前", "當前"), ("現在", "如今"), ("主要是", "大多是"), ("特別", "尤其"),
        ("自動", "自行"), ("目錄", "資料夾"), ("方法", "辦法"), ("之後", "以後"), ("之前", "以前"), ("的時候", "時"),
        ("因為", "由於"), ("雖然", "儘管"), ("而且", "並且"), ("所有", "全部"), ("每個", "每一個"), ("簡單", "簡便"),
        ("計算機", "電腦"), ("命令", "指令"), ("執行", "運行"), ("獲取", "取得"), ("檢查", "查看"),
        ("選擇", "挑選"), ("推薦", "建議"), ("額外的", "附加的"), ("常用", "常見"), ("功能", "作用"), ("得到", "獲得"), ("經常", "時常"),
    ),
}

# Who does it: "You can X" becomes "It is possible to X" (the same claim, another subject).
REGISTER: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("You can ", "It is possible to "), ("You need to ", "It is necessary to "),
           ("You must ", "It is necessary to "), ("You should ", "It is advisable to "),
           ("you can ", "it is possible to ")),
    "de": (("Sie können ", "Man kann "), ("Sie müssen ", "Man muss "), ("Sie sollten ", "Man sollte "),
           ("können Sie ", "kann man "), ("müssen Sie ", "muss man ")),
    "fr": (("Vous pouvez ", "On peut "), ("vous pouvez ", "on peut "), ("Vous devez ", "Il faut "),
           ("vous devez ", "il faut ")),
    "zh-Hans": (("您可以", "可以"), ("你可以", "可以"), ("您需要", "需要"), ("你需要", "需要")),
    "zh-Hant": (("您可以", "可以"), ("你可以", "可以"), ("您需要", "需要"), ("你需要", "需要")),
}
