"""The training loop: AdamW, warmup + linear decay, weighted loss, checkpoints, resume, logs.

A run lives in one directory: ``config.json`` (the settings it started with), ``data.pkl`` (the
prepared windows), ``checkpoint.pt`` (model, optimizer, scheduler, RNG states, step, position in
the epoch, data hash; rewritten atomically every ``checkpoint_every`` steps and on SIGTERM/SIGINT),
``train.log`` (progress lines), ``evals.jsonl`` (one line of calib metrics per eval) with
``eval-<step>.pt`` (the weights at that eval, so the step to ship is chosen on calib) and, at the
end, ``final.pt`` + ``DONE``. Starting again on the same directory resumes from the checkpoint
with the same batches in the same order.
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.metrics import auroc, f1_at
from hallucheck.train.config import TrainConfig, data_sha256
from hallucheck.train.data import Example, build_examples, load_or_build, load_tokenizer
from hallucheck.train.vocab import original_rows, run_model_dir

__all__ = [
    "build_model", "initial_weights", "collate", "train", "evaluate", "metrics_of", "predict_probs",
    "predict_type_probs", "RunLogger",
]


class RunLogger:
    def __init__(self, path: Path, echo: bool = True) -> None:
        self.path = path
        self.echo = echo

    def __call__(self, msg: str) -> None:
        line = f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {msg}"
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
        if self.echo:
            print(line, flush=True)


def build_model(cfg: TrainConfig, model_dir: str) -> Any:
    """MiniLM (lower ``n_layers``) + feature input + token head with ``n_types`` classes."""
    import torch  # lazy: optional extra (train)
    from torch import nn  # lazy: optional extra (train)
    from transformers import BertModel  # lazy: optional extra (train)

    from hallucheck.train.model import SpanTagger  # lazy: optional extra (train)

    encoder = BertModel.from_pretrained(model_dir, add_pooling_layer=False, local_files_only=True)
    if 0 < cfg.n_layers < len(encoder.encoder.layer):
        encoder.encoder.layer = nn.ModuleList(list(encoder.encoder.layer)[: cfg.n_layers])
        encoder.config.num_hidden_layers = cfg.n_layers
    model = SpanTagger(encoder, len(cfg.encoder_settings().features), cfg.dropout, cfg.n_types)
    if cfg.freeze_word_embeddings:
        table = model.encoder.embeddings.word_embeddings.weight
        n_old = original_rows(model_dir)
        if n_old is None or n_old >= table.shape[0]:
            table.requires_grad_(False)
        else:  # an extended vocabulary: its new rows learn, the original ones stay as they are
            keep = torch.zeros(table.shape[0], 1)
            keep[n_old:] = 1.0
            table.register_hook(lambda grad: grad * keep)
    return model


def _same_up_to_int8(table: Any, base: Any) -> bool:
    """Whether ``table`` is ``base`` rounded to 256 levels (within one step of its range)."""
    if table.shape != base.shape:
        return False
    step = float(base.max() - base.min()) / 255.0
    return bool(float((table - base).abs().max()) <= step * 1.01)


def initial_weights(path: str, model: Any) -> dict[str, Any]:
    """Weights to start a run from: a checkpoint of an earlier run or a shipped tagger's ``model.onnx``.

    A binary head is widened to the model's token types, a model of fewer features to its
    features (new inputs start with zero weight); a smaller word-embedding table (a run
    before a vocabulary extension) fills the rows it has and leaves the new ones as initialised.
    An ONNX file's word table that is the base's up to int8 rounding (it was frozen) is replaced by
    the base's exact float rows.
    """
    import torch  # lazy: optional extra (train)

    from hallucheck.train.onnx_weights import state_dict_from_onnx, widen_features, widen_head  # lazy: loaded only on this path

    own = model.state_dict()
    key = "encoder.embeddings.word_embeddings.weight"
    if path.endswith(".onnx"):
        state = state_dict_from_onnx(path)
        table, base = state.get(key), own[key]
        if table is not None and _same_up_to_int8(table, base[: table.shape[0]]):
            del state[key]  # a frozen table stored as int8: the base's float rows are the exact ones
    else:
        state = dict(torch.load(path, map_location="cpu", weights_only=False)["model"])
    state = widen_head(state, int(own["head.2.weight"].shape[0]))
    state = widen_features(state, int(own["feature_embed.weight"].shape[1]))
    if key in state and state[key].shape != own[key].shape:
        table = own[key].clone()
        rows = min(table.shape[0], state[key].shape[0])
        table[:rows] = state[key][:rows]
        state[key] = table
    return {k: state.get(k, v) for k, v in own.items()}


def collate(batch: list[Example], n_types: int = 3) -> dict[str, Any]:
    """Padded tensors of a batch; with ``n_types`` 2 every unsupported type becomes label 1."""
    import torch  # lazy: optional extra (train)

    n = len(batch)
    length = max(len(e.input_ids) for e in batch)
    n_feat = batch[0].features.shape[1]
    ids = np.zeros((n, length), dtype=np.int64)
    mask = np.zeros((n, length), dtype=np.int64)
    types = np.zeros((n, length), dtype=np.int64)
    feats = np.zeros((n, length, n_feat), dtype=np.float32)
    labels = np.full((n, length), -100, dtype=np.int64)
    for i, e in enumerate(batch):
        k = len(e.input_ids)
        ids[i, :k] = e.input_ids
        mask[i, :k] = 1
        types[i, :k] = e.type_ids
        feats[i, :k] = e.features
        labels[i, 1 : 1 + len(e.labels)] = np.minimum(e.labels, n_types - 1)
    return {
        "input_ids": torch.from_numpy(ids),
        "attention_mask": torch.from_numpy(mask),
        "token_type_ids": torch.from_numpy(types),
        "features": torch.from_numpy(feats),
        "labels": torch.from_numpy(labels),
    }


def predict_type_probs(model: Any, examples: list[Example], batch_size: int = 32) -> list[np.ndarray]:
    """Softmax over the token types, [n_target, n_types] per example (eval mode, no grad)."""
    import torch  # lazy: optional extra (train)

    was_training = model.training
    model.eval()
    out: list[np.ndarray] = []
    with torch.no_grad():
        for i in range(0, len(examples), batch_size):
            chunk = examples[i : i + batch_size]
            b = collate(chunk)
            logits = model(b["input_ids"], b["attention_mask"], b["token_type_ids"], b["features"])
            probs = torch.softmax(logits, dim=-1).numpy()
            for j, e in enumerate(chunk):
                out.append(probs[j, 1 : 1 + len(e.labels)].copy())
    model.train(was_training)
    return out


def predict_probs(model: Any, examples: list[Example], batch_size: int = 32) -> list[np.ndarray]:
    """P(unsupported) = 1 - P(supported) for the target tokens of each example."""
    return [1.0 - p[:, 0] for p in predict_type_probs(model, examples, batch_size)]


def _auroc(scores: np.ndarray, labels: np.ndarray) -> float:
    """AUROC, NaN where it is undefined (one class only), so that it can sit in a float column."""
    area = auroc(scores, labels == 1)
    return float("nan") if area is None else area


def evaluate(model: Any, examples: list[Example]) -> dict[str, float]:
    """Token AUROC/F1@0.5 and answer-level AUROC (max token probability) on held-out windows.

    With typed labels also ``type_acc``: of the gold unsupported tokens, the share whose most
    likely unsupported type (conflict or baseless) is the gold one.
    """
    return metrics_of(examples, predict_type_probs(model, examples))


def metrics_of(examples: list[Example], tprobs: list[np.ndarray]) -> dict[str, float]:
    """:func:`evaluate`'s metrics from type probabilities already predicted for ``examples``."""
    probs = [1.0 - t[:, 0] for t in tprobs]
    p = np.concatenate(probs) if probs else np.zeros(0)
    y_typed = np.concatenate([e.labels for e in examples]).astype(int) if examples else np.zeros(0, int)
    y = (y_typed > 0).astype(int)
    per_rec: dict[int, tuple[float, int]] = {}
    for e, pr in zip(examples, probs):
        m, lab = per_rec.get(e.record, (0.0, 0))
        per_rec[e.record] = (max(m, float(pr.max()) if len(pr) else 0.0), max(lab, int(e.labels.max() > 0) if len(e.labels) else 0))
    rs = np.array([v[0] for v in per_rec.values()])
    rl = np.array([v[1] for v in per_rec.values()])
    out = {
        "token_auroc": _auroc(p, y),
        "token_f1@0.5": f1_at(p, y == 1, 0.5),
        "answer_auroc": _auroc(rs, rl),
    }
    if tprobs and tprobs[0].shape[1] > 2:
        t = np.concatenate(tprobs)
        gold = y_typed > 0
        if gold.any():
            pred_type = 1 + t[gold][:, 1:].argmax(axis=1)
            out["type_acc"] = float((pred_type == y_typed[gold]).mean())
    return out


