"""The opposites detector: negations flipped and words replaced by their opposites, against the
source sentence that says the same thing otherwise."""

from __future__ import annotations

import pytest

from hallucheck import Case, Checker
from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.opposites import OppositesDetector


def _spans(answer: str, source: str, language: str | None = None) -> list[tuple[str, str | None]]:
    case = Case(question="q", contexts=[source], answer=answer, language=language)
    finding = OppositesDetector().detect(CaseAnalysis(case))
    return [(s.text, s.kind) for s in finding.spans]


@pytest.mark.parametrize(
    ("answer", "source", "language", "text"),
    [
        ("The restaurant is not suitable for large groups.", "The restaurant is suitable for large groups.", "en", "not"),
        ("The restaurant takes reservations for large groups.",
         "The restaurant doesn't take reservations for large groups.", "en", "takes"),
        ("The package cannot be installed on older systems.", "The package can be installed on older systems.", "en", "cannot"),
        ("Dieses Paket ist nicht im Standardsystem enthalten.", "Dieses Paket ist im Standardsystem enthalten.", "de", "nicht"),
        ("Vous ne pouvez pas afficher la liste des alias existants.", "Vous pouvez afficher la liste des alias existants.", "fr", "ne"),
        ("该软件包不能安装在旧系统上。", "该软件包可以安装在旧系统上。", "zh-Hans", "不"),
        # a negation in an article's place: "no" for "a", "keine" for "eine", "aucune" for "une", 没有 for 有
        ("All laptops come with no warranty from the shop.", "All laptops come with a warranty from the shop.", "en", "no"),
        ("Alle Laptops haben keine Garantie.", "Alle Laptops haben eine Garantie von zwei Jahren.", "de", "keine"),
        ("Les ordinateurs portables n'ont aucune garantie.", "Les ordinateurs portables ont une garantie de deux ans.", "fr", "n'"),
        ("Le produit n'est plus disponible dans les magasins.", "Le produit est disponible dans les magasins.", "fr", "n'"),
        ("所有笔记本电脑都没有保修服务。", "所有笔记本电脑都有保修服务。", "zh-Hans", "没有"),
        # words that say when a negation holds are part of it: "no longer", "not yet", "nicht mehr", 不再, 尚未
        ("The new version no longer supports encrypted backups on all devices.",
         "The new version supports encrypted backups on all devices.", "en", "no"),
        ("The update was not yet released in March for all users.", "The update was released in March for all users.", "en", "not"),
        ("Die neue Version unterstützt verschlüsselte Backups nicht mehr auf allen Geräten.",
         "Die neue Version unterstützt verschlüsselte Backups auf allen Geräten.", "de", "nicht"),
        ("Das Update wurde im März noch nicht für alle Nutzer veröffentlicht.",
         "Das Update wurde im März für alle Nutzer veröffentlicht.", "de", "nicht"),
        # the answer drops the negation and keeps its time word
        ("Die Verwendung durch den Administrator ist mehr zeitgemäß.",
         "Die Verwendung durch den Administrator ist nicht mehr zeitgemäß.", "de", "mehr"),
        ("新版本在所有设备上不再支持加密备份。", "新版本在所有设备上支持加密备份。", "zh-Hans", "不"),
        ("该更新尚未于三月向所有用户发布。", "该更新已于三月向所有用户发布。", "zh-Hans", "未"),
        ("博物館每週日上午從不提供免費導覽。", "博物館每週日上午提供免費導覽。", "zh-Hant", "不"),
        # "still" is what "no longer" takes the place of; 已经 and 仍然 are one word each
        ("The app still supports Windows 7 and older systems.", "The app no longer supports Windows 7 and older systems.",
         "en", "still"),
        ("他仍然担任公司的首席执行官。", "他已经不再担任公司的首席执行官。", "zh-Hans", "仍然"),
        ("您的退款还未到账，请耐心等待。", "您的退款已经到账，请耐心等待。", "zh-Hans", "未"),
    ],
)
def test_a_flipped_negation_is_a_contradiction_on_the_negation(answer: str, source: str, language: str, text: str) -> None:
    spans = _spans(answer, source, language)
    assert [k for _, k in spans] == ["flipped_negation"]
    assert text in spans[0][0]


