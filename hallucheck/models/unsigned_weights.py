"""Int8 weights read as unsigned bytes where the processor would otherwise round their products.

Why: ONNX Runtime multiplies an 8-bit activation matrix by an 8-bit weight matrix
(``MatMulInteger``) with a kernel chosen by the processor and by the weights' sign. With signed
weights, as hallucheck's models are quantised, a processor with VNNI instructions (AVX512-VNNI or
AVX-VNNI) adds the products exactly; one with only AVX2 or AVX512 (many cloud machines) uses an
instruction that adds each pair of products into 16 bits and saturates there, so sums are cut
off. The shipped models then gave other numbers on those machines: on one bundled German example
the verifier's probability of "not supported" went from 0.16 to 0.24 and a span was lost. With
*unsigned* weights ONNX Runtime widens both operands to 16 bits before it multiplies, on every
processor, and never saturates; on a VNNI processor that kernel is slower (1.2-1.6x per model
run, ``bench/int8_weights.py``), so the weights stay signed where signed products are exact.

How: a signed weight ``w`` with zero point ``z`` and the unsigned weight ``w + 128`` with zero
point ``z + 128`` give the same integer ``w - z`` in every product, so the change alters no number
the model computes, only which kernel computes it. :func:`unsigned_model` makes it in the
graph's bytes as they are loaded (:mod:`hallucheck.models.onnx_wire`): each weight and zero point
is written anew as a UINT8 tensor whose bytes have their top bit flipped (``b ^ 0x80`` is
``b + 128`` read unsigned). Weights stored in a file beside the graph, or handed in by the caller,
are flipped and handed to ONNX Runtime in place of the stored copy.

When: :func:`signed_products_exact` reads the processor's flags (``/proc/cpuinfo`` on Linux).
Where it cannot tell (another system), weights are made unsigned: slower, never rounded.
``HALLUCHECK_INT8_WEIGHTS=signed`` or ``=unsigned`` overrides the choice.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from hallucheck.errors import HallucheckError
from hallucheck.models.onnx_wire import Node, Tensor, encode_tensor, int32_values, read_graph, replace_tensors
from hallucheck.models.shared_tensors import SharedTensor

__all__ = [
    "INT8", "UINT8", "VARIABLE", "UnsignedModel", "UnsignedWeightsError", "signed_products_exact",
    "unsigned_model", "use_unsigned", "weights_to_flip",
]

VARIABLE = "HALLUCHECK_INT8_WEIGHTS"
INT8, UINT8 = 3, 2  # TensorProto.DataType
_FLIP = 0x80
_HANDED = {"location": "handed-in", "offset": "0", "length": "0"}  # a reference ONNX Runtime never follows
_VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})
_X86 = frozenset({"x86_64", "amd64", "i386", "i686", "x86"})
# op type -> (index of its 8-bit weight input, index of that weight's zero point)
_WEIGHT_INPUTS = {"MatMulInteger": (1, 3)}


class UnsignedWeightsError(HallucheckError, ValueError):
    """A graph's int8 weights cannot be made unsigned without changing what it computes."""


@dataclass(frozen=True)
class UnsignedModel:
    """A graph's bytes with unsigned weights, and the tensors to hand ONNX Runtime in place of
    those the graph keeps in files beside it (name -> array)."""

    data: bytes
    initializers: Mapping[str, np.ndarray] = field(default_factory=dict)
    flipped: tuple[str, ...] = ()


def signed_products_exact(cpuinfo: str | None = None, machine: str | None = None) -> bool:
    """True where ONNX Runtime adds signed 8-bit products exactly: any processor that is not
    x86, and x86 processors with VNNI instructions. ``cpuinfo``/``machine`` are read from this
    machine when not given (tests pass them); an x86 machine whose flags cannot be read counts
    as one without VNNI."""
    machine = (machine if machine is not None else platform.machine()).lower()
    if machine not in _X86:
        return True
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return bool(_VNNI_FLAGS & set(value.split()))
    return False


@lru_cache(maxsize=1)
def _this_processor_exact() -> bool:
    return signed_products_exact()


def use_unsigned() -> bool:
    """Whether graphs load with unsigned weights in this process: ``HALLUCHECK_INT8_WEIGHTS``
    (``signed``, ``unsigned``, or ``auto``/unset for :func:`signed_products_exact`)."""
    choice = os.environ.get(VARIABLE, "auto").strip().lower() or "auto"
    if choice not in {"auto", "signed", "unsigned"}:
        raise UnsignedWeightsError(f"{VARIABLE} must be signed, unsigned or auto, not {choice!r}")
    if choice != "auto":
        return choice == "unsigned"
    return not _this_processor_exact()


