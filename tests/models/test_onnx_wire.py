"""The ONNX wire reader finds what the ``onnx`` package finds, and a rewritten tensor reads back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from hallucheck.models.onnx_wire import WireError, encode_tensor, int32_values, read_graph, replace_tensors
from hallucheck.models.shared_tensors import MODELS_DIR

SHIPPED = ["tagger/model.onnx", "tagger_multilingual/model.onnx", "verifier/model.onnx", "minilm/model_int8.onnx"]


@pytest.mark.parametrize("name", SHIPPED)
def test_the_reader_sees_the_shipped_graph_as_onnx_does(name: str) -> None:
    path = MODELS_DIR / name
    graph = read_graph(path.read_bytes())
    model = onnx.load(str(path), load_external_data=False)
    assert [(n.op_type, n.inputs) for n in graph.nodes] == [(n.op_type, tuple(n.input)) for n in model.graph.node]
    ours = {t.name: (t.data_type, t.dims) for t in graph.tensors}
    theirs = {t.name: (t.data_type, tuple(t.dims)) for t in model.graph.initializer}
    assert ours == theirs


def _model(*tensors: onnx.TensorProto) -> bytes:
    nodes = [helper.make_node("Identity", [t.name], [t.name + "_out"]) for t in tensors]
    outputs = [helper.make_tensor_value_info(t.name + "_out", t.data_type, list(t.dims)) for t in tensors]
    graph = helper.make_graph(nodes, "g", [], outputs, initializer=list(tensors))
    return helper.make_model(graph).SerializeToString()


def test_small_int8_tensors_stored_as_int32_data_are_read_signed() -> None:
    tensor = helper.make_tensor("zp", onnx.TensorProto.INT8, [4], [-128, -1, 0, 127])
    assert not tensor.raw_data  # onnx keeps small 8-bit lists in int32_data
    data = _model(tensor)
    (read,) = read_graph(data).tensors
    assert read.int32 is not None and read.raw is None
    assert int32_values(data, read) == [-128, -1, 0, 127]


def test_a_replaced_tensor_reads_back_and_the_rest_is_unchanged() -> None:
    keep = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "keep")
    change = numpy_helper.from_array(np.array([1, -2, 3], dtype=np.int8), "change")
    data = _model(keep, change)
    graph = read_graph(data)
    new = np.array([200, 7, 255], dtype=np.uint8)
    out = replace_tensors(data, graph, {"change": encode_tensor("change", onnx.TensorProto.UINT8, (3,), new.tobytes())})
    model = onnx.load_from_string(out)
    onnx.checker.check_model(model)
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    assert inits["change"].dtype == np.uint8 and inits["change"].tolist() == new.tolist()
    assert np.array_equal(inits["keep"], np.arange(6, dtype=np.float32).reshape(2, 3))
    assert [n.op_type for n in model.graph.node] == ["Identity", "Identity"]


def test_an_external_reference_is_written_as_onnx_writes_it() -> None:
    message = encode_tensor("w", onnx.TensorProto.UINT8, (2, 2), external={"location": "w.bin", "offset": "8", "length": "4"})
    tensor = onnx.TensorProto()
    tensor.ParseFromString(message)
    assert tensor.data_location == onnx.TensorProto.EXTERNAL
    assert {e.key: e.value for e in tensor.external_data} == {"location": "w.bin", "offset": "8", "length": "4"}
    assert (tensor.name, tensor.data_type, list(tensor.dims)) == ("w", onnx.TensorProto.UINT8, [2, 2])


@pytest.mark.parametrize("data", [b"", b"\x0a\x05abc", b"\xff\xff\xff"])
def test_what_is_not_a_model_is_refused(data: bytes) -> None:
    with pytest.raises(WireError):
        read_graph(data)


def test_a_text_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    path.write_text("not a model at all\n", encoding="utf-8")
    with pytest.raises(WireError):
        read_graph(path.read_bytes())