@pytest.mark.parametrize(
    ("answer", "source", "word"),
    [
        ("Take longer showers to save water every day.", "Take shorter showers to save water every day.", "longer"),
        ("Sales of the new model fell sharply in the second quarter.",
         "Sales of the new model rose sharply in the second quarter.", "fell"),
        ("The service is unavailable in the northern districts of the city.",
         "The service is available in the northern districts of the city.", "unavailable"),
        ("Die Option ist standardmäßig deaktiviert und muss gesetzt werden.",
         "Die Option ist standardmäßig aktiviert und muss gesetzt werden.", "deaktiviert"),
        # an opposite that also negates without a negation word counts once
        ("酒店所有房間都禁止攜帶寵物。", "酒店所有房間都允許攜帶寵物。", "禁止"),
        ("The hotel allows pets in none of its rooms.", "The hotel allows pets in all of its rooms.", "none"),
        # German puts the participle last: the opposite ends the sentence, with context on its left only
        ("Der Rat hat den neuen Brückenplan im März abgelehnt.", "Der Rat hat den neuen Brückenplan im März genehmigt.",
         "abgelehnt"),
        ("Die Umsätze sind im letzten Jahr deutlich gesunken.", "Die Umsätze sind im letzten Jahr deutlich gestiegen.",
         "gesunken"),
        ("Le conseil a rejeté le nouveau projet de pont en mars.", "Le conseil a approuvé le nouveau projet de pont en mars.",
         "rejeté"),
        ("议会在三月否决了新的桥梁计划。", "议会在三月批准了新的桥梁计划。", "否决"),
        ("議會在三月否決了新的橋樑計劃。", "議會在三月批准了新的橋樑計劃。", "否決"),
        ("公司去年的利润大幅下跌，销售额增长了百分之十。", "公司去年的利润大幅上涨，销售额增长了百分之十。", "下跌"),
        # an opposite written with a negation character: one opposite, not an opposite and a negation
        ("研究表明，该药物对儿童无效，家长应咨询医生。", "研究表明，该药物对儿童有效，家长应咨询医生。", "无效"),
        ("實驗結果表明該方法無效。", "實驗結果表明該方法有效。", "無效"),
        ("研究发现吸烟会降低患肺癌的风险。", "研究发现吸烟会增加患肺癌的风险。", "降低"),
        ("The agency downgraded the country's credit rating last week.",
         "The agency upgraded the country's credit rating last week.", "downgraded"),
    ],
)
def test_an_opposite_word_is_a_contradiction_on_the_word(answer: str, source: str, word: str) -> None:
    assert _spans(answer, source) == [(word, "opposite_word")]


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        # the same sentence
        ("The restaurant is not suitable for large groups.", "The restaurant is not suitable for large groups."),
        # the negation moved, the meaning kept
        ("No Amber Alert was issued because the child did not die.", "An Amber Alert was not issued because the child did not die."),
        # a negation inside a condition
        ("If the needle does not move, the gauge is faulty and must be replaced.",
         "If the needle moves, the gauge is faulty and must be replaced."),
        # "not X but Y" told without the correction
        ("He took to Twitter to set priorities, focusing on the lost games.",
         "He took to Twitter to set priorities, focusing not on the lost games, but on the city."),
        # "not possible" and "impossible" say the same
        ("It is not possible to mount the disk twice in one system.", "It is impossible to mount the disk twice in one system."),
        # the source says both: another sentence states the answer's version
        ("The museum is not open on Mondays during the winter.",
         "The museum is open on Mondays during the summer. The museum is not open on Mondays during the winter."),
        # the answer's version first in its sentence, stated by a source sentence that is not the best match
        ("本地倉庫保持已經提交的的檔案。", "遠端倉庫保持已經提交的檔案。本地倉庫保持已經提交的的檔案。"),
        # "ne … que" is "only", not a negation; "aucun … n'est" is one negation, as is "n'a aucun"
        ("Il n'a que deux enfants et trois chats à la maison.", "Il a deux enfants et trois chats à la maison."),
        ("Aucun frais n'est facturé pour les retours de colis.", "Aucun frais n'est facturé pour les retours de colis."),
        ("Les clients n'ont aucun frais à payer pour le retour.", "Les clients n'ont pas de frais à payer pour le retour."),
        # "并非无效" is "有效" (two negations)
        ("实验结果表明该方法并非无效。", "实验结果表明该方法有效。"),
        # "keine" and "nicht … eine" say the same
        ("Das Paket hat keine Abhängigkeit zu Python.", "Das Paket hat nicht eine Abhängigkeit zu Python."),
        # a word and its opposite in two sentences that say different things
        ("The right upper quadrant contains the liver and the gallbladder.",
         "The right lower quadrant contains the appendix and the ovaries."),
        # a German verb-final opposite in a sentence that otherwise says something else
        ("Der Rat hat den Bauplan im März genehmigt.", "Die Stadt hat den Antrag der Firma im Mai abgelehnt."),
    ],
)
def test_no_contradiction_where_the_source_says_the_same(answer: str, source: str) -> None:
    assert _spans(answer, source) == []


