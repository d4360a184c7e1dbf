"""Int8 weights made unsigned compute the same numbers, exactly, on any processor.

The products of the graph built here overflow 16 bits in pairs (255 x 127 twice), which is where
a processor without VNNI rounds signed-weight products; with the weights unsigned the session must
give numpy's exact integer product wherever the test runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from hallucheck.models.runtime import inference_session
from hallucheck.models.sample_inputs import random_feeds
from hallucheck.models.shared_tensors import MODELS_DIR, load_shared
from hallucheck.models.unsigned_weights import (
    VARIABLE,
    UnsignedWeightsError,
    signed_products_exact,
    unsigned_model,
    use_unsigned,
)

SHIPPED = ["tagger", "tagger_multilingual", "verifier"]
# user-mode QEMU (.ci/setup-qemu.sh): runs this machine's Python on an emulated AVX2 processor without VNNI
QEMU = os.environ.get("HALLUCHECK_QEMU_X86") or shutil.which("qemu-x86_64") or "qemu-x86_64"


def _matmul_integer(tmp_path: Path, weight: np.ndarray, zero: np.ndarray, shared_zero: bool = False) -> Path:
    """Y = MatMulInteger(A, W, a_zp=0, w_zp): an int8 weight as the quantiser stores it."""
    k, n = weight.shape
    inits = [numpy_helper.from_array(weight, "W"), helper.make_tensor("W_zp", onnx.TensorProto.INT8, list(zero.shape), zero.tolist()),
             numpy_helper.from_array(np.array(0, dtype=np.uint8), "A_zp")]
    nodes = [helper.make_node("MatMulInteger", ["A", "W", "A_zp", "W_zp"], ["Y"])]
    outputs = [helper.make_tensor_value_info("Y", onnx.TensorProto.INT32, ["m", n])]
    if shared_zero:  # the zero point read by another node as well
        nodes.append(helper.make_node("Identity", ["W_zp"], ["Z"]))
        outputs.append(helper.make_tensor_value_info("Z", onnx.TensorProto.INT8, list(zero.shape)))
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("A", onnx.TensorProto.UINT8, ["m", k])], outputs,
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "model.onnx"
    onnx.save(model, str(path))
    return path


def test_unsigned_weights_give_the_exact_product_even_where_pairs_overflow_16_bits(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    weight = rng.choice(np.array([-128, -127, 127, 126], dtype=np.int8), size=(64, 16))
    zero = np.zeros(16, dtype=np.int8)
    zero[3] = 5  # per-column zero points are carried over too
    activations = np.full((4, 64), 255, dtype=np.uint8)
    activations[1] = rng.integers(0, 256, 64, dtype=np.uint8)
    exact = activations.astype(np.int64) @ (weight.astype(np.int64) - zero.astype(np.int64))
    path = _matmul_integer(tmp_path, weight, zero)
    monkeypatch.setenv(VARIABLE, "unsigned")
    (got,) = inference_session(path, threads=1).run(None, {"A": activations})
    assert np.array_equal(got, exact)


def test_the_rewritten_graph_holds_each_weight_plus_128_and_nothing_else_changes(tmp_path: Path) -> None:
    weight = np.array([[-128, 0], [5, 127]], dtype=np.int8)
    path = _matmul_integer(tmp_path, weight, np.array([0, -3], dtype=np.int8))
    result = unsigned_model(path)
    assert result.flipped == ("W", "W_zp") and not result.initializers
    model = onnx.load_from_string(result.data)
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    assert inits["W"].dtype == np.uint8 and inits["W"].tolist() == [[0, 128], [133, 255]]
    assert inits["W_zp"].dtype == np.uint8 and inits["W_zp"].tolist() == [128, 125]
    assert inits["A_zp"].dtype == np.uint8 and int(inits["A_zp"]) == 0
    original = onnx.load(str(path))
    assert model.graph.node == original.graph.node


def test_a_zero_point_another_node_reads_is_refused(tmp_path: Path) -> None:
    path = _matmul_integer(tmp_path, np.ones((2, 2), dtype=np.int8), np.zeros(2, dtype=np.int8), shared_zero=True)
    with pytest.raises(UnsignedWeightsError, match="also reads W_zp"):
        unsigned_model(path)


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_model_computes_the_same_numbers_with_unsigned_weights(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = MODELS_DIR / name / "model.onnx"
    config = json.loads((path.parent / "config.json").read_text(encoding="utf-8"))
    shared = load_shared(config)
    assert unsigned_model(path, shared).flipped, "the shipped graph has int8 weights"
    sessions = {}
    for choice in ("unsigned", "signed"):
        monkeypatch.setenv(VARIABLE, choice)
        sessions[choice] = inference_session(path, threads=1, initializers=shared)
    feeds = random_feeds(sessions["signed"])
    unsigned, signed = (sessions[c].run(None, feeds) for c in ("unsigned", "signed"))
    assert all(np.isfinite(out).all() for out in unsigned)
    if signed_products_exact():  # where signed products are exact as well, the two agree to the bit
        assert all(np.array_equal(a, b) for a, b in zip(unsigned, signed))


FLAGS = "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma {extra}\nbogomips\t: 1.0\n"


@pytest.mark.parametrize(("extra", "machine", "exact"), [
    ("avx512f avx512_vnni", "x86_64", True),
    ("avx_vnni", "x86_64", True),
    ("avx512f avx512bw", "x86_64", False),
    ("", "x86_64", False),
    ("", "AMD64", False),
    ("", "aarch64", True),
    ("", "arm64", True),
])
def test_which_processors_add_signed_products_exactly(extra: str, machine: str, exact: bool) -> None:
    assert signed_products_exact(FLAGS.format(extra=extra), machine) is exact


def test_an_x86_machine_whose_flags_cannot_be_read_gets_unsigned_weights() -> None:
    assert signed_products_exact("", "x86_64") is False


def test_the_environment_chooses_and_a_wrong_value_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VARIABLE, "unsigned")
    assert use_unsigned() is True
    monkeypatch.setenv(VARIABLE, "SIGNED")
    assert use_unsigned() is False
    monkeypatch.setenv(VARIABLE, "auto")
    assert use_unsigned() is (not signed_products_exact())
    monkeypatch.setenv(VARIABLE, "fast")
    with pytest.raises(UnsignedWeightsError, match="signed, unsigned or auto"):
        use_unsigned()


def _demo(*prefix: str, **env: str) -> list[dict[str, Any]]:
    proc = subprocess.run([*prefix, sys.executable, "-m", "hallucheck", "demo", "--format", "json"], capture_output=True,
                          text=True, timeout=1200, env={**os.environ, "NO_COLOR": "1", **env})
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.slow
def test_the_bundled_examples_give_the_same_reports_on_a_processor_without_vnni() -> None:
    """The demo here and on an emulated Haswell (AVX2, no AVX512, no VNNI), where the weights load
    unsigned: same decisions and the same spans with the same labels. Scores may differ in the
    fourth digit: the float kernels (layer norm, softmax, float products) of the two processors
    add in other orders. Under emulation the processor flags read are still this machine's, so
    the choice is forced there. (Loaded signed there, a bundled example loses a span.)"""
    assert shutil.which(QEMU), f"{QEMU} not found: install Debian's qemu-user (.ci/setup-qemu.sh)"
    here = _demo()
    emulated = _demo(QEMU, "-cpu", "Haswell", **{VARIABLE: "unsigned"})

    def marks(reports: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [(r["example"], r["decision"], [(s["start"], s["end"], s["label"], s["kind"]) for s in r["spans"]]) for r in reports]

    def scores(reports: list[dict[str, Any]]) -> list[float]:
        return [x for r in reports for x in (r["risk_score"], *(s["score"] for s in r["spans"]))]

    assert marks(emulated) == marks(here)
    assert np.allclose(scores(emulated), scores(here), rtol=0, atol=0.005)