def weights_to_flip(nodes: list[Node], tensors: list[Tensor]) -> list[Tensor]:
    """The stored int8 weights that a ``MatMulInteger`` reads, with their zero points.

    Refused (:class:`UnsignedWeightsError`): a weight without a stored int8 zero point (its
    implicit zero point would stay signed), and a weight or zero point that another node reads
    too (it would see other numbers)."""
    stored = {t.name: t for t in tensors}
    pairs: set[tuple[str, str]] = set()
    for node in nodes:
        spec = _WEIGHT_INPUTS.get(node.op_type)
        if spec is None or len(node.inputs) <= spec[0]:
            continue
        weight = stored.get(node.inputs[spec[0]])
        if weight is None or weight.data_type != INT8:
            continue
        zp = stored.get(node.inputs[spec[1]]) if len(node.inputs) > spec[1] else None
        if zp is None or zp.data_type != INT8:
            raise UnsignedWeightsError(f"weight {weight.name} has no stored int8 zero point")
        pairs.add((weight.name, zp.name))
    flip = {name for pair in pairs for name in pair}
    for node in nodes:
        readers: tuple[int, ...] = _WEIGHT_INPUTS.get(node.op_type, ())
        for i, name in enumerate(node.inputs):
            if name in flip and i not in readers:
                raise UnsignedWeightsError(f"{node.op_type} also reads {name}")
    return [stored[n] for n in sorted(flip)]


def _external_values(tensor: Tensor, base: Path) -> np.ndarray:
    """An int8 tensor the graph keeps in a file beside it, read as shared tensors are read."""
    location = tensor.external.get("location", "")
    if not location or base.resolve() not in (base / location).resolve().parents:
        raise UnsignedWeightsError(f"{tensor.name}: external data outside the graph's directory: {location!r}")
    offset = int(tensor.external.get("offset", "0") or 0)
    return SharedTensor(location, "int8", tensor.dims, offset).read(base)


def _int8_values(data: bytes, tensor: Tensor, base: Path, supplied: Mapping[str, Any]) -> np.ndarray:
    """The tensor's int8 values, wherever they are stored."""
    count = int(np.prod(tensor.dims)) if tensor.dims else 1
    if tensor.name in supplied:
        values = np.asarray(supplied[tensor.name])
        if values.dtype != np.int8:
            raise UnsignedWeightsError(f"{tensor.name}: supplied as {values.dtype}, not int8")
    elif tensor.raw is not None:
        values = np.frombuffer(data, dtype=np.int8, count=tensor.raw[1] - tensor.raw[0], offset=tensor.raw[0])
    elif tensor.int32 is not None:
        values = np.asarray(int32_values(data, tensor), dtype=np.int64)
        if values.size and (values.min() < -128 or values.max() > 127):
            raise UnsignedWeightsError(f"{tensor.name}: values outside int8")
        values = values.astype(np.int8)
    elif tensor.external:
        values = _external_values(tensor, base)
    else:
        raise UnsignedWeightsError(f"{tensor.name}: stored in no form this reader knows")
    if values.size != count:
        raise UnsignedWeightsError(f"{tensor.name}: {values.size} values for shape {tensor.dims}")
    return values.reshape(tensor.dims)


def unsigned_model(path: str | Path, supplied: Mapping[str, Any] | None = None) -> UnsignedModel:
    """The graph at ``path`` with every int8 ``MatMulInteger`` weight and zero point unsigned.

    ``supplied``: tensors the caller hands ONNX Runtime itself (shared between models,
    :mod:`hallucheck.models.shared_tensors`); one of them that must change is returned changed
    among the initializers. So is a weight the graph keeps in a file beside it; the others are
    written into the graph's bytes."""
    path = Path(path)
    data = path.read_bytes()
    graph = read_graph(data)
    flip = weights_to_flip(graph.nodes, graph.tensors)
    if not flip:
        return UnsignedModel(data)
    supplied = supplied or {}
    messages: dict[str, bytes] = {}
    extra: dict[str, np.ndarray] = {}
    for tensor in flip:
        unsigned = _int8_values(data, tensor, path.parent, supplied).view(np.uint8) ^ np.uint8(_FLIP)
        if tensor.name in supplied or tensor.external:
            # still declared external, now uint8: ONNX Runtime takes the array handed to it
            extra[tensor.name] = unsigned
            messages[tensor.name] = encode_tensor(tensor.name, UINT8, tensor.dims, external=tensor.external or _HANDED)
        else:
            messages[tensor.name] = encode_tensor(tensor.name, UINT8, tensor.dims, unsigned.tobytes())
    return UnsignedModel(replace_tensors(data, graph, messages), extra, tuple(t.name for t in flip))