def test_the_evidence_is_the_source_sentence() -> None:
    case = Case(question="q", contexts=[{"id": "doc-1", "text": "Intro. The bridge was opened in 1932."}],
                answer="The bridge was not opened in 1932.")
    (span,) = OppositesDetector().detect(CaseAnalysis(case)).spans
    assert span.label == "contradiction"
    assert span.evidence[0].source_id == "doc-1"
    assert span.evidence[0].text == "The bridge was opened in 1932."
    assert span.evidence[0].relation == "contradicts"


def test_empty_answer_and_bad_options() -> None:
    finding = OppositesDetector().detect(CaseAnalysis(Case(question="q", contexts=["Some text here."], answer="")))
    assert not finding.flagged and finding.risk == 0.0
    with pytest.raises(ValueError):
        OppositesDetector(max_source_sentences=0)


def test_the_default_checker_runs_it() -> None:
    assert "opposites" in Checker().detector_names


@pytest.mark.parametrize(
    ("answer", "source", "language", "text"),
    [
        ("Alle Laptops haben keine Garantie [1].", "Alle Laptops haben eine Garantie von zwei Jahren.", "de", "keine"),
        ("Les ordinateurs portables n'ont aucune garantie [1].",
         "Les ordinateurs portables ont une garantie de deux ans.", "fr", "n'"),
        ("新版本在所有设备上不再支持加密备份[1]。", "新版本在所有设备上支持加密备份。", "zh-Hans", "不"),
        ("項目經理王強負責整個系統的遷移工作[1]。", "項目經理李明負責整個系統的遷移工作。", "zh-Hant", "王強"),
    ],
)
def test_the_default_verdict_rejects_the_negation_forms_and_names(answer: str, source: str, language: str,
                                                                  text: str) -> None:
    """The floors of flipped negations and replaced names reach the default verdict, cited answers too."""
    report = Checker().check(question="?", contexts=[source], answer=answer, language=language)
    assert report.hallucinated and report.decision == "reject"
    assert any(s.label == "contradiction" and text in s.text for s in report.spans)


def test_the_default_verdict_keeps_a_flipped_negation() -> None:
    """The shipped floor table makes a flipped negation reject the answer, with its span."""
    source = "Die Datei wird beim Start des Systems automatisch geladen und danach regelmäßig geprüft."
    answer = "Die Datei wird beim Start des Systems nicht automatisch geladen und danach regelmäßig geprüft."
    report = Checker().check(question="Wird die Datei geladen?", contexts=[source], answer=answer, language="de")
    assert report.hallucinated
    assert any(s.label == "contradiction" and "nicht" in s.text for s in report.spans)
    copy = Checker().check(question="Wird die Datei geladen?", contexts=[source], answer=source, language="de")
    assert not copy.hallucinated


@pytest.mark.parametrize(
    ("answer", "source", "language", "text"),
    [
        ("In 2019, Beta Labs acquired Acme Corp.", "In 2019, Acme Corp acquired Beta Labs.", "en", "Beta Labs acquired Acme Corp"),
        ("The company lent the bank 5 million euros.", "The bank lent the company 5 million euros.", "en", "company lent the bank"),
        ("Die Postbank übernahm 2010 die Deutsche Bank.", "Die Deutsche Bank übernahm 2010 die Postbank.", "de",
         "Postbank übernahm 2010 die Deutsche Bank"),
        ("En 2015, Jazztel a racheté Orange.", "En 2015, Orange a racheté Jazztel.", "fr", "Jazztel a racheté Orange"),
        ("2023年5月，饿了么收购了阿里巴巴。", "2023年5月，阿里巴巴收购了饿了么。", "zh-Hans", "饿了么收购了阿里巴巴"),
        ("英特爾在2020年超越了台積電。", "台積電在2020年超越了英特爾。", "zh-Hant", "英特爾在2020年超越了台積電"),
        # two English names traded need no verb between them
        ("Pages are served over the Protocol Transfer Hypertext by default.",
         "Pages are served over the Hypertext Transfer Protocol by default.", "en", "Protocol Transfer Hypertext"),
    ],
)
def test_swapped_roles_are_a_contradiction_on_the_clause(answer: str, source: str, language: str, text: str) -> None:
    assert _spans(answer, source, language) == [(text, "swapped_roles")]


