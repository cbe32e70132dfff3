"""Chunk vectors of one embedder, aligned with a catalog's rows: exact or approximate search.

The float32 matrix is saved beside the store and memory-mapped, so a new process reads
only the rows it scores. Above ``ann_threshold`` rows an HNSW graph (``usearch``, chosen
by ``benchmarks/scale.py``: recall@100 against exact search, latency and memory) finds
candidates, which are then scored exactly from the matrix; a scope that leaves only a few
rows is searched exactly over those rows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from chronorag.deps import import_module
from chronorag.retrieve.index import top_rows

log = logging.getLogger(__name__)

ANN_THRESHOLD = 250_000
"""Rows from which an approximate index is built: below it exact search is as fast (at
100k rows 9 ms against 19 ms for the graph at its search depth; at 1M 88 ms against 21)."""
EXACT_SCOPE = 20_000
"""A scope of at most this many rows is searched exactly over its rows."""
# HNSW settings chosen by measurement (benchmarks/README.md §15): 8-bit scalars with 32
# links a node reach recall@100 0.98 of exact search at ef 1024 on 40k rows, where 16
# links in float16 reach 0.96, in 60% of the memory and at a third of the search time.
# Recall falls as rows grow: at a million rows a graph built 256 deep reaches 0.958 at ef
# 8192 (0.977 at 16384, 43 ms); built 512 deep (twice the build time) 0.983 at 8192 in
# 21 ms and 0.992 at 16384.
_CONNECTIVITY = 32
_EXPANSION_ADD = 512
_EXPANSION_SEARCH = 8192
_SCALARS = "i8"
# Candidates asked of the graph at most, when a scope hides most of the first ones.
_MOST_CANDIDATES = 16_384

Allocate = Callable[[tuple[int, int], type], np.ndarray]


@dataclass(frozen=True)
class VectorIndex:
    """``matrix`` row ``r`` is the vector of catalog row ``r`` (``seqs[r]``), where
    ``present[r]``; ``ann`` is a usearch index keyed by seq, or None (exact search)."""

    seqs: np.ndarray
    matrix: np.ndarray
    present: np.ndarray
    ann: Any = None

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    @classmethod
    def build(cls, seqs: np.ndarray, fresh: Mapping[int, np.ndarray], *, dim: int,
              previous: VectorIndex | None, allocate: Allocate = np.zeros) -> VectorIndex:
        """Rows ``seqs``: the vectors of ``previous`` for the seqs it has, ``fresh``
        (seq -> vector) for the others; a row with neither is absent."""
        index = cls.carry(seqs, dim=dim, previous=previous, allocate=allocate)
        if fresh:
            new = np.array(sorted(fresh), np.int64)
            index.fill(np.searchsorted(seqs, new), np.stack([fresh[int(s)] for s in new]))
        return index

    @classmethod
    def carry(cls, seqs: np.ndarray, *, dim: int, previous: VectorIndex | None,
              allocate: Allocate = np.zeros) -> VectorIndex:
        """Rows ``seqs`` with the vectors ``previous`` has for them; the others absent
        until :meth:`fill`."""
        matrix = allocate((len(seqs), dim), np.float32)
        present = np.zeros(len(seqs), bool)
        if previous is not None and len(previous.seqs) and previous.dim == dim:
            at = np.searchsorted(previous.seqs, seqs).clip(0, len(previous.seqs) - 1)
            known = (previous.seqs[at] == seqs) & previous.present[at]
            rows = np.flatnonzero(known)
            for lo in range(0, len(rows), 65_536):  # bounded copies out of the mapping
                part = rows[lo:lo + 65_536]
                matrix[part] = previous.matrix[at[part]]
            present[rows] = True
        return cls(seqs, matrix, present)

    def fill(self, rows: np.ndarray, vectors: np.ndarray) -> None:
        """Set the vectors of these rows (while the index is being built)."""
        if len(rows):
            self.matrix[rows] = np.asarray(vectors, dtype=np.float32)
            self.present[rows] = True

    def search(self, vector: np.ndarray, *, limit: int, mask: np.ndarray | None,
               rank: np.ndarray, exact: bool = False) -> list[tuple[int, float]]:
        """The ``limit`` rows among ``mask`` most similar to ``vector`` (cosine), best
        first; ``exact`` skips the approximate index."""
        n = len(self.seqs)
        if n == 0 or limit <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise ValueError(f"query vector has {query.shape[0]} dims, index has {self.dim}")
        allowed = self.present if mask is None else self.present & mask
        wide = mask is None or int(np.count_nonzero(allowed)) > EXACT_SCOPE
        if self.ann is not None and not exact and wide:
            found = self._approximate(query, limit=limit, allowed=allowed, rank=rank)
            if found is not None:
                return found
        rows = np.flatnonzero(allowed) if mask is not None else None
        return self._exact(query, limit=limit, rows=rows, allowed=allowed, rank=rank)

    def _exact(self, query: np.ndarray, *, limit: int, rows: np.ndarray | None,
               allowed: np.ndarray, rank: np.ndarray) -> list[tuple[int, float]]:
        if rows is not None and len(rows) <= EXACT_SCOPE:  # narrow: only its rows are read
            scores = self.matrix[rows] @ query
            best = top_rows(scores, limit, rank[rows])
            return [(int(rows[i]), float(scores[i])) for i in best]
        scores = self.matrix @ query
        hits = np.flatnonzero(allowed)
        best = top_rows(scores[hits], limit, rank[hits])
        return [(int(hits[i]), float(scores[hits[i]])) for i in best]

    def _approximate(self, query: np.ndarray, *, limit: int, allowed: np.ndarray,
                     rank: np.ndarray) -> list[tuple[int, float]] | None:
        n = len(self.seqs)
        inside = int(np.count_nonzero(allowed))
        count = min(n, int(limit * n / max(inside, 1)) + limit)
        while True:
            matches = self.ann.search(query, count)
            rows = np.searchsorted(self.seqs, np.asarray(matches.keys, dtype=np.int64))
            rows = rows[(rows < n)]
            rows = rows[allowed[rows]]
            if len(rows) >= min(limit, inside) or count >= min(n, _MOST_CANDIDATES):
                break
            # The scope hid the nearest rows (a user's records, say): look further.
            count = min(n, _MOST_CANDIDATES, count * 4)
        if len(rows) < min(limit, inside):
            return None  # the scope hides nearly all neighbours: search it exactly
        scores = self.matrix[rows] @ query
        best = top_rows(scores, limit, rank[rows])
        return [(int(rows[i]), float(scores[i])) for i in best]

    def with_ann(self, previous: VectorIndex | None, *, threshold: int = ANN_THRESHOLD,
                 dtype: str = _SCALARS) -> VectorIndex:
        """This index with an HNSW graph when it has at least ``threshold`` rows, updated
        from ``previous``'s graph (rows removed and added) when it has one."""
        if len(self.seqs) < threshold:
            return self
        usearch = _usearch()
        ann = None
        if previous is not None and previous.ann is not None:
            ann = previous.ann.copy() if hasattr(previous.ann, "copy") else None
        if ann is None or ann.ndim != self.dim:
            ann = usearch.Index(ndim=self.dim, metric="ip", dtype=dtype,
                                connectivity=_CONNECTIVITY, expansion_add=_EXPANSION_ADD,
                                expansion_search=_EXPANSION_SEARCH)
            old = np.zeros(0, np.int64)
        else:
            old = np.asarray(previous.seqs[previous.present], np.int64)  # type: ignore[union-attr]
        ann.expansion_search = _EXPANSION_SEARCH
        now = self.seqs[self.present]
        gone = np.setdiff1d(old, now, assume_unique=True)
        if len(gone):
            ann.remove(gone.astype(np.uint64))
        added = np.setdiff1d(now, old, assume_unique=True)
        rows = np.searchsorted(self.seqs, added)
        for lo in range(0, len(rows), 65_536):
            part = rows[lo:lo + 65_536]
            ann.add(self.seqs[part].astype(np.uint64), np.asarray(self.matrix[part]),
                    threads=0)
        log.debug("ann: %d removed, %d added, %d rows", len(gone), len(added), len(ann))
        return VectorIndex(self.seqs, self.matrix, self.present, ann)

    def save_ann(self, path: Path) -> None:
        if self.ann is not None:
            self.ann.save(str(path))

    @staticmethod
    def load_ann(path: Path) -> Any:
        """A saved graph, memory-mapped (None when there is none)."""
        if not path.exists():
            return None
        index = _usearch().Index.restore(str(path), view=True)
        index.expansion_search = _EXPANSION_SEARCH  # not part of the saved file
        return index


def _usearch() -> Any:
    """``usearch.index``, imported after onnxruntime: the other order makes onnxruntime's
    own import crash the process (measured with usearch 2.26.6 and onnxruntime 1.32:
    ``import usearch.index; import onnxruntime`` is a segmentation fault)."""
    import_module("onnxruntime")
    return import_module("usearch.index")
