"""A shipped pair model's int8 weights read back as a PairClassifier state (to continue training from)."""

from pathlib import Path

import pytest

VERIFIER = Path(__file__).resolve().parents[2] / "hallucheck" / "models" / "verifier" / "model.onnx"


def test_the_shipped_verifier_reads_back_as_every_layer_and_the_head():
    pytest.importorskip("onnx")
    pytest.importorskip("torch")
    from hallucheck.train.onnx_weights import pair_state_from_onnx

    state = pair_state_from_onnx(VERIFIER)
    assert state["head.0.weight"].shape == (384, 384) and state["head.2.weight"].shape == (3, 384)
    for layer in range(8):
        prefix = f"encoder.encoder.layer.{layer}."
        for part in ("attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
                     "intermediate.dense", "output.dense"):
            assert prefix + part + ".weight" in state and prefix + part + ".bias" in state
    assert state["encoder.encoder.layer.7.intermediate.dense.weight"].shape == (1536, 384)
    assert not any(k.endswith(("_scale", "_zero_point", "_quantized")) or "MatMul" in k for k in state)
