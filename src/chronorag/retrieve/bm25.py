"""The numeric core of BM25 (Lucene variant), built from term counts so it can be updated.

``bm25s`` scores the same way but can only index a whole corpus at once from its tokens.
Here a corpus is kept as :class:`Postings` (each row's term ids and counts), so adding or
removing rows re-derives the score matrix in a few vectorised passes without tokenising
any text again. Scores are computed exactly as ``bm25s`` computes them (float32 idf times
a float64 term-frequency part, stored as float32, summed in query-term order), which the
parity tests check against ``bm25s`` itself.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from chronorag.retrieve.columns import Strings


@dataclass(frozen=True)
class Postings:
    """Row-major term counts: row ``r`` holds ``terms[ptr[r]:ptr[r+1]]`` (distinct term
    ids) with ``counts`` of each, and ``lengths[r]`` tokens in all (repeats included)."""

    ptr: np.ndarray
    terms: np.ndarray
    counts: np.ndarray
    lengths: np.ndarray

    @property
    def rows(self) -> int:
        return int(self.lengths.shape[0])

    @classmethod
    def empty(cls) -> Postings:
        return cls(np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.float32),
                   np.zeros(0, np.int32))

    @classmethod
    def from_token_ids(cls, rows: Sequence[Sequence[int]]) -> Postings:
        """Postings of rows given as token id lists (a token may repeat)."""
        lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
        flat = np.fromiter((t for r in rows for t in r), dtype=np.int64,
                           count=int(lengths.sum()))
        row_of = np.repeat(np.arange(len(rows), dtype=np.int64), lengths)
        width = int(flat.max(initial=0)) + 1
        keys, counts = np.unique(row_of * width + flat, return_counts=True)
        per_row = np.bincount(keys // width, minlength=len(rows))
        ptr = np.zeros(len(rows) + 1, np.int64)
        np.cumsum(per_row, out=ptr[1:])
        return cls(ptr, (keys % width).astype(np.int32), counts.astype(np.float32),
                   lengths.astype(np.int32))

    def select(self, keep: np.ndarray) -> Postings:
        """The rows where the boolean ``keep`` is true, in order."""
        per_row = np.diff(self.ptr)
        entries = np.repeat(keep, per_row)
        ptr = np.zeros(int(keep.sum()) + 1, np.int64)
        np.cumsum(per_row[keep], out=ptr[1:])
        return Postings(ptr, self.terms[entries], self.counts[entries], self.lengths[keep])

    def renumbered(self, mapping: np.ndarray) -> Postings:
        """The same rows with every term id ``t`` replaced by ``mapping[t]``."""
        return Postings(self.ptr, mapping[self.terms].astype(np.int32), self.counts,
                        self.lengths)

    def concat(self, other: Postings) -> Postings:
        """These rows followed by ``other``'s."""
        return Postings.concat_all([self, other])

    @staticmethod
    def concat_all(parts: Sequence[Postings]) -> Postings:
        """The rows of every part, in order."""
        offsets = np.cumsum([0] + [int(p.ptr[-1]) for p in parts])
        ptr = np.concatenate([np.zeros(1, np.int64)] + [
            p.ptr[1:] + offset for p, offset in zip(parts, offsets, strict=False)])
        return Postings(ptr, np.concatenate([p.terms for p in parts]).astype(np.int32),
                        np.concatenate([p.counts for p in parts]).astype(np.float32),
                        np.concatenate([p.lengths for p in parts]).astype(np.int32))


@dataclass(frozen=True)
class ScoreMatrix:
    """Column-major BM25 scores: term ``t`` scores ``rows[ptr[t]:ptr[t+1]]`` (ascending)
    by ``scores[ptr[t]:ptr[t+1]]``."""

    ptr: np.ndarray
    rows: np.ndarray
    scores: np.ndarray

    @property
    def terms(self) -> int:
        return int(self.ptr.shape[0]) - 1

    def score(self, term_ids: Sequence[int], *, n_rows: int) -> np.ndarray:
        """float32 BM25 score of every row for a query of these term ids (a repeated id
        counts again, as in ``bm25s``)."""
        out = np.zeros(n_rows, dtype=np.float32)
        for term in term_ids:
            if 0 <= term < self.terms:
                lo, hi = int(self.ptr[term]), int(self.ptr[term + 1])
                # Rows are distinct within one term, so fancy-index addition is exact.
                out[self.rows[lo:hi]] += self.scores[lo:hi]
        return out


def score_matrix(postings: Postings, *, vocabulary: int, k1: float = 1.5,
                 b: float = 0.75) -> ScoreMatrix:
    """The Lucene BM25 score matrix of ``postings`` over ``vocabulary`` term ids."""
    n = postings.rows
    df = np.bincount(postings.terms, minlength=vocabulary).astype(np.int64)
    ptr = np.zeros(vocabulary + 1, np.int64)
    np.cumsum(df, out=ptr[1:])
    if n == 0 or postings.terms.size == 0:
        return ScoreMatrix(ptr, np.zeros(0, np.int32), np.zeros(0, np.float32))
    # bm25s: idf in float32 from a float64 log; the tf part in float64 against the mean
    # row length; their product stored as float32. Computed a block of entries at a time,
    # so a million chunks' 60M entries need no float64 temporaries of their full size.
    idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5)).astype(np.float32)
    average = postings.lengths.astype(np.int64).mean()
    row_of = np.repeat(np.arange(n, dtype=np.int32), np.diff(postings.ptr))
    scores = np.empty(postings.terms.shape[0], np.float32)
    for lo in range(0, scores.shape[0], _BLOCK):
        hi = lo + _BLOCK
        length = postings.lengths[row_of[lo:hi]].astype(np.float64)
        tf = postings.counts[lo:hi]
        tfc = tf / (k1 * ((1 - b) + b * length / average) + tf)
        scores[lo:hi] = idf[postings.terms[lo:hi]] * tfc
    order = np.argsort(postings.terms, kind="stable")  # rows stay ascending per term
    return ScoreMatrix(ptr, row_of[order], scores[order])


_BLOCK = 1 << 22


class TermTable(Strings):
    """A sorted vocabulary: term ``i`` is the ``i``-th in code-point order, so a
    memory-mapped table answers a lookup by bisection, decoding ~20 terms."""

    @classmethod
    def empty(cls) -> TermTable:
        return cls(np.zeros(0, np.uint8), np.zeros(1, np.int64))

    def lookup(self, term: str) -> int | None:
        """The id of ``term``, or None when it is not in the table."""
        i = bisect.bisect_left(_Lazy(self), term)
        return i if i < len(self) and self[i] == term else None

    def merged(self, new: Iterable[str]) -> tuple[TermTable, np.ndarray, dict[str, int]]:
        """This table with ``new`` terms added: the table, the new id of each old id, and
        every term's new id."""
        old = self.tolist()
        union = sorted(set(old).union(new))
        ids = {t: i for i, t in enumerate(union)}
        mapping = np.fromiter((ids[t] for t in old), dtype=np.int64, count=len(old))
        table = TermTable.from_list(union)
        return TermTable(table.blob, table.ptr), mapping, ids


class _Lazy(Sequence[str]):
    """The terms of a table as a sequence that decodes only what a bisection reads."""

    def __init__(self, table: TermTable) -> None:
        self._table = table

    def __len__(self) -> int:
        return len(self._table)

    def __getitem__(self, i):
        return self._table[i]
