"""Just enough of the ONNX file format to find a graph's nodes and stored tensors in its bytes.

Why: hallucheck changes a few bytes of a shipped graph before ONNX Runtime loads it
(:mod:`hallucheck.models.unsigned_weights`), and the ``onnx`` package that would parse it is an
optional extra (``train``). An ONNX file is one protocol-buffers message (``ModelProto``); this
module walks its wire format and returns, for each tensor of the main graph, where it and its
values sit, and writes a model back with some tensors encoded anew (every other byte as it was,
the lengths around them rewritten). Subgraphs
(``If``/``Loop`` bodies) are not read: the shipped graphs have none.

Field numbers are those of ``onnx.proto`` (stable since ONNX 1.0).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from hallucheck.errors import HallucheckError

__all__ = ["Graph", "Node", "Tensor", "WireError", "encode_tensor", "int32_values", "read_graph", "replace_tensors"]

# ModelProto.graph; GraphProto.node, .initializer; NodeProto.input, .op_type;
# TensorProto.dims, .data_type, .name, .raw_data, .external_data, .data_location;
# StringStringEntryProto.key, .value
_MODEL_GRAPH = 7
_GRAPH_NODE, _GRAPH_INITIALIZER = 1, 5
_NODE_INPUT, _NODE_OP_TYPE = 1, 4
_T_DIMS, _T_DATA_TYPE, _T_INT32, _T_NAME, _T_RAW, _T_EXTERNAL, _T_LOCATION = 1, 2, 5, 8, 9, 13, 14
_EXTERNAL = 1  # TensorProto.DataLocation.EXTERNAL
_ENTRY_KEY, _ENTRY_VALUE = 1, 2

_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


class WireError(HallucheckError, ValueError):
    """The bytes are not an ONNX model this reader understands."""


@dataclass(frozen=True)
class Node:
    """One node of the main graph: its operator and input names."""

    op_type: str
    inputs: tuple[str, ...]


@dataclass(frozen=True)
class Tensor:
    """One stored tensor (initializer) of the main graph, with where its parts are in the bytes.

    ``span``: (start, end) of the whole initializer field, its key and length included;
    ``raw``: (start, end) of its ``raw_data`` bytes; ``int32``: of its packed ``int32_data``
    (how small tensors of 8-bit types are often stored); ``external``: its external-data entries
    (``location``, ``offset``, ``length``), empty when its values are in the file.
    """

    name: str
    data_type: int
    dims: tuple[int, ...]
    span: tuple[int, int]
    raw: tuple[int, int] | None = None
    int32: tuple[int, int] | None = None
    external: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Graph:
    """The main graph: its nodes, its stored tensors, and (start, end) of its field in the model (``span``)."""

    nodes: list[Node]
    tensors: list[Tensor]
    span: tuple[int, int]


def _varint(buf: bytes | bytearray | memoryview, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise WireError("truncated or malformed varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def _fields(buf: bytes | bytearray | memoryview, start: int, end: int) -> Iterator[tuple[int, int, int, int, int]]:
    """(field number, wire type, where its key starts, value start, value end or the varint's
    value) of each variable-length or varint field of one message; fixed-width ones are skipped."""
    pos = start
    while pos < end:
        head = pos
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == _VARINT:
            value, after = _varint(buf, pos)
            yield number, wire, head, pos, value
            pos = after
        elif wire == _LEN:
            length, pos = _varint(buf, pos)
            if pos + length > end:
                raise WireError("a field runs past the end of its message")
            yield number, wire, head, pos, pos + length
            pos += length
        elif wire == _I64:
            pos += 8
        elif wire == _I32:
            pos += 4
        else:
            raise WireError(f"unsupported wire type {wire}")
    if pos != end:
        raise WireError("a message runs past its end")


def _text(buf: bytes | bytearray | memoryview, start: int, end: int) -> str:
    return bytes(buf[start:end]).decode("utf-8")


def _node(buf: bytes | bytearray | memoryview, start: int, end: int) -> Node:
    op_type, inputs = "", []
    for number, wire, _, a, b in _fields(buf, start, end):
        if number == _NODE_INPUT and wire == _LEN:
            inputs.append(_text(buf, a, b))
        elif number == _NODE_OP_TYPE and wire == _LEN:
            op_type = _text(buf, a, b)
    return Node(op_type, tuple(inputs))


def _tensor(buf: bytes | bytearray | memoryview, start: int, end: int, whole: tuple[int, int]) -> Tensor:
    name, data_type = "", 0
    raw: tuple[int, int] | None = None
    int32: tuple[int, int] | None = None
    dims: list[int] = []
    external: dict[str, str] = {}
    for number, wire, _, a, b in _fields(buf, start, end):
        if number == _T_DIMS and wire == _VARINT:
            dims.append(b)
        elif number == _T_DIMS and wire == _LEN:  # packed
            pos = a
            while pos < b:
                d, pos = _varint(buf, pos)
                dims.append(d)
        elif number == _T_DATA_TYPE and wire == _VARINT:
            data_type = b
        elif number == _T_INT32 and wire == _LEN:
            int32 = (a, b)
        elif number == _T_NAME and wire == _LEN:
            name = _text(buf, a, b)
        elif number == _T_RAW and wire == _LEN:
            raw = (a, b)
        elif number == _T_EXTERNAL and wire == _LEN:
            entry = {n: _text(buf, x, y) for n, w, _, x, y in _fields(buf, a, b) if w == _LEN}
            external[entry.get(_ENTRY_KEY, "")] = entry.get(_ENTRY_VALUE, "")
    return Tensor(name, data_type, tuple(dims), whole, raw, int32, external)


def read_graph(buf: bytes | bytearray | memoryview) -> Graph:
    """The main graph's nodes and stored tensors, with where each tensor's parts are in ``buf``."""
    graphs = [(h, a, b) for number, wire, h, a, b in _fields(buf, 0, len(buf))
              if number == _MODEL_GRAPH and wire == _LEN]
    if len(graphs) != 1:
        raise WireError("not an ONNX model: no single main graph")
    head, start, end = graphs[0]
    nodes: list[Node] = []
    tensors: list[Tensor] = []
    for number, wire, h, a, b in _fields(buf, start, end):
        if number == _GRAPH_NODE and wire == _LEN:
            nodes.append(_node(buf, a, b))
        elif number == _GRAPH_INITIALIZER and wire == _LEN:
            tensors.append(_tensor(buf, a, b, (h, b)))
    return Graph(nodes, tensors, (head, end))


def int32_values(buf: bytes | bytearray | memoryview, tensor: Tensor) -> list[int]:
    """The values of a tensor stored in ``int32_data`` (signed, as the format stores them)."""
    if tensor.int32 is None:
        return []
    out, pos = [], tensor.int32[0]
    while pos < tensor.int32[1]:
        value, pos = _varint(buf, pos)
        out.append(value - (1 << 64) if value >= 1 << 63 else value)
    return out


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _len_field(number: int, payload: bytes) -> bytes:
    return _encode_varint(number << 3 | _LEN) + _encode_varint(len(payload)) + payload


def encode_tensor(name: str, data_type: int, dims: tuple[int, ...], raw: bytes = b"",
                  external: Mapping[str, str] | None = None) -> bytes:
    """A TensorProto message (without its field header): ``raw`` as its ``raw_data``, or, given
    ``external``, a reference to values stored elsewhere (its location, offset and length)."""
    out = b"".join(_encode_varint(_T_DIMS << 3 | _VARINT) + _encode_varint(d) for d in dims)
    out += _encode_varint(_T_DATA_TYPE << 3 | _VARINT) + _encode_varint(data_type)
    out += _len_field(_T_NAME, name.encode("utf-8"))
    if external is None:
        return out + _len_field(_T_RAW, raw)
    for key, value in external.items():
        out += _len_field(_T_EXTERNAL, _len_field(_ENTRY_KEY, key.encode("utf-8")) + _len_field(_ENTRY_VALUE, value.encode("utf-8")))
    return out + _encode_varint(_T_LOCATION << 3 | _VARINT) + _encode_varint(_EXTERNAL)


def replace_tensors(buf: bytes | bytearray | memoryview, graph: Graph, messages: dict[str, bytes]) -> bytes:
    """The model ``buf`` with the initializers named in ``messages`` replaced by those encoded
    TensorProto messages (:func:`encode_tensor`); every length around them is written anew."""
    start, end = graph.span
    _, body = _varint(buf, _varint(buf, start)[1])  # past the graph field's key and length
    pieces: list[bytes] = []
    pos = body
    for tensor in sorted((t for t in graph.tensors if t.name in messages), key=lambda t: t.span[0]):
        pieces.append(bytes(buf[pos : tensor.span[0]]))
        pieces.append(_len_field(_GRAPH_INITIALIZER, messages[tensor.name]))
        pos = tensor.span[1]
    pieces.append(bytes(buf[pos:end]))
    return bytes(buf[:start]) + _len_field(_MODEL_GRAPH, b"".join(pieces)) + bytes(buf[end:])