@pytest.mark.parametrize(
    ("answer", "source", "language"),
    [
        # a passive says the same
        ("In 2019, Beta Labs was acquired by Acme Corp.", "In 2019, Acme Corp acquired Beta Labs.", "en"),
        ("2023年5月，饿了么被阿里巴巴收购。", "2023年5月，阿里巴巴收购了饿了么。", "zh-Hans"),
        # relations that read the same both ways, and lists
        ("The chancellor met the president in Berlin.", "The president met the chancellor in Berlin.", "en"),
        ("京东与腾讯在2014年开始合作。", "腾讯与京东在2014年开始合作。", "zh-Hans"),
        ("The kit includes a cable, a charger and a case.", "The kit includes a charger, a cable and a case.", "en"),
        # two clauses told in the other order
        ("Prices rose in Lyon; wages fell in Paris.", "Wages fell in Paris; prices rose in Lyon.", "en"),
        # the source says both directions
        ("Acme sued Beta in May.", "Beta sued Acme in March. Acme sued Beta in May.", "en"),
        # English words moved around a noun, no verb between two roles (RAGTruth's clean answers)
        ("Guests praised the perfectly prepared Bulletproof Coffee at breakfast.",
         "Guests praised the Bulletproof Coffee prepared perfectly at breakfast.", "en"),
        ("Reviewers called the food quality excellent and the staff kind.",
         "Reviewers called the excellent quality food and the staff kind.", "en"),
    ],
)
def test_no_swap_where_the_roles_are_the_same(answer: str, source: str, language: str) -> None:
    assert [k for _, k in _spans(answer, source, language) if k == "swapped_roles"] == []


@pytest.mark.parametrize(
    ("answer", "source", "language", "text"),
    [
        ("In GNU/Linux and other Minix operating systems, files live in directories.",
         "In GNU/Linux and other Unix-like operating systems, files live in directories.", "en", "Minix"),
        ("The report was written by John Miller in 2019.", "The report was written by John Smith in 2019.", "en", "Miller"),
        ("Die Konfiguration liegt in /etc/mtab und wird beim Start gelesen.",
         "Die Konfiguration liegt in /etc/fstab und wird beim Start gelesen.", "de", "mtab"),
        ("可以用 rpm 列出已安装的软件包。", "可以用 dpkg 列出已安装的软件包。", "zh-Hans", "rpm"),
        # a lower-case command the dictionary does not know
        ("You can list the installed packages with rpm on any system.",
         "You can list the installed packages with dpkg on any system.", "en", "rpm"),
        # Han-script names: a person, a place, the whole name marked where the two share a character
        ("项目经理王强负责整个系统的迁移工作。", "项目经理李明负责整个系统的迁移工作。", "zh-Hans", "王强"),
        ("該公司由馬雲於1999年在深圳創立。", "該公司由馬雲於1999年在杭州創立。", "zh-Hant", "深圳"),
        ("该公司由马化腾于1999年在杭州创立。", "该公司由马云于1999年在杭州创立。", "zh-Hans", "马化腾"),
        ("这个软件包由王小明维护，他住在上海。", "这个软件包由王小明维护，他住在北京。", "zh-Hans", "上海"),
        # two countries' adjectives are two names
        ("Italian authorities, who are working with Maltese rescuers, said 50 people had been saved.",
         "Italian authorities, who are working with Greek rescuers, said 50 people had been saved.", "en", "Maltese"),
        # a state code is a name of its own, no contraction of another
        ("He enrolled at the University of CA Anschutz Medical Campus in Aurora.",
         "He enrolled at the University of Colorado Anschutz Medical Campus in Aurora.", "en", "CA"),
    ],
)
def test_a_replaced_name_is_a_contradiction_on_the_name(answer: str, source: str, language: str, text: str) -> None:
    assert _spans(answer, source, language) == [(text, "replaced_name")]


