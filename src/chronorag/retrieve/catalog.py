"""The rows every search index shares: one per stored chunk, in ``seq`` order.

A catalog holds, as arrays, what retrieval needs of a chunk without reading the store:
its id, its document, its place in (document, index) order (the order ties are broken
in), and the two document fields a :class:`~chronorag.retrieve.scope.Scope` judges,
``subject`` and ``occurred_at``. A scope becomes a boolean mask over the rows in a few
vectorised comparisons, cached per scope.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from chronorag.model import Interval
from chronorag.retrieve.columns import Strings
from chronorag.retrieve.scope import Scope
from chronorag.store.base import ChunkRow

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)
_OPEN_START = np.iinfo(np.int64).min
_OPEN_END = np.iinfo(np.int64).max
_MASKS_KEPT = 64


def micros(moment: datetime | None, *, open_value: int) -> int:
    """``moment`` as microseconds since 1970 (UTC); ``open_value`` for an open side."""
    return open_value if moment is None else (moment - _EPOCH) // _US


@dataclass(frozen=True)
class Catalog:
    """Rows of chunks, ascending ``seqs``; every array has one entry a row.

    ``subject`` codes index ``subjects`` (-1: none); ``occurred`` is ``(start, end)`` in
    microseconds with open sides at the int64 extremes, valid where ``has_occurred``.
    """

    seqs: np.ndarray
    ids: Strings
    doc_ids: Strings
    index: np.ndarray
    rank: np.ndarray
    subject: np.ndarray
    subjects: tuple[str, ...]
    has_occurred: np.ndarray
    occurred: np.ndarray
    _masks: dict[Scope, np.ndarray | None] = field(default_factory=dict, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, compare=False)

    def __len__(self) -> int:
        return int(self.seqs.shape[0])

    @classmethod
    def empty(cls) -> Catalog:
        nothing = Strings.from_list([])
        return cls(seqs=np.zeros(0, np.int64), ids=nothing, doc_ids=nothing,
                   index=np.zeros(0, np.int64), rank=np.zeros(0, np.int64),
                   subject=np.zeros(0, np.int32), subjects=(),
                   has_occurred=np.zeros(0, bool), occurred=np.zeros((0, 2), np.int64))

    @classmethod
    def build(cls, new: Sequence[ChunkRow], previous: Catalog | None,
              keep: np.ndarray | None) -> Catalog:
        """The rows of ``previous`` where ``keep``, followed by ``new`` (higher seqs)."""
        old = previous if previous is not None else Catalog.empty()
        keep = np.ones(len(old.seqs), bool) if keep is None else keep
        subjects = sorted(set(_kept_subjects(old, keep)) | {r.subject for r in new
                                                            if r.subject is not None})
        code = {s: i for i, s in enumerate(subjects)}
        old_codes = np.array([code.get(s, -1) for s in old.subjects] + [-1], np.int32)
        occurred = np.array([_occurred(r.occurred_at) for r in new], np.int64).reshape(-1, 2)
        ids = old.ids.tolist()
        doc_ids = old.doc_ids.tolist()
        kept = np.flatnonzero(keep).tolist()
        ids = [ids[i] for i in kept] + [r.id for r in new]
        doc_ids = [doc_ids[i] for i in kept] + [r.doc_id for r in new]
        index = np.concatenate([old.index[keep], np.array([r.index for r in new], np.int64)])
        return cls(
            seqs=np.concatenate([old.seqs[keep], np.array([r.seq for r in new], np.int64)]),
            ids=Strings.from_list(ids), doc_ids=Strings.from_list(doc_ids), index=index,
            rank=_rank(doc_ids, index),
            subject=np.concatenate([old_codes[old.subject[keep]], np.array(
                [code.get(r.subject, -1) if r.subject else -1 for r in new], np.int32)]),
            subjects=tuple(subjects),
            has_occurred=np.concatenate([old.has_occurred[keep], np.array(
                [r.occurred_at is not None for r in new], bool)]),
            occurred=np.concatenate([old.occurred[keep], occurred]))

    def mask(self, scope: Scope | None) -> np.ndarray | None:
        """The rows inside ``scope`` (``None``: every row), cached per scope."""
        if scope is None or not scope.restricts:
            return None
        with self._lock:
            if scope not in self._masks:
                if len(self._masks) >= _MASKS_KEPT:
                    self._masks.clear()
                self._masks[scope] = self._compute_mask(scope)
            return self._masks[scope]

    def _compute_mask(self, scope: Scope) -> np.ndarray | None:
        inside = np.ones(len(self), bool)
        if scope.readable is not None and self.subjects:
            inside &= (self.subject < 0) | np.isin(self.subject, self._codes(scope.readable))
        if scope.about is not None:
            about = np.isin(self.subject, self._codes(scope.about))
            inside &= (about | (self.subject < 0)) if scope.public else about
        if scope.window is not None:
            start = micros(scope.window.start, open_value=_OPEN_START)
            end = micros(scope.window.end, open_value=_OPEN_END)
            overlaps = (self.occurred[:, 1] > start) & (self.occurred[:, 0] < end)
            inside &= ~self.has_occurred | overlaps
        return inside

    def _codes(self, names: frozenset[str]) -> np.ndarray:
        return np.array([i for i, s in enumerate(self.subjects) if s in names], np.int32)

    def rows_of(self, seqs: np.ndarray) -> np.ndarray:
        """Row numbers of these seqs (each must be in the catalog)."""
        return np.searchsorted(self.seqs, seqs)

    # -- persistence --------------------------------------------------------------------

    def arrays(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        arrays = {"seqs": self.seqs, "rank": self.rank, "subject": self.subject,
                  "has_occurred": self.has_occurred, "occurred": self.occurred,
                  "index": self.index, **self.ids.arrays("ids"),
                  **self.doc_ids.arrays("doc_ids")}
        return arrays, {"subjects": list(self.subjects)}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> Catalog:
        return cls(seqs=arrays["seqs"], ids=Strings.from_arrays(arrays, "ids"),
                   doc_ids=Strings.from_arrays(arrays, "doc_ids"), index=arrays["index"],
                   rank=arrays["rank"],
                   subject=arrays["subject"], subjects=tuple(meta["subjects"]),
                   has_occurred=arrays["has_occurred"], occurred=arrays["occurred"])


CATALOG_ARRAYS = ("seqs", "rank", "subject", "has_occurred", "occurred", "index",
                  "ids.blob", "ids.ptr", "doc_ids.blob", "doc_ids.ptr")


def _occurred(interval: Interval | None) -> tuple[int, int]:
    if interval is None:
        return (_OPEN_START, _OPEN_END)
    return (micros(interval.start, open_value=_OPEN_START),
            micros(interval.end, open_value=_OPEN_END))


def _kept_subjects(old: Catalog, keep: np.ndarray) -> list[str]:
    codes = np.unique(old.subject[keep])
    return [old.subjects[c] for c in codes.tolist() if c >= 0]


def _rank(doc_ids: list[str], index: np.ndarray) -> np.ndarray:
    """Each row's place in (document id, chunk index) order: the order the store lists
    chunks in, which breaks ties between equal scores."""
    names = sorted(set(doc_ids))
    code = {d: i for i, d in enumerate(names)}
    doc_codes = np.fromiter((code[d] for d in doc_ids), dtype=np.int64, count=len(doc_ids))
    order = np.lexsort((index, doc_codes))
    rank = np.empty(len(doc_ids), np.int64)
    rank[order] = np.arange(len(doc_ids), dtype=np.int64)
    return rank
