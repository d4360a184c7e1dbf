"""ONNX Runtime is loaded only through hallucheck.models.runtime, with its telemetry off."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "hallucheck"
HELPER = PACKAGE / "models" / "runtime.py"


def _imports_onnxruntime(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        if any(n.split(".")[0] == "onnxruntime" for n in names):
            lines.append(node.lineno)
    return lines


def test_every_onnxruntime_import_follows_the_offline_switch():
    """Only the helper imports onnxruntime bare; a module that needs its submodules (the
    quantization tools) calls the helper first, in the same function."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == HELPER:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        for func in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module))]:
            body = func.body
            for i, stmt in enumerate(body):
                if not _imports_onnxruntime(stmt) or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                before = ast.unparse(ast.Module(body=body[:i], type_ignores=[]))
                if "onnxruntime()" not in before:
                    offenders.append(f"{path.relative_to(ROOT)}:{stmt.lineno}")
    assert not offenders, f"onnxruntime imported without hallucheck.models.runtime.onnxruntime(): {offenders}"


_PROBE = r"""
import os, sys
seen = []

class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "onnxruntime":
            seen.append(os.environ.get("ORT_DISABLE_TELEMETRY"))
        return None

sys.meta_path.insert(0, Watch())
what = sys.argv[1]
if what == "helper":
    from hallucheck.models.runtime import inference_session, onnxruntime
    ort = onnxruntime()
    inference_session(os.path.join(os.path.dirname(ort.__file__), "datasets", "sigmoid.onnx"), threads=1)
elif what == "tagger":
    from hallucheck.models.tagger import Tagger
    Tagger(threads=1)
elif what == "embedder":
    from hallucheck.models.embedder import Embedder
    Embedder().encode(["The plant opened in 2011."])
print(seen[0] if seen else "not imported")
"""


@pytest.mark.parametrize("what", ["helper", "tagger", "embedder"])
def test_telemetry_is_off_when_onnxruntime_loads(what):
    pytest.importorskip("onnxruntime")
    if what == "tagger":
        from hallucheck.models.tagger import tagger_available

        if not tagger_available():
            pytest.skip("no shipped tagger")
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", _PROBE, what], check=False, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "1"


def test_late_import_is_reported(caplog):
    """onnxruntime loaded by someone else first: the helper cannot stop the uploader and says so."""
    code = ("import os, logging; os.environ.pop('ORT_DISABLE_TELEMETRY', None); import onnxruntime; "
            "logging.basicConfig(); from hallucheck.models.runtime import onnxruntime as ort; ort()")
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code], check=False, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "ORT_DISABLE_TELEMETRY=1" in out.stderr


def test_sessions_share_one_arena_and_plan_no_patterns():
    """Every session draws from the process's one CPU arena (an arena per session kept each
    tagger's high-water mark apart) and keeps no memory pattern per input shape."""
    pytest.importorskip("onnxruntime")
    from hallucheck.models.runtime import inference_session, onnxruntime, shared_arena

    ort = onnxruntime()
    assert shared_arena()
    model = os.path.join(os.path.dirname(ort.__file__), "datasets", "sigmoid.onnx")
    for _ in range(2):
        opts = inference_session(model, threads=1).get_session_options()
        assert opts.get_session_config_entry("session.use_env_allocators") == "1"
        assert not opts.enable_mem_pattern