def _seed_all(seed: int) -> None:
    import torch  # lazy: optional extra (train)

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _atomic_save(obj: Any, path: Path) -> None:
    import torch  # lazy: optional extra (train)

    tmp = path.with_suffix(".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def _resolved_config(cfg: TrainConfig, run: Path, resume: bool, log: RunLogger) -> TrainConfig:
    """The config of this run: a resumed run keeps the one saved in its directory."""
    cfg_path = run / "config.json"
    if resume and cfg_path.exists() and (run / "checkpoint.pt").exists():
        saved = json.loads(cfg_path.read_text())
        if saved != json.loads(cfg.to_json()):
            log("resuming: using the config saved in the run directory")
        cfg = TrainConfig.from_saved(saved)
    cfg.save(cfg_path)
    return cfg


def _training_data(cfg: TrainConfig, run: Path, tokenizer: Any, data_hash: str, log: RunLogger) -> tuple[list[Example], list[Example]]:
    """Training windows (cached in the run directory) and the calib windows steps are judged on."""
    settings = cfg.encoder_settings()
    log(f"data {cfg.data} sha256={data_hash} settings={cfg.data_settings_key()}")
    cache = run / f"data-{data_hash[:12]}-{cfg.data_settings_key()}.pkl"
    t0 = time.time()
    examples = load_or_build(
        cache, cfg.data, "train", tokenizer, settings, cfg.negative_keep, cfg.seed, cfg.limit, log,
        tuple(cfg.extra_data), (cfg.skip_fold[0], cfg.skip_fold[1]) if cfg.skip_fold else None,
    )
    # calib answers of RAGTruth only: the choice of step stays comparable with earlier runs
    eval_examples = build_examples(cfg.data, "calib", tokenizer, settings, 1.0, cfg.seed, cfg.eval_answers)
    pos = sum(int((e.labels > 0).sum()) for e in examples)
    n_conflict = sum(int((e.labels == 1).sum()) for e in examples)
    tot = sum(len(e.labels) for e in examples)
    log(f"{len(examples)} training windows ({pos}/{tot} unsupported tokens = {pos / max(tot, 1):.3f}), "
        f"{n_conflict} of them conflict, {len(eval_examples)} eval windows, prepared in {time.time() - t0:.0f}s")
    return examples, eval_examples


def _optimizer(model: Any, cfg: TrainConfig, total: int) -> tuple[Any, Any]:
    """AdamW (encoder and head at their own learning rates) and linear warmup then decay."""
    import torch  # lazy: optional extra (train)

    table = "encoder.embeddings.word_embeddings.weight"
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    head_params = [p for n, p in named if not n.startswith("encoder.")]
    enc_params = [p for n, p in named if n.startswith("encoder.") and n != table]
    groups = [{"params": enc_params, "lr": cfg.lr}, {"params": head_params, "lr": cfg.head_lr}]
    rows = [p for n, p in named if n == table]  # trainable only with an extended vocabulary
    if rows:  # no decay: the frozen original rows must not shrink
        groups.append({"params": rows, "lr": cfg.head_lr, "weight_decay": 0.0})
    opt = torch.optim.AdamW(groups, weight_decay=cfg.weight_decay)
    warm = max(1, int(cfg.warmup * total))

    def schedule(step: int) -> float:
        if step < warm:
            return (step + 1) / warm
        return max(0.0, (total - step) / max(1, total - warm))

    return opt, torch.optim.lr_scheduler.LambdaLR(opt, schedule)


def _restore(model: Any, opt: Any, sched: Any, state: dict[str, Any], data_hash: str) -> tuple[int, int, int]:
    """Load a checkpoint's weights, optimiser, schedule and random states; (step, epoch, cursor)."""
    import torch  # lazy: optional extra (train)

    if state["data_hash"] != data_hash:
        raise RuntimeError("the data file changed since this run started (sha256 differs); use a new run dir")
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["optimizer"])
    sched.load_state_dict(state["scheduler"])
    random.setstate(state["rng"]["python"])
    np.random.set_state(state["rng"]["numpy"])
    torch.set_rng_state(state["rng"]["torch"])
    return state["step"], state["epoch"], state["cursor"]


