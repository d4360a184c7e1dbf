"""Faithful answers in other words are accepted; a changed version of each is flagged with a span on the change.

The examples are the ones users met: one-line facts restated in five languages, a reworded French
answer, equal quantities written differently, a reworded and a reversed profit sentence, and a
deal whose terms were not disclosed. Each runs through the default ``Checker()``.
"""

import pytest

from hallucheck import Checker

pytestmark = pytest.mark.slow

FRANCE = "Paris is the capital of France."
FR_SOURCE = "Notre entreprise a été fondée en 2010 à Paris. Elle emploie aujourd'hui 45 personnes."
PROFIT = "In 2022 the firm's profit rose 8% to 2.1 billion dollars, driven mainly by strong demand in Europe."
DEAL = "The company acquired the startup for an undisclosed sum in March."

FAITHFUL = [
    ("fr-reworded", FR_SOURCE, "Elle a été fondée à Paris, en 2010."),
    ("en-capital", FRANCE, "The capital of France is Paris."),
    ("fr-capital", FRANCE, "La capitale de la France est Paris."),
    ("de-capital", FRANCE, "Die Hauptstadt von Frankreich ist Paris."),
    ("zh-Hans-capital", FRANCE, "法国的首都是巴黎。"),
    ("zh-Hant-capital", FRANCE, "法國的首都是巴黎。"),
    ("zh-time", "列车每天上午8点出发。", "列车每天早上八点出发。"),
    ("en-duration", "The drone flies for up to 90 minutes.", "The drone flies for up to an hour and a half."),
    ("zh-Hant-price", "售價為新台幣25,900元。", "售價為新台幣兩萬五千九百元。"),
    ("en-profit", PROFIT, "Profit grew 8% in 2022 to $2.1 billion, largely thanks to robust European demand."),
    ("en-deal", DEAL, "The terms of the deal were not disclosed."),
    ("en-deal-reworded", DEAL, "In March, the company bought the startup; the price was not made public."),
    ("zh-Hans-revenue-words", "公司去年营收1.5亿元。", "公司去年营收一亿五千万元。"),
    ("zh-Hans-month-in-numerals", "英国计划在三月底退出欧盟。", "英国计划在 3 月底退出欧盟。"),
    ("zh-Hant-month-in-numerals", "英國計劃在三月底退出歐盟。", "英國計劃在 3 月底退出歐盟。"),
    ("zh-Hans-millions-spaced", "这个地区有300万人居住。", "该地区有 3 百万居民。"),
    ("zh-Hant-millions-spaced", "這個地區有300萬人居住。", "該地區有 3 百萬居民。"),
    ("de-weeks-as-days", "Die Lieferung dauert drei Wochen.", "Die Lieferung dauert 21 Tage."),
    ("fr-hours-as-minutes", "La réunion dure deux heures.", "La réunion dure 120 minutes."),
    ("en-years-as-months", "The warranty lasts two years.", "The warranty lasts 24 months."),
    ("en-weekdays-abbreviated", "The store is open Monday to Friday.", "The store is open Mon–Fri."),
    ("de-weekdays-abbreviated", "Das Geschäft ist von Montag bis Freitag geöffnet.", "Das Geschäft ist Mo–Fr geöffnet."),
]

# (name, source, changed answer, the words a span must cover)
CHANGED = [
    ("fr-figure", FR_SOURCE, "Elle a été fondée à Paris, en 2012.", "2012"),
    ("fr-added", FR_SOURCE, "Elle a été fondée à Paris, en 2010, par Jean Dupont.", "Jean Dupont"),
    ("en-capital-changed", FRANCE, "The capital of France is Lyon.", "Lyon"),
    ("de-capital-negated", FRANCE, "Die Hauptstadt von Frankreich ist nicht Paris.", "nicht"),
    ("zh-Hans-capital-changed", FRANCE, "法国的首都是里昂。", "里昂"),
    ("zh-Hant-capital-changed", FRANCE, "法國的首都是柏林。", "柏林"),
    ("de-capital-berlin", FRANCE, "Die Hauptstadt von Frankreich ist Berlin.", "Berlin"),
    ("fr-capital-changed", FRANCE, "La capitale de la France est Lyon.", "Lyon"),
    ("zh-time-changed", "列车每天上午8点出发。", "列车每天早上九点出发。", "九点"),
    ("en-duration-changed", "The drone flies for up to 90 minutes.", "The drone flies for up to two hours.", "two hours"),
    ("zh-Hant-price-changed", "售價為新台幣25,900元。", "售價為新台幣兩萬六千九百元。", "兩萬六千九百"),
    ("en-profit-reversed", PROFIT, "Profit fell by 8 percent in 2022 to $2.1 billion because of weak demand in Europe.", "fell"),
    ("en-deal-figure", DEAL, "The company acquired the startup for 40 million dollars in March.", "40 million"),
    ("zh-Hans-revenue-rounded-up", "公司去年营收1.5亿元。", "公司去年营收2亿元。", "2亿元"),
    ("zh-Hans-month-changed", "英国计划在三月底退出欧盟。", "英国计划在 5 月底退出欧盟。", "5 月"),
    ("zh-Hans-millions-changed", "这个地区有300万人居住。", "该地区有 4 百万居民。", "4 百万"),
    ("de-weeks-changed", "Die Lieferung dauert drei Wochen.", "Die Lieferung dauert 14 Tage.", "14 Tage"),
    ("fr-hours-changed", "La réunion dure deux heures.", "La réunion dure 90 minutes.", "90 minutes"),
    ("en-weekdays-changed", "The store is open Monday to Friday.", "The store is open Monday through Saturday.", "Saturday"),
    ("en-revenue-rounded-up", "Revenue was 1.5 billion dollars last year.", "Revenue was 2 billion dollars last year.", "2 billion"),
]


# Examples the product does not yet get right (docs/model.md, "Verifier results"): the verifier
# reads these rewordings as not entailed (or, for an English answer at risk 0.7 or more, is not
# asked). Strict: the day one passes, the test says so and the mark must go.
NOT_YET = {
    "en-deal", "en-deal-reworded",
}


def _cases(rows):
    return [pytest.param(*row, id=row[0], marks=[pytest.mark.xfail(strict=True, reason="not yet: see NOT_YET")]
                         if row[0] in NOT_YET else []) for row in rows]


@pytest.fixture(scope="module")
def checker():
    return Checker()


@pytest.mark.parametrize(("name", "source", "answer"), _cases(FAITHFUL))
def test_faithful_rewording_is_accepted(checker, name, source, answer):
    report = checker.check(question="", contexts=[source], answer=answer)
    assert report.decision == "accept", (name, report.decision, report.risk_score, [(s.text, s.label) for s in report.spans],
                                         report.notes[:4])


@pytest.mark.parametrize(("name", "source", "answer", "changed"), _cases(CHANGED))
def test_changed_version_is_flagged_with_a_span_on_the_change(checker, name, source, answer, changed):
    report = checker.check(question="", contexts=[source], answer=answer)
    start = answer.index(changed)
    end = start + len(changed)
    assert report.decision != "accept", (name, report.risk_score, report.notes[:4])
    assert any(s.start < end and s.end > start for s in report.spans), (name, [(s.text, s.label) for s in report.spans])
