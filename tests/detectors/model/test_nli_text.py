"""The verifier reads an answer sentence as written, whether or not it carried citation markers."""

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.detectors.model.nli import _as_written, long_enough


def _sentences(answer: str) -> list[str]:
    return [_as_written(s.text) for s in CaseAnalysis(make_case(question="", contexts=["x", "y"], answer=answer)).sentences]


def test_a_masked_marker_leaves_no_gap_or_caret_in_what_the_verifier_reads():
    plain = _sentences("Profit grew 8% in 2022. It rose again.")
    assert _sentences("Profit grew 8% in 2022 [1]. It rose again^[2].") == plain
    assert _sentences("Profit grew 8% in 2022. [1] It rose again. [Source 2]") == plain
    assert _as_written("利润增长了    。") == "利润增长了。"


def test_a_short_chinese_sentence_is_long_enough_to_judge_but_a_short_latin_one_is_not():
    assert long_enough("今天是禮拜四。")  # 6 ideographs and a full stop: 13 by weight
    assert long_enough("彈鋼琴很困難。")
    assert not long_enough("是的。")  # 2 ideographs and a full stop: 5
    assert long_enough("abc12345")
    assert not long_enough("Yes, ok")  # 7 characters, none of them Han
    assert not long_enough("Yes.")
    assert not long_enough("。。。。。。。。")
    assert not long_enough("   好   ")


def test_the_verifier_reads_a_short_chinese_sentence() -> None:
    from hallucheck.detectors.model.nli import SHIPPED_MODEL, NLIDetector

    if not (SHIPPED_MODEL / "model.onnx").is_file():
        pytest.skip("no shipped verifier")
    analysis = CaseAnalysis(make_case(question="", contexts=["今天是星期四。"], answer="今天是禮拜四。"))
    finding = NLIDetector().verify(analysis)
    assert finding.sentence_verdicts and len(finding.sentence_verdicts) == 1
    assert "no sentence long enough to check" not in finding.notes