def _optimizer_step(model: Any, opt: Any, sched: Any, loss_fn: Any, windows: list[Example], cfg: TrainConfig) -> float:
    """One optimiser step over ``windows`` in ``grad_accum`` batches; the summed loss."""
    import torch  # lazy: optional extra (train)

    opt.zero_grad()
    loss_sum = 0.0
    for k in range(cfg.grad_accum):
        b = collate(windows[k * cfg.batch_size : (k + 1) * cfg.batch_size], cfg.n_types)
        logits = model(b["input_ids"], b["attention_mask"], b["token_type_ids"], b["features"])
        loss = loss_fn(logits.reshape(-1, cfg.n_types), b["labels"].reshape(-1)) / cfg.grad_accum
        loss.backward()
        loss_sum += float(loss.detach())
    torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], 1.0)
    opt.step()
    sched.step()
    return loss_sum


def _record_eval(model: Any, eval_examples: list[Example], cfg: TrainConfig, run: Path, step: int, epoch: int,
                 data_hash: str, log: RunLogger) -> None:
    """Score the model on the eval windows, append to evals.jsonl, and keep its weights if asked."""
    metrics = {k: round(v, 4) for k, v in evaluate(model, eval_examples).items()}
    log("eval " + json.dumps(metrics))
    with open(run / "evals.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"step": step, "epoch": epoch, **metrics}) + "\n")
    if cfg.keep_eval_checkpoints:
        _atomic_save(
            {"model": model.state_dict(), "config": json.loads(cfg.to_json()), "data_hash": data_hash, "step": step},
            run / f"eval-{step}.pt",
        )


def train(
    cfg: TrainConfig, run_dir: str | Path, resume: bool = True, echo: bool = True, stop_after: int | None = None
) -> dict[str, Any]:
    """Train (or resume) the tagger in ``run_dir``; returns a summary dict.

    ``stop_after`` ends this session after that many steps (checkpointed), as an interruption would.
    """
    import torch  # lazy: optional extra (train)

    run = Path(run_dir)
    run.mkdir(parents=True, exist_ok=True)
    log = RunLogger(run / "train.log", echo)
    ckpt_path = run / "checkpoint.pt"
    cfg = _resolved_config(cfg, run, resume, log)
    torch.set_num_threads(cfg.threads)
    _seed_all(cfg.seed)
    model_dir = run_model_dir(cfg.base_model, cfg.vocab_extension, run)
    data_hash = data_sha256(cfg)
    examples, eval_examples = _training_data(cfg, run, load_tokenizer(model_dir), data_hash, log)

    model = build_model(cfg, model_dir)
    per_step = cfg.batch_size * cfg.grad_accum
    total = cfg.max_steps or max(1, math.ceil(cfg.epochs * len(examples) / per_step))
    opt, sched = _optimizer(model, cfg, total)
    step, epoch, cursor = 0, 0, 0
    if cfg.init_from and not (resume and ckpt_path.exists()):
        model.load_state_dict(initial_weights(cfg.init_from, model))
        log(f"weights from {cfg.init_from}")
    if resume and ckpt_path.exists():
        step, epoch, cursor = _restore(model, opt, sched, torch.load(ckpt_path, map_location="cpu", weights_only=False), data_hash)
        log(f"resumed at step {step}/{total} (epoch {epoch}, position {cursor})")
    else:
        log(f"starting: {total} steps of {per_step} windows, warmup {max(1, int(cfg.warmup * total))}")

    def checkpoint() -> None:
        _atomic_save(
            {
                "model": model.state_dict(),
                "optimizer": opt.state_dict(),
                "scheduler": sched.state_dict(),
                "rng": {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()},
                "step": step,
                "epoch": epoch,
                "cursor": cursor,
                "data_hash": data_hash,
                "config": json.loads(cfg.to_json()),
            },
            ckpt_path,
        )

    stop = {"flag": False}

    def on_signal(signum: int, _frame: Any) -> None:
        stop["flag"] = True

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    weights = torch.tensor([1.0] + [cfg.pos_weight] * (cfg.n_types - 1))
    loss_fn = torch.nn.CrossEntropyLoss(weight=weights, ignore_index=-100)
    model.train()
    ema: float | None = None
    t_start = time.time()
    steps_here = 0
    try:
        while step < total and not stop["flag"] and (stop_after is None or steps_here < stop_after):
            order = np.random.RandomState(cfg.seed + epoch).permutation(len(examples))
            if cursor + per_step > len(order):
                epoch, cursor = epoch + 1, 0
                continue
            loss_sum = _optimizer_step(model, opt, sched, loss_fn, [examples[i] for i in order[cursor : cursor + per_step]], cfg)
            step += 1
            steps_here += 1
            cursor += per_step
            ema = loss_sum if ema is None else 0.95 * ema + 0.05 * loss_sum
            if step % cfg.log_every == 0 or step == total:
                el = time.time() - t_start
                rate = steps_here * per_step / el
                eta = (total - step) * per_step / max(rate, 1e-9)
                log(f"step {step}/{total} epoch {epoch} loss {loss_sum:.4f} ema {ema:.4f} "
                    f"lr {sched.get_last_lr()[0]:.2e} {rate:.2f} windows/s eta {eta / 60:.1f} min")
            if step % cfg.checkpoint_every == 0:
                checkpoint()
            if cfg.eval_every and step % cfg.eval_every == 0 and eval_examples:
                _record_eval(model, eval_examples, cfg, run, step, epoch, data_hash, log)
    finally:
        checkpoint()
        for s, h in old.items():
            signal.signal(s, h)
    return _finish(model, eval_examples, cfg, run, step, total, data_hash, log)


def _finish(model: Any, eval_examples: list[Example], cfg: TrainConfig, run: Path, step: int, total: int,
            data_hash: str, log: RunLogger) -> dict[str, Any]:
    """The run's summary; a completed run is also scored and saved as final.pt, with a DONE marker."""
    summary: dict[str, Any] = {"step": step, "total": total, "data_sha256": data_hash}
    if step >= total:
        metrics = evaluate(model, eval_examples) if eval_examples else {}
        summary["eval"] = metrics
        _atomic_save(
            {"model": model.state_dict(), "config": json.loads(cfg.to_json()), "data_hash": data_hash, "step": step},
            run / "final.pt",
        )
        (run / "DONE").write_text(json.dumps(summary, indent=2) + "\n")
        log("done " + json.dumps(summary))
    else:
        log(f"stopped at step {step}/{total}; run again on {run} to resume")
    return summary
