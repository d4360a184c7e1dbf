"""A tiny training run: the loss is finite, checkpoints appear, and resuming gives the same weights."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.train


def _weights(run: Path) -> dict:
    return torch.load(run / "final.pt", map_location="cpu", weights_only=False)["model"]


@pytest.fixture(scope="module")
def straight_run(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path, tiny_data: Path):  # type: ignore[no-untyped-def]
    from hallucheck.train.loop import train
    from tests.train.conftest import make_config

    run = tmp_path_factory.mktemp("straight")
    return run, train(make_config(tiny_model_dir, tiny_data), run, echo=False)


def test_tiny_run_checkpoints_and_logs(tiny_config, straight_run) -> None:
    run, summary = straight_run
    assert summary["step"] == summary["total"] == 4
    assert (run / "DONE").is_file() and (run / "final.pt").is_file() and (run / "checkpoint.pt").is_file()
    log = (run / "train.log").read_text()
    assert "step 4/4" in log and "sha256=" in log and "eval {" in log
    saved = json.loads((run / "config.json").read_text())
    assert saved["max_steps"] == 4 and saved["seed"] == tiny_config.seed
    # typed labels (the fixture labels conflicts): the eval also says how often the type is right
    assert set(summary["eval"]) == {"token_auroc", "token_f1@0.5", "answer_auroc", "type_acc"}
    assert all(0.0 <= v <= 1.0 for v in summary["eval"].values())


def test_resume_gives_the_same_model_as_an_uninterrupted_run(tiny_config, straight_run, tmp_path: Path) -> None:
    from hallucheck.train.loop import train

    straight = straight_run[0]
    cut = tmp_path / "cut"
    first = train(tiny_config, cut, echo=False, stop_after=2)
    assert first["step"] == 2 and not (cut / "DONE").exists()
    second = train(tiny_config, cut, echo=False)
    assert second["step"] == 4
    assert "resumed at step 2/4" in (cut / "train.log").read_text()
    a, b = _weights(straight), _weights(cut)
    for k in a:
        assert torch.allclose(a[k], b[k], atol=1e-6), k


def test_resume_refuses_changed_data(tiny_config, tmp_path: Path) -> None:
    import gzip
    import shutil

    from hallucheck.train.loop import train

    data = tmp_path / "data.jsonl.gz"
    shutil.copyfile(tiny_config.data, data)
    cfg = replace(tiny_config, data=str(data))
    run = tmp_path / "run"
    train(cfg, run, echo=False, stop_after=1)
    with gzip.open(data, "at", encoding="utf-8") as fh:
        fh.write("\n")
    with pytest.raises(RuntimeError, match="data file changed"):
        train(cfg, run, echo=False)


def test_config_file_round_trip_and_unknown_keys(tmp_path: Path) -> None:
    from hallucheck.train.config import TrainConfig, load_config

    p = tmp_path / "c.json"
    TrainConfig(seed=5, lr=2e-4).save(p)
    assert load_config(p).seed == 5
    assert load_config(p, seed=7).seed == 7
    p.write_text('{"sede": 1}')
    with pytest.raises(ValueError, match="unknown config keys: sede"):
        load_config(p)


def test_init_from_starts_at_the_given_weights(tiny_config, straight_run, tmp_path: Path) -> None:
    from hallucheck.train.loop import train

    straight = straight_run[0]
    # learning rates 0: one step changes nothing, so the result is the weights it started from
    cfg = replace(tiny_config, init_from=str(straight / "final.pt"), max_steps=1, lr=0.0, head_lr=0.0)
    run = tmp_path / "init"
    train(cfg, run, echo=False)
    assert "weights from" in (run / "train.log").read_text()
    a, b = _weights(straight), _weights(run)
    for k in a:
        assert torch.allclose(a[k], b[k]), k


def test_init_from_a_model_of_fewer_features_starts_with_the_new_ones_unused(tiny_config, straight_run, tmp_path: Path) -> None:
    from hallucheck.models.tagger_features import BASE_FEATURES, FEATURE_NAMES
    from hallucheck.train.loop import train

    straight = straight_run[0]
    cfg = replace(tiny_config, init_from=str(straight / "final.pt"), max_steps=1, lr=0.0, head_lr=0.0,
                  features=list(FEATURE_NAMES))
    run = tmp_path / "wider"
    train(cfg, run, echo=False)
    a, b = _weights(straight), _weights(run)
    n = len(BASE_FEATURES)
    for k in a:
        if k in ("feature_embed.weight", "head.0.weight"):
            width = a[k].shape[1]
            assert b[k].shape[1] == width + len(FEATURE_NAMES) - n, k
            assert torch.allclose(a[k], b[k][:, :width]), k
            assert not b[k][:, width:].any(), k  # the new input starts with zero weight
        else:
            assert torch.allclose(a[k], b[k]), k
    assert json.loads((run / "config.json").read_text())["features"] == list(FEATURE_NAMES)


def test_eval_checkpoints_and_eval_log_let_calib_choose_the_step(straight_run) -> None:
    run, _ = straight_run
    evals = [json.loads(line) for line in (run / "evals.jsonl").read_text().splitlines()]
    assert [e["step"] for e in evals] == [2, 4]
    assert (run / "eval-2.pt").is_file() and (run / "eval-4.pt").is_file()
