"""Weights stored once for several graphs: the shipped sharing holds, a graph built on shared data
computes what the self-contained one does, and a missing or different table is a clear error."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from hallucheck.models.runtime import inference_session
from hallucheck.models.shared_tensors import MODELS_DIR, SharedTensor, SharedTensorError, load_shared
from hallucheck.models.tagger import TAGGER_DIR, Tagger, TaggerUnavailable

# The budget of all shipped model files: the taggers, the embedder and the multilingual verifier.
SHIPPED_LIMIT_MB = 100.0


def _model_files() -> list[Path]:
    return [p for p in MODELS_DIR.rglob("*") if p.is_file() and p.suffix not in (".py", ".md", ".pyc")]


def test_shipped_model_files_stay_small() -> None:
    total = sum(p.stat().st_size for p in _model_files()) / 1e6
    assert total <= SHIPPED_LIMIT_MB, f"shipped model files {total:.1f} MB"


def test_the_english_tagger_reads_the_embedders_word_table() -> None:
    config = json.loads((TAGGER_DIR / "config.json").read_text(encoding="utf-8"))
    ((name, raw),) = config["shared_tensors"].items()
    spec = SharedTensor.from_config(raw)
    table = spec.read()
    assert table.shape == (30522, 384) and table.dtype == np.uint8
    assert hashlib.sha256(table.tobytes()).hexdigest() == spec.sha256
    manifest = json.loads((MODELS_DIR / "minilm" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["files_sha256"]["word_embeddings.bin"] == hashlib.sha256(
        (MODELS_DIR / spec.file).read_bytes()).hexdigest()
    assert name.endswith("word_embeddings.weight_quantized")


def test_a_graph_on_shared_data_computes_what_the_self_contained_one_does(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    from hallucheck.models.shared_tensors import save_external, share_tensor

    rng = np.random.default_rng(3)
    table = rng.integers(0, 255, size=(64, 32), dtype=np.uint8)
    weight = rng.normal(size=(32, 8)).astype(np.float32)

    def graph() -> object:
        nodes = [
            helper.make_node("Gather", ["table", "ids"], ["rows"]),
            helper.make_node("Cast", ["rows"], ["rows_f"], to=TensorProto.FLOAT),
            helper.make_node("MatMul", ["rows_f", "weight"], ["out"]),
        ]
        g = helper.make_graph(
            nodes, "g",
            [helper.make_tensor_value_info("ids", TensorProto.INT64, ["n"])],
            [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["n", 8])],
            [numpy_helper.from_array(table, "table"), numpy_helper.from_array(weight, "weight")],
        )
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])

    whole = tmp_path / "whole.onnx"
    onnx.save(graph(), str(whole))
    ids = np.array([0, 5, 63, 5], dtype=np.int64)
    expected = inference_session(whole, threads=1).run(None, {"ids": ids})[0]

    # Two graphs in one directory store the table and the weight once.
    store = tmp_path / "store"
    store.mkdir()
    save_external({store / "a.onnx": graph(), store / "b.onnx": graph()}, files={"table": "table.bin"},
                  default_file="weights.bin")
    assert (store / "table.bin").stat().st_size == table.nbytes
    assert (store / "weights.bin").stat().st_size == weight.nbytes
    for name in ("a.onnx", "b.onnx"):
        got = inference_session(store / name, threads=1).run(None, {"ids": ids})[0]
        np.testing.assert_array_equal(got, expected)

    # A graph in another directory takes the table from the store's file.
    other = tmp_path / "other"
    other.mkdir()
    shutil.copyfile(whole, other / "model.onnx")
    spec = share_tensor(other / "model.onnx", "table", "store/table.bin", models_dir=tmp_path)
    assert (other / "model.onnx").stat().st_size < whole.stat().st_size - table.nbytes + 1024
    with pytest.raises(Exception, match="table"):
        inference_session(other / "model.onnx", threads=1)  # the table alone is not beside it
    shared = load_shared({"shared_tensors": {"table": spec.to_config()}}, models_dir=tmp_path)
    got = inference_session(other / "model.onnx", threads=1, initializers=shared).run(None, {"ids": ids})[0]
    np.testing.assert_array_equal(got, expected)

    # A table that differs is never shared.
    changed = tmp_path / "changed.onnx"
    model = graph()
    model.graph.initializer[0].CopyFrom(numpy_helper.from_array(table[::-1].copy(), "table"))
    onnx.save(model, str(changed))
    with pytest.raises(ValueError, match="byte for byte"):
        share_tensor(changed, "table", "store/table.bin", models_dir=tmp_path)


def test_a_missing_or_short_shared_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "short.bin").write_bytes(b"\x00" * 10)
    with pytest.raises(SharedTensorError, match="hold 10 bytes"):
        SharedTensor(file="short.bin", dtype="uint8", shape=(4, 4)).read(tmp_path)
    with pytest.raises(SharedTensorError, match="cannot be read"):
        SharedTensor(file="absent.bin", dtype="uint8", shape=(4, 4)).read(tmp_path)

    tagger = tmp_path / "tagger"
    shutil.copytree(TAGGER_DIR, tagger)
    config = json.loads((tagger / "config.json").read_text(encoding="utf-8"))
    for raw in config["shared_tensors"].values():
        raw["file"] = "minilm/absent.bin"
    (tagger / "config.json").write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(TaggerUnavailable, match="absent.bin"):
        Tagger(tagger)


def test_tensors_found_by_content_are_read_from_the_other_file(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    from hallucheck.models.shared_tensors import share_matching

    rng = np.random.default_rng(5)
    kept = rng.normal(size=(128, 128)).astype(np.float32)  # the same bytes in both graphs
    own = rng.normal(size=(128, 128)).astype(np.float32)  # this graph's alone

    def graph(first: np.ndarray, second: np.ndarray) -> object:
        nodes = [helper.make_node("MatMul", ["x", "a"], ["h"]), helper.make_node("MatMul", ["h", "b"], ["out"])]
        g = helper.make_graph(
            nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 128])],
            [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["n", 128])],
            [numpy_helper.from_array(first, "a"), numpy_helper.from_array(second, "b")])
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])

    (tmp_path / "base").mkdir()
    onnx.save(graph(kept, rng.normal(size=(128, 128)).astype(np.float32)), str(tmp_path / "base" / "model.onnx"))
    pair = tmp_path / "pair"
    pair.mkdir()
    onnx.save(graph(kept, own), str(pair / "model.onnx"))
    (pair / "config.json").write_text('{"max_length": 8}', encoding="utf-8")
    x = rng.normal(size=(3, 128)).astype(np.float32)
    expected = inference_session(pair / "model.onnx", threads=1).run(None, {"x": x})[0]

    found = share_matching(pair, "base/model.onnx", min_bytes=1024, models_dir=tmp_path)
    assert list(found) == ["a"]  # "b" differs and stays in the graph
    config = json.loads((pair / "config.json").read_text(encoding="utf-8"))
    assert config["max_length"] == 8 and list(config["shared_tensors"]) == ["a"]
    assert (pair / "model.onnx").stat().st_size < kept.nbytes + 1024
    with pytest.raises(Exception, match="shared-base-model.onnx"):
        inference_session(pair / "model.onnx", threads=1)  # never its own bytes in place of "a"
    shared = load_shared(config, models_dir=tmp_path)
    got = inference_session(pair / "model.onnx", threads=1, initializers=shared).run(None, {"x": x})[0]
    np.testing.assert_array_equal(got, expected)


def test_a_table_that_extends_the_shared_one_reads_its_first_rows_from_it(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    from hallucheck.models.shared_tensors import ROWS_FILE, share_leading_rows

    rng = np.random.default_rng(5)
    base = rng.integers(0, 255, size=(48, 16), dtype=np.uint8)
    extra = rng.integers(0, 255, size=(8, 16), dtype=np.uint8)
    (tmp_path / "base.bin").write_bytes(base.tobytes())
    g = helper.make_graph(
        [helper.make_node("Gather", ["table", "ids"], ["rows"]),
         helper.make_node("Cast", ["rows"], ["out"], to=TensorProto.FLOAT)],
        "g", [helper.make_tensor_value_info("ids", TensorProto.INT64, ["n"])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["n", 16])],
        [numpy_helper.from_array(np.concatenate([base, extra]), "table")],
    )
    ids = np.array([0, 47, 48, 55, 3], dtype=np.int64)
    dirs = [tmp_path / "m", tmp_path / "n"]
    for d in dirs:
        d.mkdir()
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), str(d / "model.onnx"))
    expected = inference_session(dirs[0] / "model.onnx", threads=1).run(None, {"ids": ids})[0]

    # rows that differ from the shared file are never shared
    (tmp_path / "other.bin").write_bytes(base[::-1].tobytes())
    with pytest.raises(ValueError, match="byte for byte"):
        share_leading_rows(dirs[0], "table", "other.bin", models_dir=tmp_path)

    spec = share_leading_rows(dirs[0], "table", "base.bin", models_dir=tmp_path)
    assert (dirs[0] / ROWS_FILE).read_bytes() == extra.tobytes()
    assert [(p.file, p.rows) for p in spec.rows_from] == [(f"m/{ROWS_FILE}", 8)]
    with pytest.raises(Exception, match="table"):
        inference_session(dirs[0] / "model.onnx", threads=1)  # the table is not beside the graph
    # a second graph with the same table reads both parts from the files the first one uses
    again = share_leading_rows(dirs[1], "table", "base.bin", models_dir=tmp_path, rows_file=f"m/{ROWS_FILE}")
    assert not (dirs[1] / ROWS_FILE).exists() and again.rows_from == spec.rows_from
    for d, sp in zip(dirs, (spec, again)):
        shared = load_shared({"shared_tensors": {"table": sp.to_config()}}, models_dir=tmp_path)
        assert shared["table"].shape == (56, 16)
        got = inference_session(d / "model.onnx", threads=1, initializers=shared).run(None, {"ids": ids})[0]
        np.testing.assert_array_equal(got, expected)
        assert SharedTensor.from_config(sp.to_config()) == sp


def test_the_multilingual_tagger_reads_the_embedders_rows_of_its_word_table() -> None:
    from hallucheck.models.tagger import tagger_dir_for

    model_dir = tagger_dir_for("zh-Hans")
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    ((name, raw),) = config["shared_tensors"].items()
    spec = SharedTensor.from_config(raw)
    assert spec.file == "minilm/word_embeddings.bin" and spec.shape == (37023, 384)
    assert [(p.file, p.rows) for p in spec.rows_from] == [("tagger_multilingual/word_rows.bin", 6501)]
    table = spec.read()
    assert hashlib.sha256(table.tobytes()).hexdigest() == spec.sha256
    assert table[:30522].tobytes() == (MODELS_DIR / "minilm" / "word_embeddings.bin").read_bytes()
    tagger = Tagger(model_dir)
    assert tagger.session is not None
