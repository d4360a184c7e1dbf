"""The tagger's evidence choice must not depend on the process's string-hash seed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

_SCRIPT = """
import sys
from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.model.model import ModelDetector
from hallucheck.eval.datasets import load_dataset
det = ModelDetector()
for i, ex in enumerate(load_dataset(sys.argv[1], "ragtruth", split="dev", limit=20)):
    f = det.detect(CaseAnalysis(ex.case))
    print(i, f.notes, [round(p, 5) for p in f.details["token_probs"]["probs"][:50]])
"""


@pytest.mark.slow
def test_same_evidence_and_probabilities_under_any_hash_seed(ragtruth_path: Path) -> None:
    from hallucheck.models.tagger import tagger_available

    if not tagger_available():
        pytest.skip("shipped tagger files missing")
    outs = set()
    for seed in ("1", "2", "3"):
        run = subprocess.run(
            [sys.executable, "-c", _SCRIPT, str(ragtruth_path)],
            env={"PYTHONHASHSEED": seed, "HALLUCHECK_THREADS": "1", "PATH": ""},
            capture_output=True, text=True, check=True, timeout=600,
        )
        outs.add(run.stdout)
    assert len(outs) == 1
