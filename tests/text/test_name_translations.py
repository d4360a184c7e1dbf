"""Names Chinese gives by meaning."""

from __future__ import annotations

from hallucheck.text.name_translations import TRANSLATED_NAMES, translated_name_in


def test_a_name_is_found_by_its_usual_rendering() -> None:
    assert translated_name_in("Tory", "奈杰尔·法拉奇在保守党大会上抗议。")
    assert translated_name_in("Tory", "奈傑爾·法拉奇在保守黨大會上抗議。")
    assert translated_name_in("Supreme  Court", "最高法院驳回了上诉。")
    assert not translated_name_in("Tory", "工党大会上")
    assert not translated_name_in("Labor Day", "工党大会上")  # not in the table


def test_every_name_has_a_rendering_in_han() -> None:
    assert all(r and all("\u4e00" <= c <= "\u9fff" for c in "".join(rs)) for rs in TRANSLATED_NAMES.values() for r in rs)
