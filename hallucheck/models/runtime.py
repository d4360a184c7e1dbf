"""The one way hallucheck loads ONNX Runtime and creates inference sessions: offline, always.

Official ONNX Runtime builds carry a telemetry uploader. It starts with the runtime and, some
seconds later, resolves and contacts a vendor host, from every process that loaded the library
(a running ``hallucheck serve`` did so several times a minute). The switch that stops it for the
whole process is the environment variable ``ORT_DISABLE_TELEMETRY=1``, and the runtime reads it
when its library is loaded, that is on ``import onnxruntime``: setting the variable afterwards,
or calling ``onnxruntime.disable_telemetry_events()``, leaves the uploader running. So nothing
in hallucheck imports ``onnxruntime`` directly; every import and every session goes through
:func:`onnxruntime` and :func:`inference_session` here, which set the variable first.

When the host application imported ``onnxruntime`` before hallucheck could set the variable,
the uploader is already running and cannot be stopped from inside the process: a warning says
so once, with the fix (set ``ORT_DISABLE_TELEMETRY=1`` in the environment, or import hallucheck's
models first).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["TELEMETRY_VARIABLE", "disable_telemetry", "inference_session", "onnxruntime"]

log = logging.getLogger("hallucheck.models")

TELEMETRY_VARIABLE = "ORT_DISABLE_TELEMETRY"

_lock = threading.Lock()
_warned = False


def disable_telemetry() -> bool:
    """Set ``ORT_DISABLE_TELEMETRY=1`` for this process (and its children).

    Returns False when ONNX Runtime was already loaded without it: its uploader is then running
    and only a restart with the variable set stops it.
    """
    loaded_before = "onnxruntime" in sys.modules and os.environ.get(TELEMETRY_VARIABLE) != "1"
    os.environ[TELEMETRY_VARIABLE] = "1"
    return not loaded_before


def onnxruntime() -> ModuleType:
    """The ``onnxruntime`` module, imported with its telemetry uploader switched off."""
    global _warned
    with _lock:
        clean = disable_telemetry()
        if not clean and not _warned:
            _warned = True
            log.warning("onnxruntime was imported before hallucheck could switch its telemetry off; "
                        "set %s=1 in the environment to keep this process offline", TELEMETRY_VARIABLE)
        import onnxruntime as ort

        # Also suppresses the non-essential events on builds where the API is the switch.
        disable = getattr(ort, "disable_telemetry_events", None)
        if disable is not None:
            disable()
        return ort


def inference_session(
    model: str | Path,
    *,
    threads: int,
    optimize: bool = True,
    spin: bool | None = None,
    config: dict[str, str] | None = None,
) -> Any:
    """A CPU ``InferenceSession`` for ``model`` with ``threads`` intra-op threads.

    ``spin=False`` turns busy-waiting of idle worker threads off (on a shared machine spinning
    threads burn the CPU that other processes need); None keeps ONNX Runtime's default.
    """
    ort = onnxruntime()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, int(threads))
    opts.inter_op_num_threads = 1
    if optimize:
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if spin is not None:
        opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    for key, value in (config or {}).items():
        opts.add_session_config_entry(key, value)
    return ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"])
