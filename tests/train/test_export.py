"""The exported ONNX tagger gives the same spans as the training-time (torch) model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

pytestmark = [pytest.mark.train, pytest.mark.slow]


@pytest.fixture(scope="module", params=["base", "polarity"])
def exported(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path,
             tiny_data: Path):  # type: ignore[no-untyped-def]
    """A tiny run exported: with the ten base inputs, and with every input (polarity_clash too)."""
    from dataclasses import replace

    from hallucheck.models.tagger_features import FEATURE_NAMES
    from hallucheck.train.export import export_run
    from hallucheck.train.loop import train
    from tests.train.conftest import make_config

    run = tmp_path_factory.mktemp("export_run")
    cfg = make_config(tiny_model_dir, tiny_data)
    if request.param == "polarity":
        cfg = replace(cfg, features=list(FEATURE_NAMES))
    train(cfg, run, echo=False)
    out = run / "pkg"
    package = export_run(run, out, sample_answers=3)
    return run, out, package


def _final_model(run: Path):  # type: ignore[no-untyped-def]
    """The run's final weights in eval mode, with the config they were trained with."""
    from hallucheck.train.config import TrainConfig
    from hallucheck.train.loop import build_model

    state = torch.load(run / "final.pt", map_location="cpu", weights_only=False)
    cfg = TrainConfig.from_saved(state["config"])
    model = build_model(cfg, cfg.base_model)
    model.load_state_dict(state["model"])
    model.eval()
    return cfg, model


def test_package_layout(exported) -> None:  # type: ignore[no-untyped-def]
    _, out, package = exported
    assert {p.name for p in out.iterdir()} == {"model.onnx", "tokenizer.json", "config.json"}
    cfg = json.loads((out / "config.json").read_text())
    assert cfg["quantization"] in ("int8-dynamic-per-channel", "fp32")
    assert cfg["export_check"]["fp32_onnx_max_abs_diff"] < 1e-4
    assert cfg["train_data_sha256"] == package["train_data_sha256"]
    trained, _ = _final_model(exported[0])
    assert tuple(cfg["feature_names"]) == trained.encoder_settings().features


