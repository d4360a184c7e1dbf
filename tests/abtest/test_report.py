"""The Markdown and HTML reports: ranking, charts, every answer with its flagged spans."""

from __future__ import annotations

import pytest
from scripted_checker import ScriptedChecker

from hallucheck.abtest.cases import ABCase, demo_cases
from hallucheck.abtest.charts import charts_available
from hallucheck.abtest.extractive import EXTRACTIVE_NOTE, ExtractiveLLM
from hallucheck.abtest.report import render_html, render_markdown, write_report
from hallucheck.abtest.runner import ABTester
from hallucheck.llm.fake import FakeLLM
from hallucheck.pages import page_template


@pytest.fixture(scope="module")
def result():
    cases = [c for c in demo_cases() if c.id in ("refund-zh", "refund-en")]
    llm = FakeLLM(lambda m, s: "Unopened products: full refund within 30 days. HIGH extra <b>bonus</b>.")
    return ABTester(llm, ["basic", "forced_citation"], ScriptedChecker(), backend_note="scripted").run(cases)


def test_markdown_has_ranking_formula_and_marked_spans(result):
    md = render_markdown(result, {})
    assert "## Recommendation" in md and "| 1 | " in md and "0.30 × keyword coverage" in md
    assert "**⟦HIGH⟧**" in md and "— fabrication (scripted)" in md
    assert "### refund-zh — 我對產品不滿意，可以退款嗎？" in md and "**[POLICY-005]**" in md


def test_html_escapes_and_highlights(result):
    page = render_html(result, {})
    assert page.startswith("<!doctype html>") and "scripted" in page
    assert "<mark " in page and ">HIGH</mark>" in page
    assert "&lt;b&gt;bonus&lt;/b&gt;" in page and "<b>bonus</b>" not in page
    assert page.count('class="run"') == 4


SCRIPT = "<script>alert(1)</script>"


def test_html_escapes_script_in_every_text_it_shows():
    case = ABCase(id=f"c{SCRIPT}", question=f"Why {SCRIPT}?", contexts=[{"id": "S<1>", "text": f"Refunds {SCRIPT} in 30 days."}],
                  expected_keywords=[SCRIPT])
    llm = FakeLLM(lambda m, s: f"Answer: HIGH {SCRIPT}\n\nAnswer: HIGH {SCRIPT}")
    res = ABTester(llm, ["basic", "chain_of_thought"], ScriptedChecker(), backend_note=f"note {SCRIPT}").run([case])
    page = render_html(res, {})
    assert "<script" not in page and "</script>" not in page
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 7  # id, question, source, keyword, note, answers, raw
    assert "[S&lt;1&gt;]" in page


def test_html_comes_from_the_packaged_template_with_the_shared_frame(result):
    template = page_template("hallucheck.abtest", "report.html.j2")
    assert template.environment.autoescape("report.html.j2") is True
    page = render_html(result, {})
    layout = page_template("hallucheck.abtest", "layout.html.j2").render()
    assert page[: page.index("<title>")] == layout[: layout.index("<title>")]  # the frame shared with the eval report
    assert page.count(".gold{") == 1


@pytest.mark.skipif(not charts_available(), reason="matplotlib (extra 'report') not installed")
def test_write_report_embeds_charts(result, tmp_path):
    paths = write_report(result, tmp_path / "out")
    for name in ("score", "metrics", "risk", "cost"):
        png = paths[f"chart_{name}"].read_bytes()
        assert png.startswith(b"\x89PNG")
    html = paths["html"].read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 4
    assert "](charts/score.png)" in paths["markdown"].read_text(encoding="utf-8")
    assert paths["json"].is_file()


def test_extractive_backend_is_named_in_the_report(tmp_path):
    cases = demo_cases()[:2]
    res = ABTester(ExtractiveLLM(), ["forced_citation", "structured"], ScriptedChecker(), backend_note=EXTRACTIVE_NOTE).run(cases)
    assert res.backend == "extractive-demo"
    assert "no language model" in render_html(res, {}) and "no language model" in render_markdown(res, {})
    assert all(r.cited for r in res.runs) and all(r.keyword_coverage >= 0.5 for r in res.runs)