@pytest.mark.parametrize(
    ("answer", "source", "language"),
    [
        # one name spelt two ways
        ("Nobel laureate Guenter Grass has died.", "Nobel laureate Günter Grass has died.", "en"),
        # a list item that begins with another verb
        ("2. Choose Xbox 360 Wireless Controller as the product.", "2. Select Xbox 360 Wireless Controller as the product.", "en"),
        # a common word, not a name
        ("The firm bought the startup in 2019.", "The company bought the startup in 2019.", "en"),
        # Han script: a common noun where the source has a name (no name on both sides)
        ("这个软件包由开发者维护。", "这个软件包由王小明维护。", "zh-Hans"),
        # the same name, longer: one holds the other
        ("项目经理李明明负责整个系统的迁移工作。", "项目经理李明负责整个系统的迁移工作。", "zh-Hans"),
        # a person where the source has a place: not the same kind of name
        ("会议由李明在周一主持。", "会议由北京在周一主持。", "zh-Hans"),
        # a pronoun for the name (a stop word the dictionary lacks is no term)
        ("Her parents entered her into the Virginia Commonwealth Games when she was 18 months old.",
         "Olivia's parents entered Olivia into the Virginia Commonwealth Games when she was only 18 months old.", "en"),
        # one stem, another ending; a contraction of the name
        ("It specializes in Cajun/Creole, Breakfast & Brunch, Catering, Restaurants and Burgers.",
         "It specializes in Cajun/Creole, Breakfast & Brunch, Caterers, Restaurants and Burgers.", "en"),
        ("He eventually attended St Louis University Medical School, dropping out after two years.",
         "He eventually attended Saint Louis University Medical School, dropping out after two years.", "en"),
        # a country and its adjective
        ("The embassy has recommended that all American citizens leave the country now.",
         "The embassy has recommended that all US citizens leave the country now.", "en"),
    ],
)
def test_no_replaced_name_for_spellings_list_items_common_words_and_other_kinds(answer: str, source: str,
                                                                                language: str) -> None:
    assert [k for _, k in _spans(answer, source, language) if k == "replaced_name"] == []


def test_a_german_noun_told_as_another_is_no_replaced_name() -> None:
    # German capitalises every noun: "Einstellung" for "Konfiguration" is a rewording, not a name
    spans = _spans("Die Einstellung liegt in der Datei und wird beim Start gelesen.",
                   "Die Konfiguration liegt in der Datei und wird beim Start gelesen.", "de")
    assert [k for _, k in spans if k == "replaced_name"] == []


def test_a_french_adverb_told_as_another_is_no_replaced_name() -> None:
    spans = _spans("PID=1 est normalement le programme init du système.", "PID=1 est habituellement le programme init du système.", "fr")
    assert [k for _, k in spans if k == "replaced_name"] == []


def test_a_source_sentence_with_an_aside_still_states_the_answers_name() -> None:
    """The answer leaves out a bracketed aside; the template sentence of another source, one name
    apart, must not make that name a replaced one."""
    sources = ['An old Polish Unix text file, "pu-file.txt", stored in the latin2 (iso-8859-2) encoding can be edited with vim.',
               'An old Japanese unix text file, "ju-file.txt", stored in the eucJP encoding can be edited with vim.']
    answer = 'An old Polish Unix text file, "pu-file.txt", stored in the latin2 encoding can be edited with vim.'
    finding = OppositesDetector().detect(CaseAnalysis(Case(contexts=sources, answer=answer, language="en")))
    assert [s.kind for s in finding.spans] == []
    # a name the aside's sentence does not state is still a replaced one
    wrong = 'An old Polish Unix text file, "pu-file.txt", stored in the eucJP (iso-8859-2) encoding can be edited with vim.'
    finding = OppositesDetector().detect(CaseAnalysis(Case(contexts=sources[:1], answer=wrong, language="en")))
    assert [(s.text, s.kind) for s in finding.spans] == [("eucJP", "replaced_name")]


@pytest.mark.parametrize(("answer", "source"), [
    ("La ville avait célébré son 40e anniversaire lorsque le séisme a frappé.",
     "La ville fêtait son 40è anniversaire lorsque le séisme a eu lieu."),
    ("Le conflit du milieu du 17e siècle a formé notre nation.", "Le conflit du milieu du XVIIe siècle a formé notre nation."),
])
def test_an_ordinal_written_another_way_is_no_replaced_name(answer: str, source: str) -> None:
    assert _spans(answer, source, "fr") == []
