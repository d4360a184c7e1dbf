"""Weights of a shipped (int8 ONNX) span tagger, read back into a ``SpanTagger`` state dict.

Why: the float checkpoint of a shipped tagger is not kept with the package, but a new run should be
able to start where the shipped one stands (``TrainConfig.init_from = "…/model.onnx"``) instead of
from the bare encoder. Dynamic int8 quantisation keeps every linear weight as an int8 matrix with
a scale and a zero point; dequantised, it is within one quantisation step of the float weight, which
is a fine place to start training from.

How a weight is found: the exporter names each ``MatMulInteger`` output after the module that made
it (``/inner/encoder/encoder/layer.0/attention/self/query/MatMul…``), so the module path gives the
parameter name; the weight is stored as the transposed ``[in, out]`` matrix. Biases, layer norms and
embedding tables keep their parameter names (with the exporter's ``inner.`` prefix).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["pair_state_from_onnx", "state_dict_from_onnx", "widen_features", "widen_head"]

_PREFIX = "inner."


def _module_path(output_name: str) -> str:
    """``/inner/head/head.2/MatMul_output_0_quantized`` -> ``head.2``."""
    parts = [p for p in output_name.split("/") if p][:-1]
    out: list[str] = []
    for p in parts:
        if out and p.startswith(out[-1] + "."):
            out[-1] = p  # the exporter repeats a container's name: head/head.2
        else:
            out.append(p)
    path = ".".join(out)
    return path[len(_PREFIX):] if path.startswith(_PREFIX) else path


def _dequantise(q: np.ndarray, scale: np.ndarray, zero: np.ndarray) -> np.ndarray:
    return ((q.astype(np.float32) - zero.astype(np.float32)) * scale.astype(np.float32)).astype(np.float32)


def _load_with_shared(path: Path) -> Any:
    """The graph with every tensor in place: the ones its ``config.json`` says are shared with
    another model (:mod:`hallucheck.models.shared_tensors`) and those stored beside it."""
    import json  # lazy: loaded only on this path

    import onnx  # lazy: optional extra (train)
    from onnx import numpy_helper  # lazy: optional extra (train)
    from onnx.external_data_helper import load_external_data_for_model  # lazy: optional extra (train)

    from hallucheck.models.shared_tensors import load_shared  # lazy: loaded only on this path

    model = onnx.load(str(path), load_external_data=False)
    config_path = path.parent / "config.json"
    shared = load_shared(json.loads(config_path.read_text(encoding="utf-8"))) if config_path.is_file() else {}
    for init in model.graph.initializer:
        if init.name in shared:
            init.CopyFrom(numpy_helper.from_array(shared[init.name], init.name))
    load_external_data_for_model(model, str(path.parent))
    return model


def state_dict_from_onnx(path: str | Path) -> dict[str, Any]:
    """Float tensors by ``SpanTagger`` parameter name, read from an exported tagger ``model.onnx``."""
    import torch  # lazy: optional extra (train)
    from onnx import numpy_helper  # lazy: optional extra (train)

    model = _load_with_shared(Path(path))
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    out: dict[str, Any] = {}
    for name, arr in inits.items():
        if not name.startswith(_PREFIX) or name.endswith(("_scale", "_zero_point")):
            continue
        if arr.dtype.kind not in "fiu":
            continue
        if name.endswith("_quantized"):  # a quantised table (embeddings): same name without the suffix
            base = name[: -len("_quantized")]
            arr = _dequantise(arr, inits[base + "_scale"], inits[base + "_zero_point"])
            name = base
        out[name[len(_PREFIX):]] = torch.from_numpy(np.array(arr, dtype=np.float32))
    for node in model.graph.node:
        weight = node.input[1] if len(node.input) > 1 else ""
        if node.op_type == "MatMulInteger" and weight.endswith("_quantized") and weight in inits:
            stem = weight[: -len("_quantized")]
            w = _dequantise(inits[weight], inits[stem + "_scale"], inits[stem + "_zero_point"])
        elif node.op_type == "MatMul" and weight in inits and not weight.startswith(_PREFIX):
            w = inits[weight].astype(np.float32)  # a float export
        else:
            continue
        out[_module_path(node.output[0]) + ".weight"] = torch.from_numpy(np.ascontiguousarray(w.T))
    return out


def pair_state_from_onnx(path: str | Path) -> dict[str, Any]:
    """Float tensors by ``PairClassifier`` parameter name, read from a shipped pair model's ``model.onnx``.

    Why: the verifier ships as int8 ONNX only; a new run continues from it (``PairConfig.init_model``)
    instead of from the bare encoder. The pair exporter names parameters without the tagger's
    ``inner.`` prefix, and its quantised weights (``onnx::MatMul_…``) are found through the name of
    the ``MatMulInteger`` node that reads them (``/encoder/encoder/layer.0/attention/self/query/MatMul_quant``).
    """
    import torch  # lazy: optional extra (train)
    from onnx import numpy_helper  # lazy: optional extra (train)

    model = _load_with_shared(Path(path))
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    out: dict[str, Any] = {}
    for name, arr in inits.items():
        if name.startswith(("/", "onnx::")) or name.endswith(("_scale", "_zero_point", "_Transposed_quantized")):
            continue
        if arr.dtype.kind != "f" and not name.endswith("_quantized"):
            continue
        if name.endswith("_quantized"):  # a quantised table (embeddings)
            base = name[: -len("_quantized")]
            arr = _dequantise(arr, inits[base + "_scale"], inits[base + "_zero_point"])
            name = base
        out[name] = torch.from_numpy(np.array(arr, dtype=np.float32))
    for node in model.graph.node:
        weight = node.input[1] if len(node.input) > 1 else ""
        if weight not in inits:
            continue
        if node.op_type == "MatMulInteger" and weight.endswith("_quantized"):
            stem = weight[: -len("_quantized")]
            w = _dequantise(inits[weight], inits[stem + "_scale"], inits[stem + "_zero_point"])
        elif node.op_type == "MatMul" and inits[weight].dtype.kind == "f":
            w = inits[weight].astype(np.float32)  # a matrix the exporter left in float
        else:
            continue
        out[_module_path(node.name) + ".weight"] = torch.from_numpy(np.ascontiguousarray(w.T))
    return out


def widen_head(state: dict[str, Any], n_types: int) -> dict[str, Any]:
    """A binary (supported / unsupported) head made into ``n_types`` classes with the same P(unsupported).

    Every unsupported type starts as a copy of the old "unsupported" row with its bias lowered by
    log(n_types - 1), so the summed probability of "not supported" — what spans are cut at — is
    unchanged at the start and training only has to learn how to split it.
    """
    import math  # lazy: loaded only on this path

    import torch  # lazy: optional extra (train)

    w, b = state["head.2.weight"], state["head.2.bias"]
    if w.shape[0] == n_types:
        return state
    if w.shape[0] != 2 or n_types < 2:
        raise ValueError(f"cannot widen a head of {w.shape[0]} classes to {n_types}")
    shift = math.log(n_types - 1)
    state = dict(state)
    state["head.2.weight"] = torch.cat([w[:1]] + [w[1:2]] * (n_types - 1), dim=0)
    state["head.2.bias"] = torch.cat([b[:1]] + [b[1:2] - shift] * (n_types - 1), dim=0)
    return state


def widen_features(state: dict[str, Any], n_features: int) -> dict[str, Any]:
    """Weights of a tagger that read the first features of a longer list, made to read all ``n_features``.

    The new inputs get zero weights where they enter (the feature projection and the head), so
    the widened model computes exactly what the old one did until training gives them a use.
    Only appending is supported: the old model's features must be the first ones of the new list
    (``BASE_FEATURES`` then ``polarity_clash``).
    """
    import torch  # lazy: optional extra (train)

    proj = state["feature_embed.weight"]
    n_old = int(proj.shape[1])
    if n_old == n_features:
        return state
    if n_old > n_features:
        raise ValueError(f"cannot narrow a tagger that reads {n_old} features to {n_features}")
    extra = n_features - n_old
    state = dict(state)
    state["feature_embed.weight"] = torch.cat([proj, proj.new_zeros(proj.shape[0], extra)], dim=1)
    head = state["head.0.weight"]
    state["head.0.weight"] = torch.cat([head, head.new_zeros(head.shape[0], extra)], dim=1)
    return state
