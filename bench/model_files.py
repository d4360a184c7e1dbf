"""What the package ships as model files, per model directory, and in all.

    python bench/model_files.py [--wheel]

Counts every file under ``hallucheck/models/`` that is not Python source or a model card: the
ONNX graphs, their external weights (stored once where graphs share them, see
``hallucheck.models.shared_tensors``), tokenizers and configs. ``--wheel`` also builds the wheel
(``pip wheel --no-deps``) and reports its size and the model files inside it, so the count is
what a user installs. Writes ``bench/results/model_files.json``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine, write_result

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "hallucheck" / "models"
SKIP = (".py", ".md", ".pyc")


def tree() -> dict[str, Any]:
    per_dir: dict[str, dict[str, int]] = {}
    for path in sorted(MODELS.rglob("*")):
        if path.is_file() and path.suffix not in SKIP and "__pycache__" not in path.parts:
            per_dir.setdefault(str(path.parent.relative_to(MODELS)), {})[path.name] = path.stat().st_size
    total = sum(sum(files.values()) for files in per_dir.values())
    return {"dirs": {d: {"mb": round(sum(f.values()) / 1e6, 2), "files": f} for d, f in per_dir.items()},
            "total_mb": round(total / 1e6, 2)}


def wheel() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp, str(ROOT)], check=True)
        (whl,) = Path(tmp).glob("*.whl")
        with zipfile.ZipFile(whl) as z:
            models = [i for i in z.infolist() if i.filename.startswith("hallucheck/models/")
                      and not i.filename.endswith(SKIP)]
            return {"wheel": whl.name, "wheel_mb": round(whl.stat().st_size / 1e6, 2),
                    "model_files_in_wheel_mb": round(sum(i.file_size for i in models) / 1e6, 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", action="store_true", help="also build the wheel and count what it holds")
    args = ap.parse_args()
    result: dict[str, Any] = {"machine": machine(), **tree()}
    if args.wheel:
        result.update(wheel())
    for d, info in result["dirs"].items():
        print(f"{d:24s} {info['mb']:7.2f} MB  " + ", ".join(f"{n} {s / 1e6:.2f}" for n, s in info["files"].items()))
    print(f"{'total':24s} {result['total_mb']:7.2f} MB")
    if args.wheel:
        print(f"wheel {result['wheel']}: {result['wheel_mb']} MB, model files inside {result['model_files_in_wheel_mb']} MB")
    print(f"wrote {write_result('model_files', result)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
