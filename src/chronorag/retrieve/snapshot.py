"""Search indexes of a store, kept in step with its generation and saved beside it.

One process builds an index part (the rows: catalog and BM25; the vectors of one
embedder) for a generation, from the newest part it can find plus only the chunks added
since (by ``seq``); it saves the part as ``<db>.index/g<generation>-<part>/`` and every
later process memory-maps it instead of reading the store. An ingest refreshes the parts
once it has committed, so the next question starts warm.

A part is labelled with the generation it was read at and checked against the store's
chunk numbers (count, sum, maximum) when loaded. Parts are written to a temporary folder
and renamed into place, so a reader never sees half of one, and two processes building
the same part both end with a complete one.
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from chronorag.model import Chunk
from chronorag.retrieve.catalog import CATALOG_ARRAYS, Catalog
from chronorag.retrieve.columns import load_arrays, save_arrays
from chronorag.retrieve.keyword_index import KEYWORD_ARRAYS, KeywordIndex
from chronorag.retrieve.vectors import ANN_THRESHOLD, VectorIndex
from chronorag.store.base import CorpusStore

log = logging.getLogger(__name__)

_READ_BATCH = 4096
_ATTEMPTS = 3
_CHUNKS_KEPT = 20_000


@dataclass(frozen=True)
class Rows:
    """The rows of one generation: the catalog and its BM25 index."""

    generation: int
    catalog: Catalog
    keyword: KeywordIndex


def index_folder(store: CorpusStore) -> Path | None:
    """Where the indexes of ``store`` are saved: ``<db>.index`` beside a store file;
    None for a store without one (in memory), whose indexes live in the process."""
    path = getattr(store, "path", None)
    if not isinstance(path, str) or not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path + ".index")


class Indexes:
    """The current search indexes of one store, shared by its retrievers (thread-safe)."""

    def __init__(self, store: CorpusStore, *, folder: Path | None = None,
                 ann_threshold: int = ANN_THRESHOLD, persist: bool = True) -> None:
        self.store = store
        self.folder = (folder or index_folder(store)) if persist else None
        self.ann_threshold = ann_threshold
        self._rows: Rows | None = None
        self._vectors: dict[str, tuple[int, VectorIndex]] = {}
        self._chunks: tuple[int, dict[str, Chunk]] = (-1, {})
        self._lock = threading.RLock()

    # -- rows ---------------------------------------------------------------------------

    def rows(self) -> Rows:
        """The rows of the store's current generation."""
        generation = self.store.generation()
        with self._lock:
            if self._rows is None or self._rows.generation != generation:
                self._rows = self._rows_at(generation)
            return self._rows

    def _rows_at(self, generation: int) -> Rows:
        loaded = self._load_rows(generation)
        if loaded is not None:
            return loaded
        for _ in range(_ATTEMPTS):
            previous = self._rows or self._newest_rows(below=generation)
            built = self._build_rows(generation, previous)
            if built is not None:
                arrays, meta = built.catalog.arrays()
                self._save(built.generation, "rows", {**arrays, **built.keyword.arrays()}, meta)
                # Served from the saved files: mapped pages are shared and evictable.
                return self._load_rows_unchecked(built.generation) or built
            generation = self.store.generation()
        # The store changed during every read: use what was read, never save it, and
        # build again on the next call (the search checks privacy in the store anyway).
        fallback = self._build_rows(-1, self._rows, check=False)
        assert fallback is not None
        return fallback

    def _build_rows(self, generation: int, previous: Rows | None, *,
                    check: bool = True) -> Rows | None:
        seqs = self.store.chunk_seqs()
        old = previous.catalog.seqs if previous is not None else np.zeros(0, np.int64)
        keep = np.isin(old, seqs, assume_unique=True) if previous is not None else None
        new = np.setdiff1d(seqs, old, assume_unique=True)
        fresh = [row for lo in range(0, len(new), _READ_BATCH)
                 for row in self.store.chunk_rows(new[lo:lo + _READ_BATCH].tolist())]
        if check and (len(fresh) != len(new) or self.store.generation() != generation):
            return None
        catalog = Catalog.build(fresh, previous.catalog if previous else None, keep)
        keyword = KeywordIndex.build([r.text for r in fresh],
                                     previous.keyword if previous else None, keep)
        log.debug("rows at generation %d: %d kept, %d added", generation,
                  0 if keep is None else int(keep.sum()), len(fresh))
        return Rows(generation, catalog, keyword)

    def _load_rows(self, generation: int) -> Rows | None:
        rows = self._load_rows_unchecked(generation)
        if rows is None:
            return None
        if self._summary(rows.catalog.seqs) != self.store.chunk_summary():
            log.warning("index %s does not match the store; rebuilding it", self.folder)
            return None
        return rows

    def _newest_rows(self, *, below: int) -> Rows | None:
        for generation in self._generations("rows", below=below):
            rows = self._load_rows_unchecked(generation)
            if rows is not None:
                return rows
        return None

    def _load_rows_unchecked(self, generation: int) -> Rows | None:
        found = self._load(generation, "rows", (*CATALOG_ARRAYS, *KEYWORD_ARRAYS))
        if found is None:
            return None
        return Rows(generation, Catalog.from_arrays(*found), KeywordIndex.from_arrays(found[0]))

    # -- vectors ------------------------------------------------------------------------

    def vectors(self, embedder: str, *, dim: int, rows: Rows | None = None) -> VectorIndex:
        """The ``embedder`` vectors aligned with ``rows`` (default: the current rows); a
        row without a vector is absent. Pass the rows a search already holds, so both
        stay of one generation while the store moves on."""
        rows = rows or self.rows()
        with self._lock:
            cached = self._vectors.get(embedder)
            # Rows read while the store kept changing have no generation (-1): two of
            # them need not hold the same chunks, so vectors cached for one never serve
            # another.
            if cached is None or cached[0] != rows.generation or rows.generation < 0:
                self._vectors[embedder] = (rows.generation,
                                           self._vectors_at(rows, embedder, dim=dim))
            return self._vectors[embedder][1]

    def _vectors_at(self, rows: Rows, embedder: str, *, dim: int,
                    fresh_only: bool = False) -> VectorIndex:
        part = f"vectors-{embedder}"
        loaded = None if fresh_only else self._load_vectors(rows.generation, part)
        if loaded is not None and np.array_equal(loaded.seqs, rows.catalog.seqs):
            return loaded
        cached = self._vectors.get(embedder)
        previous = None if fresh_only else (
            cached[1] if cached else self._newest_vectors(part, below=rows.generation))
        index = VectorIndex.carry(rows.catalog.seqs, dim=dim, previous=previous)
        missing = np.flatnonzero(~index.present)
        for lo in range(0, len(missing), _READ_BATCH):
            part_rows = missing[lo:lo + _READ_BATCH]
            ids = [rows.catalog.ids[int(r)] for r in part_rows]
            found = self.store.chunk_vectors(ids, embedder)
            have = [(r, found[i]) for r, i in zip(part_rows, ids, strict=True) if i in found]
            if have and len(have[0][1]) != index.dim:
                # The stored vectors are of another size than expected (or than the old
                # index's): keep none of the old ones, take the store's.
                self._vectors.pop(embedder, None)
                return self._vectors_at(rows, embedder, dim=len(have[0][1]), fresh_only=True)
            if have:
                index.fill(np.array([r for r, _ in have], np.int64),
                           np.stack([v for _, v in have]))
        index = index.with_ann(previous, threshold=self.ann_threshold)
        if rows.generation >= 0 and self.store.generation() == rows.generation:
            self._save_vectors(rows.generation, part, index)
            return self._load_vectors(rows.generation, part) or index
        return index

    def _load_vectors(self, generation: int, part: str) -> VectorIndex | None:
        found = self._load(generation, part, ("seqs", "matrix", "present"))
        if found is None or self.folder is None:
            return None
        arrays, _ = found
        ann = None if len(arrays["seqs"]) < self.ann_threshold else VectorIndex.load_ann(
            self._path(generation, part) / "ann.usearch")
        return VectorIndex(arrays["seqs"], arrays["matrix"], arrays["present"], ann)

    def _newest_vectors(self, part: str, *, below: int) -> VectorIndex | None:
        for generation in self._generations(part, below=below):
            index = self._load_vectors(generation, part)
            if index is not None:
                return index
        return None

    def _save_vectors(self, generation: int, part: str, index: VectorIndex) -> None:
        def write(folder: Path) -> None:
            save_arrays(folder, {"seqs": index.seqs, "matrix": index.matrix,
                                 "present": index.present}, {})
            index.save_ann(folder / "ann.usearch")
        self._publish(generation, part, write)

    # -- chunks -------------------------------------------------------------------------

    def chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """Stored chunks by id, cached for the current generation."""
        generation = self.store.generation()
        with self._lock:
            if self._chunks[0] != generation or len(self._chunks[1]) > _CHUNKS_KEPT:
                self._chunks = (generation, {})
            cache = self._chunks[1]
        missing = [i for i in ids if i not in cache]
        if missing:
            found = {c.id: c for c in self.store.chunks(missing)}
            if self.store.generation() == generation:
                with self._lock:
                    cache.update(found)
            return {**{i: cache[i] for i in ids if i in cache}, **found}
        return {i: cache[i] for i in ids}

    def refresh(self, embedders: Sequence[tuple[str, int]] = ()) -> None:
        """Bring the rows and these ``(embedder, dim)`` vectors up to date (and saved)."""
        self.rows()
        for name, dim in embedders:
            self.vectors(name, dim=dim)

    # -- files --------------------------------------------------------------------------

    @staticmethod
    def _summary(seqs: np.ndarray) -> tuple[int, int, int]:
        return (len(seqs), int(seqs.sum()), int(seqs.max(initial=0)))

    def _path(self, generation: int, part: str) -> Path:
        assert self.folder is not None
        return self.folder / f"g{generation:012d}-{part}"

    def _generations(self, part: str, *, below: int) -> list[int]:
        """Generations below ``below`` with a saved ``part``, newest first."""
        if self.folder is None or not self.folder.is_dir():
            return []
        found = []
        for entry in os.listdir(self.folder):
            head, _, name = entry.partition("-")
            if name == part and head.startswith("g") and head[1:].isdigit():
                found.append(int(head[1:]))
        return sorted((g for g in found if g < below), reverse=True)

    def _load(self, generation: int, part: str, names: Sequence[str]
              ) -> tuple[dict[str, np.ndarray], dict[str, object]] | None:
        if self.folder is None:
            return None
        path = self._path(generation, part)
        try:
            return load_arrays(path, names) if path.is_dir() else None
        except (OSError, ValueError, KeyError) as exc:  # removed or damaged: rebuild
            log.warning("cannot read index %s (%s); rebuilding it", path, exc)
            return None

    def _save(self, generation: int, part: str, arrays: dict[str, np.ndarray],
              meta: dict[str, object]) -> None:
        self._publish(generation, part, lambda folder: save_arrays(folder, arrays, meta))

    def _publish(self, generation: int, part: str, write: object) -> None:
        """Write a part into a temporary folder, rename it into place, drop old ones."""
        if self.folder is None or generation < 0:
            return
        tmp = self.folder / f"tmp-{os.getpid()}-{uuid.uuid4().hex}"
        try:
            write(tmp)  # type: ignore[operator]
            os.rename(tmp, self._path(generation, part))
        except OSError as exc:  # another process published it first, or a read-only disk
            log.debug("index %s not saved (%s)", self._path(generation, part), exc)
            shutil.rmtree(tmp, ignore_errors=True)
            return
        for old in self._generations(part, below=generation)[1:]:
            shutil.rmtree(self._path(old, part), ignore_errors=True)
        self._sweep()

    def _sweep(self) -> None:
        """Remove what writers that were killed mid-write left behind."""
        assert self.folder is not None
        for entry in os.listdir(self.folder):
            parts = entry.split("-")
            if parts[0] == "tmp" and len(parts) == 3 and parts[1].isdigit() \
                    and not _alive(int(parts[1])):
                shutil.rmtree(self.folder / entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
