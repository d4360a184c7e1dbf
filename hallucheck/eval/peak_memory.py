"""Time and peak memory of one ``hallucheck`` command, measured in a fresh child process.

Why the child reports its own peak: the obvious measure, the child's ``ru_maxrss`` (``wait4``,
``resource.getrusage(RUSAGE_CHILDREN)``), is wrong here. A child is forked from the measuring
process and keeps the high-water mark of that copy across ``exec``, so it grows with whatever the
measuring process had loaded (a bench that built a 5 MB case, a test session with the models
loaded: 2 GB). The child therefore runs the command through a small wrapper that reads its own
``VmHWM`` (``/proc/self/status``, the peak resident size of the process image it runs) when the
command ends, however it ends, and writes it to a file the parent reads. Linux only.

    run = measure_command(["detect", "case.json"])
    run.seconds, run.peak_mb, run.returncode, run.stdout
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ChildRun", "measure_command"]

_WRAPPER = (
    "import os, runpy, sys\n"
    "sys.argv = ['hallucheck', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('hallucheck', run_name='__main__')\n"
    "finally:\n"
    "    with open('/proc/self/status', encoding='ascii') as status:\n"
    "        kb = next(line.split()[1] for line in status if line.startswith('VmHWM:'))\n"
    "    with open(os.environ['HALLUCHECK_PEAK_FILE'], 'w', encoding='ascii') as out:\n"
    "        out.write(kb)\n"
)


@dataclass(frozen=True)
class ChildRun:
    """What one measured command did: exit code, wall seconds, the child's own peak RSS (MB;
    None when the child was killed before it could say)."""

    returncode: int
    seconds: float
    peak_mb: float | None
    stdout: bytes
    stderr: bytes


def measure_command(args: Sequence[str], *, env: Mapping[str, str] | None = None,
                    timeout: float | None = None) -> ChildRun:
    """Run ``python -m hallucheck *args`` in a fresh process; its time and its own peak memory.

    ``env`` replaces the environment (default: this process's); ``timeout`` (seconds) kills a
    command that runs longer (``subprocess.TimeoutExpired``).
    """
    if not Path("/proc/self/status").is_file():
        raise RuntimeError("measuring a child's peak memory needs Linux (/proc/self/status)")
    with tempfile.TemporaryDirectory(prefix="hallucheck-peak-") as tmp:
        peak_file = Path(tmp) / "peak_kb"
        child_env = {**(os.environ if env is None else env), "HALLUCHECK_PEAK_FILE": str(peak_file)}
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", _WRAPPER, *args], capture_output=True, env=child_env,
                              timeout=timeout, check=False)
        seconds = time.perf_counter() - t0
        try:
            peak_mb: float | None = int(peak_file.read_text(encoding="ascii")) / 1024
        except (OSError, ValueError):
            peak_mb = None  # killed by a signal before it could say
    return ChildRun(returncode=proc.returncode, seconds=seconds, peak_mb=peak_mb, stdout=proc.stdout, stderr=proc.stderr)