def test_onnx_spans_equal_torch_spans(exported, tiny_data: Path) -> None:  # type: ignore[no-untyped-def]
    from hallucheck.models.tagger import Tagger
    from hallucheck.models.tagger_spans import probs_to_spans
    from hallucheck.text import tokenize
    from hallucheck.train.data import Example, read_records
    from hallucheck.train.export import export_onnx
    from hallucheck.train.loop import collate

    run, out, _ = exported
    cfg, model = _final_model(run)
    # compare the fp32 graph exactly (int8 is checked by the export's own accuracy gate)
    fp32_dir = run / "fp32"
    fp32_dir.mkdir(exist_ok=True)
    export_onnx(model, fp32_dir / "model.onnx", len(cfg.encoder_settings().features))
    for name in ("tokenizer.json", "config.json"):
        (fp32_dir / name).write_bytes((out / name).read_bytes())
    tagger = Tagger(fp32_dir)
    checked = 0
    all_windows = []
    for _, rec in read_records(tiny_data, None, 6):
        tagged, _ = tagger.tag(rec["output"], rec["query"], (rec["context"],), "en")
        # the same windows through torch, one by one (no padding)
        torch_probs = []
        for w in tagged.windows:
            ex = Example(np.asarray(w.input_ids), np.asarray(w.type_ids), np.asarray(w.features, dtype=np.uint8),
                         np.zeros(len(w.target_offsets), dtype=np.int8), 0)
            b = collate([ex])
            with torch.no_grad():
                logits = model(b["input_ids"], b["attention_mask"], b["token_type_ids"], b["features"])
            torch_probs.append(1.0 - torch.softmax(logits, -1)[0, 1 : 1 + len(w.target_offsets), 0].numpy())
        for a, b2 in zip(tagged.window_probs, torch_probs):
            np.testing.assert_allclose(a, b2, atol=1e-4)
        probs = np.concatenate(torch_probs)
        offsets = [o for w in tagged.windows for o in w.target_offsets]
        thr = float(np.median(probs))  # a threshold that splits this sample, so spans exist
        toks = tokenize(rec["output"], "en")
        onnx_spans = probs_to_spans(rec["output"], offsets, np.concatenate(tagged.window_probs), thr, toks)
        torch_spans = probs_to_spans(rec["output"], offsets, probs, thr, toks)
        assert [(s.start, s.end) for s in onnx_spans] == [(s.start, s.end) for s in torch_spans]
        checked += bool(torch_spans)
        all_windows += tagged.windows
    assert checked > 0
    # windows of different lengths in one padded batch still match torch without padding
    from hallucheck.models.tagger_features import Window

    def cut(w: Window, k: int) -> Window:  # drop k evidence pieces (keeps the final [SEP])
        n = len(w.input_ids) - k - 1
        return Window(w.sentences, w.input_ids[:n] + w.input_ids[-1:], w.type_ids[:n] + w.type_ids[-1:],
                      w.features[:n] + w.features[-1:], w.target_offsets, w.units)

    mixed = [cut(w, k) for w in all_windows[:4] for k in (0, 3, 9)]
    assert len({len(w.input_ids) for w in mixed}) > 1
    for w, a in zip(mixed, tagger.run(mixed, batch_size=64)):
        ex = Example(np.asarray(w.input_ids), np.asarray(w.type_ids), np.asarray(w.features, dtype=np.uint8),
                     np.zeros(len(w.target_offsets), dtype=np.int8), 0)
        b = collate([ex])
        with torch.no_grad():
            ref = torch.softmax(model(b["input_ids"], b["attention_mask"], b["token_type_ids"], b["features"]), -1)
        np.testing.assert_allclose(a, 1.0 - ref[0, 1 : 1 + len(w.target_offsets), 0].numpy(), atol=1e-4)
    # a typed tagger: the ONNX type probabilities match torch's, and P(unsupported) = 1 - P(supported)
    assert tagger.typed
    probs, conflict = tagger.run_typed(mixed[:3])
    assert conflict is not None
    for w, _p, c in zip(mixed[:3], probs, conflict):
        ex = Example(np.asarray(w.input_ids), np.asarray(w.type_ids), np.asarray(w.features, dtype=np.uint8),
                     np.zeros(len(w.target_offsets), dtype=np.int8), 0)
        b = collate([ex])
        with torch.no_grad():
            ref = torch.softmax(model(b["input_ids"], b["attention_mask"], b["token_type_ids"], b["features"]), -1)
        ref = ref[0, 1 : 1 + len(w.target_offsets)].numpy()
        np.testing.assert_allclose(c, ref[:, 1] / (1.0 - ref[:, 0]), atol=1e-3)


@pytest.mark.parametrize("precision", ["fp32", "int8"])
def test_weights_read_back_from_onnx_give_the_same_probabilities(exported, precision: str) -> None:  # type: ignore[no-untyped-def]
    """A run can start from a shipped model.onnx: its weights read back reproduce its outputs."""
    import onnxruntime as ort

    from hallucheck.train.data import build_examples, load_tokenizer
    from hallucheck.train.export import export_onnx, quantize
    from hallucheck.train.loop import build_model, collate, initial_weights
    from hallucheck.train.onnx_weights import state_dict_from_onnx

    run, _, _ = exported
    cfg, model = _final_model(run)
    path = run / f"readback-{precision}.onnx"
    export_onnx(model, run / "readback-fp32.onnx", len(cfg.encoder_settings().features))
    if precision == "int8":
        quantize(run / "readback-fp32.onnx", path)
    read = state_dict_from_onnx(path)
    assert set(read) == set(model.state_dict())
    again = build_model(cfg, cfg.base_model)
    again.load_state_dict(initial_weights(str(path), again))
    again.eval()
    sample = build_examples(cfg.data, "calib", load_tokenizer(cfg.base_model), cfg.encoder_settings(), 1.0, 0, 3)
    b = collate(sample, cfg.n_types)
    with torch.no_grad():
        p_again = 1 - torch.softmax(again(b["input_ids"], b["attention_mask"], b["token_type_ids"], b["features"]), -1)[..., 0]
    sess = ort.InferenceSession(str(path))
    feeds = {k: b[k].numpy() for k in ("input_ids", "attention_mask", "token_type_ids", "features")}
    p_onnx = sess.run(None, feeds)[0]
    mask = b["attention_mask"].numpy().astype(bool)
    # the int8 file also quantises activations, which the float read-back does not
    tol = 1e-4 if precision == "fp32" else 0.05
    assert float(np.abs(p_again.numpy() - p_onnx)[mask].mean()) < tol


