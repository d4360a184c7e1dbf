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

Memory: every session of the process draws its working memory from one CPU arena registered in
ONNX Runtime's environment (:func:`shared_arena`), not an arena of its own. An arena never gives
memory back, so with one per session a process that checks answers in every language held the
high-water mark of the English tagger *and* of the multilingual one; with one arena the second
tagger reuses what the first one left free. Memory patterns (a plan of the buffers for one input
shape) are off: the taggers and the embedder see a new batch shape almost every call, so a plan
was rarely reused and each one held its own block. Neither changes a computed number.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from hallucheck.models.unsigned_weights import unsigned_model, use_unsigned

__all__ = ["TELEMETRY_VARIABLE", "disable_telemetry", "inference_session", "onnxruntime", "shared_arena"]

log = logging.getLogger("hallucheck.models")

TELEMETRY_VARIABLE = "ORT_DISABLE_TELEMETRY"

_lock = threading.Lock()
_warned = False
_arena: bool | None = None  # None: not tried yet; False: the environment refused it


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
        import onnxruntime as ort  # lazy: heavy: onnxruntime/tokenizers load only when a model is used

        # Also suppresses the non-essential events on builds where the API is the switch.
        disable = getattr(ort, "disable_telemetry_events", None)
        if disable is not None:
            disable()
        module: ModuleType = ort
        return module


def shared_arena() -> bool:
    """Register the process-wide CPU arena that sessions share (once); False when ONNX Runtime
    refuses it (another allocator was registered first by the host application, or a build
    without the API), and sessions then keep an arena each, as by default."""
    global _arena
    ort = onnxruntime()
    with _lock:
        if _arena is None:
            try:
                info = ort.OrtMemoryInfo("Cpu", ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0, ort.OrtMemType.DEFAULT)
                # max_mem 0 = no cap; -1 = ONNX Runtime's defaults for the extension strategy
                # (next power of two: measured smaller here than "same as requested", which left
                # more holes), the first chunk and the dead bytes per chunk.
                ort.create_and_register_allocator(info, ort.OrtArenaCfg(0, -1, -1, -1))
                _arena = True
            except (AttributeError, RuntimeError, ValueError) as exc:  # pragma: no cover - depends on the build
                log.info("ONNX Runtime sessions keep an arena each (shared arena refused: %s)", exc)
                _arena = False
        return _arena


def inference_session(
    model: str | Path,
    *,
    threads: int,
    optimize: bool = True,
    spin: bool | None = None,
    config: dict[str, str] | None = None,
    initializers: Mapping[str, Any] | None = None,
) -> Any:
    """A CPU ``InferenceSession`` for ``model`` with ``threads`` intra-op threads.

    ``spin=False`` turns busy-waiting of idle worker threads off (on a shared machine spinning
    threads burn the CPU that other processes need); None keeps ONNX Runtime's default. The
    session draws its memory from the process's shared arena and plans no memory patterns (see
    the module's docstring). ``initializers`` (name -> numpy array) fill the graph's tensors that
    are stored outside its directory (:mod:`hallucheck.models.shared_tensors`). On a processor
    whose int8 products of signed weights are rounded, the graph loads with its int8 weights
    unsigned (:mod:`hallucheck.models.unsigned_weights`): the same numbers on every processor.
    """
    ort = onnxruntime()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, int(threads))
    opts.inter_op_num_threads = 1
    opts.enable_mem_pattern = False
    if shared_arena():
        opts.add_session_config_entry("session.use_env_allocators", "1")
    if optimize:
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if spin is not None:
        opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    for key, value in (config or {}).items():
        opts.add_session_config_entry(key, value)
    source: str | bytes = str(model)
    if use_unsigned():
        unsigned = unsigned_model(model, initializers)
        if unsigned.flipped:
            source = unsigned.data
            initializers = {**(initializers or {}), **unsigned.initializers}
            opts.add_session_config_entry("session.model_external_initializers_file_folder_path", str(Path(model).parent))
    if initializers:
        # ONNX Runtime copies them into the graph, so the arrays need not outlive the session.
        names = list(initializers)
        opts.add_external_initializers(names, [ort.OrtValue.ortvalue_from_numpy(initializers[n]) for n in names])
    return ort.InferenceSession(source, sess_options=opts, providers=["CPUExecutionProvider"])
