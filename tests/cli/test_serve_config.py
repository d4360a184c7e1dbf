"""``hallucheck serve`` with a bad configuration: one line naming the variable, the value and
the file, exit 1 (exit 70 is for bugs alone)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

ROOT = Path(__file__).resolve().parents[2]


def _serve(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "HALLUCHECK_DB_URL": f"sqlite:///{tmp_path / 'c.db'}",
            "HALLUCHECK_DETECTORS": "citations", "HALLUCHECK_POLICY": "tiered", "HALLUCHECK_WARMUP": "off", **env}
    return subprocess.run([sys.executable, "-m", "hallucheck", "serve", "--port", "1", "--log-level", "warning"], env=full, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)


def test_bad_configuration_is_one_line_and_exit_1(tmp_path: Path) -> None:
    latin1 = tmp_path / "keys.txt"
    latin1.write_bytes(b"k1 sha256:\xe9\n")
    for env, words in (({"HALLUCHECK_PLUGINS": "nosuchmodule"}, "nosuchmodule"),
                       ({"HALLUCHECK_DB_URL": "mysql://u:pw@h/db"}, "HALLUCHECK_DB_URL"),
                       ({"HALLUCHECK_API_KEYS_FILE": str(latin1)}, str(latin1)),
                       ({"HALLUCHECK_RETENTION_DAYS": "-1"}, "HALLUCHECK_RETENTION_DAYS='-1'")):
        proc = _serve(tmp_path, **env)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 1, (env, proc.stderr)
        assert len(lines) == 1 and words in lines[0] and "internal error" not in lines[0], proc.stderr