def test_a_binary_head_is_widened_with_the_same_unsupported_probability() -> None:
    from hallucheck.train.onnx_weights import widen_head

    w, b = torch.randn(2, 5), torch.randn(2)
    wide = widen_head({"head.2.weight": w, "head.2.bias": b}, 3)
    x = torch.randn(4, 5)
    p2 = 1 - torch.softmax(x @ w.T + b, -1)[:, 0]
    p3 = 1 - torch.softmax(x @ wide["head.2.weight"].T + wide["head.2.bias"], -1)[:, 0]
    assert torch.allclose(p2, p3, atol=1e-6)
    with pytest.raises(ValueError):
        widen_head({"head.2.weight": torch.randn(4, 5), "head.2.bias": torch.randn(4)}, 3)


def test_widened_features_give_the_same_outputs_while_the_new_inputs_are_zero() -> None:
    from hallucheck.train.onnx_weights import widen_features

    state = {"feature_embed.weight": torch.randn(6, 3), "head.0.weight": torch.randn(6, 6 + 3)}
    wide = widen_features(state, 5)
    assert wide["feature_embed.weight"].shape == (6, 5) and wide["head.0.weight"].shape == (6, 11)
    x = torch.randn(4, 3)
    x_wide = torch.cat([x, torch.randn(4, 2)], dim=1)  # whatever the new inputs hold
    assert torch.allclose(x @ state["feature_embed.weight"].T, x_wide @ wide["feature_embed.weight"].T, atol=1e-6)
    assert widen_features(state, 3) is state
    with pytest.raises(ValueError, match="cannot narrow"):
        widen_features(state, 2)


def test_the_shipped_tagger_reads_back_with_its_shared_word_table() -> None:
    """The shipped English tagger keeps its word table in the embedder's file; a run that starts
    from it still gets the whole model, the table included."""
    import json

    from hallucheck.models.shared_tensors import load_shared
    from hallucheck.models.tagger import TAGGER_DIR
    from hallucheck.train.onnx_weights import state_dict_from_onnx

    config = json.loads((TAGGER_DIR / "config.json").read_text(encoding="utf-8"))
    read = state_dict_from_onnx(TAGGER_DIR / "model.onnx")
    table = read["encoder.embeddings.word_embeddings.weight"].numpy()
    (quantised,) = load_shared(config).values()
    assert table.shape == quantised.shape
    assert len(np.unique(table)) == len(np.unique(quantised))  # one float per int8 level
    assert "head.2.weight" in read or any(k.startswith("head.") for k in read)


def test_the_multilingual_tagger_reads_back_with_its_split_word_table() -> None:
    """Its word table's MiniLM rows live in the embedder's file and its Chinese rows in the graph;
    a run that starts from it gets the whole table, in order."""
    from hallucheck.models.shared_tensors import MODELS_DIR
    from hallucheck.train.onnx_weights import state_dict_from_onnx

    read = state_dict_from_onnx(MODELS_DIR / "tagger_multilingual" / "model.onnx")
    table = read["encoder.embeddings.word_embeddings.weight"].numpy()
    assert table.shape == (37023, 384)
    base = np.fromfile(MODELS_DIR / "minilm" / "word_embeddings.bin", dtype=np.uint8).reshape(-1, 384)
    # the first rows, dequantised, are the embedder's int8 levels one for one (the scale is positive)
    levels = np.unique(table[: len(base)], return_inverse=True)[1].reshape(len(base), 384)
    assert (levels == np.unique(base, return_inverse=True)[1].reshape(len(base), 384)).all()
    assert not any("rows" in k for k in read)
