"""A tiny pair-model run: it learns from pairs, resumes to the same weights, and exports a model the
``nli`` detector loads."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.train


def _config(tiny_model_dir: Path, tiny_data: Path, **kw: object):  # type: ignore[no-untyped-def]
    from hallucheck.train.pair_loop import PairConfig, PairSource

    base = {"sources": [PairSource(str(tiny_data), "ragtruth", "answers", 1.0)], "init_from": "",
            "tokenizer": str(tiny_model_dir / "tokenizer.json"), "base_model": str(tiny_model_dir),
            "vocab_extension": "", "n_layers": 2, "max_len": 64, "batch_size": 2, "max_steps": 4,
            "checkpoint_every": 1, "eval_every": 2, "eval_pairs": 50, "warmup": 0.25}
    return PairConfig(**{**base, **kw})


@pytest.fixture(scope="module")
def straight(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path, tiny_data: Path):  # type: ignore[no-untyped-def]
    from hallucheck.train.pair_loop import train_pairs

    run = tmp_path_factory.mktemp("pairs")
    return run, train_pairs(_config(tiny_model_dir, tiny_data), run)


def test_a_run_builds_pairs_checkpoints_and_evaluates(straight) -> None:  # type: ignore[no-untyped-def]
    run, last = straight
    assert (run / "DONE").read_text() == "4"
    train = [json.loads(x) for x in (run / "pairs-train.jsonl").read_text().splitlines()]
    # the fixture's even answers state a wrong year: a conflict in their first sentence
    assert {p["label"] for p in train} == {0, 2} and all(p["kind"] == "ragtruth" for p in train)
    assert last["step"] == 4 and 0.0 <= last["accuracy"] <= 1.0
    assert [json.loads(x)["step"] for x in (run / "evals.jsonl").read_text().splitlines()] == [2, 4]


def test_a_resumed_run_ends_with_the_same_weights(straight, tmp_path: Path, tiny_model_dir: Path, tiny_data: Path) -> None:  # type: ignore[no-untyped-def]
    from hallucheck.train.pair_loop import train_pairs

    train_pairs(_config(tiny_model_dir, tiny_data), tmp_path, stop_after=3)
    assert not (tmp_path / "DONE").exists()
    train_pairs(_config(tiny_model_dir, tiny_data), tmp_path)
    assert "resumed at step 3" in (tmp_path / "log.txt").read_text()
    a = torch.load(straight[0] / "checkpoint.pt", weights_only=False)["model"]
    b = torch.load(tmp_path / "checkpoint.pt", weights_only=False)["model"]
    assert all(torch.allclose(a[k], b[k]) for k in a)


def test_an_unknown_config_field_is_refused() -> None:
    from hallucheck.train.pair_loop import PairConfig

    with pytest.raises(ValueError, match="unknown pair config field"):
        PairConfig.from_json('{"sources": [], "epochs": 3}')


def test_the_export_runs_in_the_nli_detector(straight, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from hallucheck import Case
    from hallucheck.analysis import CaseAnalysis
    from hallucheck.detectors import get_detector
    from hallucheck.train.pair_loop import export_pairs

    check = export_pairs(straight[0], tmp_path)
    cfg = json.loads((tmp_path / "config.json").read_text())
    assert cfg["id2label"] == {"0": "entailment", "1": "neutral", "2": "contradiction"} and cfg["max_length"] == 64
    assert abs(check["int8"]["accuracy"] - check["float"]["accuracy"]) <= 0.25  # a 2-layer toy, 32 wide
    nli = get_detector("nli", model_path=str(tmp_path))
    assert nli.model.max_length == 64  # read from the exported config
    case = Case(question="When?", contexts=["The bridge was built in 1901 by the council."],
                answer="The bridge was built in 1904. It is long.")
    finding = nli.detect(CaseAnalysis(case))
    rows = finding.sentence_verdicts or []
    assert len(rows) == 2
    assert all(np.isclose(r.entailment + r.neutral + r.contradiction, 1.0, atol=1e-3) for r in rows)


def test_frozen_layers_keep_their_initial_weights(tmp_path: Path, tiny_model_dir: Path, tiny_data: Path) -> None:
    from hallucheck.train.pair_loop import train_pairs

    train_pairs(_config(tiny_model_dir, tiny_data, freeze_layers=1, max_steps=2), tmp_path / "frozen")
    train_pairs(_config(tiny_model_dir, tiny_data, max_steps=0), tmp_path / "start")
    after = torch.load(tmp_path / "frozen" / "checkpoint.pt", weights_only=False)["model"]
    before = torch.load(tmp_path / "start" / "checkpoint.pt", weights_only=False)["model"]
    kept = [k for k in after if k.startswith(("encoder.embeddings.", "encoder.encoder.layer.0."))]
    moved = [k for k in after if k.startswith("encoder.encoder.layer.1.") and k.endswith(".weight")]
    assert kept and moved
    assert all(torch.equal(after[k], before[k]) for k in kept)
    assert any(not torch.equal(after[k], before[k]) for k in moved)  # the layer above still learns


def test_a_run_starts_from_another_runs_checkpoint(straight, tmp_path: Path, tiny_model_dir: Path, tiny_data: Path) -> None:  # type: ignore[no-untyped-def]
    """``init_checkpoint``: the encoder and the head of a finished run, not the tagger's encoder."""
    from hallucheck.train.pair_loop import train_pairs

    done = straight[0] / "checkpoint.pt"
    train_pairs(_config(tiny_model_dir, tiny_data, init_checkpoint=str(done), max_steps=0), tmp_path / "from")
    train_pairs(_config(tiny_model_dir, tiny_data, max_steps=0), tmp_path / "fresh")
    start = torch.load(tmp_path / "from" / "checkpoint.pt", weights_only=False)["model"]
    fresh = torch.load(tmp_path / "fresh" / "checkpoint.pt", weights_only=False)["model"]
    trained = torch.load(done, weights_only=False)["model"]
    assert all(torch.equal(start[k], trained[k]) for k in trained)  # the head too
    assert any(not torch.equal(fresh[k], trained[k]) for k in trained)


def test_length_batches_read_every_pair_once_with_little_padding():
    from hallucheck.train.pair_data import PairExample
    from hallucheck.train.pair_loop import length_batches

    rng = __import__("random").Random(0)
    pairs = [PairExample("p " * rng.randint(1, 60), "h", 0, "g", "k") for _ in range(1000)]
    batches = length_batches(pairs, 16, seed=3, pool=8)
    flat = sorted(i for b in batches for i in b)
    assert flat == list(range(1000))
    assert batches == length_batches(pairs, 16, seed=3, pool=8)
    spread = [max(len(pairs[i].premise) for i in b) - min(len(pairs[i].premise) for i in b) for b in batches if len(b) == 16]
    assert sum(spread) / len(spread) < 20  # random batches of 16 would spread over most of 2..120


def test_the_layers_a_shipped_model_kept_frozen_are_read_from_its_config(tmp_path: Path) -> None:
    """A run that trains more layers than the shipped model did takes those from the float base,
    not from the shipped model's int8 copy of them."""
    import hallucheck
    from hallucheck.train.pair_loop import _shipped_freeze

    assert _shipped_freeze(str(Path(hallucheck.__file__).parent / "models" / "verifier" / "model.onnx")) >= 2
    (tmp_path / "config.json").write_text(json.dumps({"train_config": {"freeze_layers": 3}}), encoding="utf-8")
    assert _shipped_freeze(str(tmp_path / "model.onnx")) == 3
    assert _shipped_freeze(str(tmp_path / "other" / "model.onnx")) == 0
