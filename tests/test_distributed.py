"""Batch checking on a local Ray instance gives exactly what the local path gives."""

from __future__ import annotations

import pytest

from hallucheck.batch import CheckerSpec, iter_checked
from hallucheck.errors import InputError

SOURCE = "The plant opened in 2011 in Lyon. It employs 420 people and makes bicycle frames."


def records(n: int) -> list[tuple[int, dict]]:
    out = []
    for i in range(n):
        answer = f"The plant opened in {2011 if i % 2 else 1999} in Lyon [1]. It employs {420 + i} people [{1 + i % 3}]."
        out.append((i + 1, {"id": f"r{i}", "question": "Tell me about the plant.", "contexts": [SOURCE], "answer": answer}))
    out.append((n + 1, {"id": "bad", "question": "q", "contexts": [], "answer": "x"}))  # invalid: no source
    return out


SPEC = CheckerSpec.of(["citations", "lexicon"], "weighted")


def _strip(r: dict) -> dict:
    # timings differ run to run; everything else must be identical
    r = dict(r)
    r.pop("timings_ms", None)
    for f in r.get("findings", []):
        f.pop("latency_ms", None)
    return r


def test_map_records_local_processes_match_serial():
    from functools import partial

    from hallucheck.batch import check_record_safe
    from hallucheck.distributed import map_records

    recs = records(12)
    fn = partial(check_record_safe, spec=SPEC, overrides={})
    serial = [_strip(r) for r in map_records(fn, recs, workers=1)]
    parallel = [_strip(r) for r in map_records(fn, recs, workers=2, chunk_size=3)]
    assert serial == parallel
    assert [r.get("id") for r in serial] == [f"r{i}" for i in range(12)] + ["bad"]
    assert "error" in serial[-1] and serial[-1]["line"] == 13


def test_ray_map_needs_a_positive_chunk():
    pytest.importorskip("ray")
    from hallucheck.distributed import ray_map

    with pytest.raises(InputError):
        list(ray_map(str, [1], chunk_size=0))


@pytest.mark.ray
@pytest.mark.slow
def test_local_ray_instance_same_results_in_order():
    ray = pytest.importorskip("ray")
    from hallucheck.distributed import iter_checked_ray

    recs = records(40)
    local = [_strip(r) for r in iter_checked(recs, SPEC, {}, workers=1)]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        remote = [_strip(r) for r in iter_checked_ray(recs, SPEC, {}, chunk_size=7)]
        assert ray.is_initialized()  # an instance the caller started is left running
    finally:
        ray.shutdown()
    assert remote == local
    assert len(remote) == 41 and remote[-1]["error"]
    assert any(s["label"] == "invalid_citation" for r in remote[:-1] for s in r["spans"])  # the checks ran


@pytest.mark.ray
@pytest.mark.slow
def test_detect_batch_cli_on_ray_matches_local(tmp_path):
    import json
    import subprocess
    import sys

    pytest.importorskip("ray")
    data = tmp_path / "log.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for _, r in records(10)[:-1]), encoding="utf-8")
    base = [sys.executable, "-m", "hallucheck", "detect", "--batch", str(data), "-d", "citations,lexicon", "-p", "weighted"]
    local = subprocess.run(base, capture_output=True, text=True, timeout=300)
    on_ray = subprocess.run([*base, "--ray", "local"], capture_output=True, text=True, timeout=300)
    assert local.returncode == 0 and on_ray.returncode == 0, on_ray.stderr[-2000:]
    a = [_strip(json.loads(line)) for line in local.stdout.splitlines()]
    b = [_strip(json.loads(line)) for line in on_ray.stdout.splitlines()]
    assert len(a) == 10 and a == b
