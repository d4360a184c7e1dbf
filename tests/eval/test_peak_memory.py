"""The peak memory of a measured command is the child's own, not its parent's."""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path

import pytest

from hallucheck.eval.peak_memory import measure_command

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")

ROOT = Path(__file__).resolve().parents[2]


def test_the_childs_own_peak_not_the_size_of_the_process_that_forked_it():
    ballast = bytearray(400 * 1024 * 1024)  # this process grows by 400 MB (touched below)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    run = measure_command(["--help"], env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0 and b"detect" in run.stdout
    assert run.peak_mb is not None and 5 < run.peak_mb < 300, run.peak_mb
    # what the children's rusage says instead: at least the forked copy of this process
    children_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert children_kb / 1024 > 400 > run.peak_mb
    del ballast


def test_a_failing_command_still_reports_its_peak():
    run = measure_command(["detect", "/no/such/case.json"], env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode != 0 and run.peak_mb is not None and run.peak_mb > 5
