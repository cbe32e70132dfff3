"""In-memory snapshot of a store's semantic layer, rebuilt when the layer changes.

Holds the assets (columns derived from their tables), a ``ValidityIndex`` over them (the
document rules of ``rank/validity.py`` applied to asset time and status fields), the term
dictionary, a BM25 index over descriptions and the stored vectors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import numpy as np

from chronorag.deps import import_module
from chronorag.flags import Flag
from chronorag.model import Document, Status
from chronorag.rank.validity import ValidityIndex
from chronorag.retrieve.tokenize import tokenize
from chronorag.semantic import store as sstore
from chronorag.semantic.model import Asset, key_of
from chronorag.store.base import LayerStore

SEARCHABLE: frozenset[str] = frozenset({"table", "column", "metric", "rule"})
"""Kinds the dense and keyword engines search over."""

_STATUS = {"certified": Status.APPROVED, "approved": Status.APPROVED,
           "draft": Status.DRAFT, "retired": Status.RETIRED}


def expand_columns(assets: Iterable[Asset]) -> list[Asset]:
    """The assets plus one ``column`` asset per table column (sharing the table's fields)."""
    out: list[Asset] = []
    for asset in assets:
        out.append(asset)
        if asset.kind != "table":
            continue
        for column in asset.body.get("columns", []):
            body = {**column, "table": asset.id}
            out.append(replace(asset, kind="column", id=f"{asset.id}.{column['name']}",
                               body=body, supersedes=(), derived_from=()))
    return out


def _document(asset: Asset) -> Document:
    """The fields of an asset that validity reads, as a Document keyed ``kind:id``."""
    if asset.kind == "column" and asset.table is not None:
        # A column lives and dies with its table: judge it as the table is judged.
        parent = key_of("table", asset.table)
        return Document(id=asset.key, text="", derived_from=(parent,))
    return Document(
        id=asset.key, text="", status=_STATUS.get(asset.status or ""),
        valid_from=asset.valid_from, valid_to=asset.valid_to, published_at=asset.published_at,
        supersedes=tuple(key_of(asset.kind, s) for s in asset.supersedes),
    )


@dataclass(frozen=True)
class LayerIndex:
    """Everything the engines read, built once per layer generation."""

    assets: Mapping[str, Asset]
    validity: ValidityIndex
    lineages: Mapping[str, tuple[str, ...]]
    search_keys: tuple[str, ...]
    bm25: Any
    vector_keys: tuple[str, ...]
    vectors: np.ndarray

    @classmethod
    def build(cls, assets: Sequence[Asset], *, keys: Sequence[str] = (),
              vectors: np.ndarray | None = None) -> LayerIndex:
        """Index ``assets``; ``keys``/``vectors`` are the stored vectors (rows aligned)."""
        bm25s = import_module("bm25s")

        expanded = {a.key: a for a in expand_columns(assets)}
        validity = ValidityIndex.build(_document(a) for a in expanded.values())
        lineages: dict[str, list[str]] = {}
        for key in expanded:
            lineages.setdefault(validity.lineage(key), []).append(key)
        search_keys = tuple(k for k, a in expanded.items() if a.kind in SEARCHABLE)
        model = bm25s.BM25(method="lucene")
        if search_keys:
            model.index([tokenize(expanded[k].text()) or ["_"] for k in search_keys],
                        show_progress=False)
        matrix = np.zeros((0, 1), np.float32) if vectors is None or not len(keys) else vectors
        return cls(expanded, validity, {k: tuple(v) for k, v in lineages.items()},
                   search_keys, model, tuple(keys), matrix)

    def applicable(self, key: str, *, as_of: datetime) -> bool:
        """May this asset be used for a question about ``as_of``?"""
        return key in self.validity and self.validity.judge(key, as_of=as_of).applicable

    def resolve(self, key: str, *, as_of: datetime) -> str | None:
        """The version of ``key`` applicable at ``as_of``: itself, else the applicable
        member of its supersedes lineage that started last; None when there is none."""
        if key not in self.validity:
            return None
        verdict = self.validity.judge(key, as_of=as_of)
        if verdict.applicable:
            return key
        if {Flag.DRAFT, Flag.RETIRED} & set(verdict.flags):
            return None
        members = [k for k in self.lineages.get(self.validity.lineage(key), ())
                   if k != key and self.validity.judge(k, as_of=as_of).applicable]
        if not members:
            return None
        return max(members, key=lambda k: (_start(self.assets[k]), k))

    def vectors_for(self, kinds: frozenset[str]) -> tuple[list[str], np.ndarray]:
        """Stored vectors of assets of ``kinds`` (rows aligned with the keys)."""
        rows = [i for i, k in enumerate(self.vector_keys)
                if k in self.assets and self.assets[k].kind in kinds]
        if not rows:
            return [], np.zeros((0, 1), np.float32)
        return [self.vector_keys[i] for i in rows], self.vectors[rows]


def _start(asset: Asset) -> datetime:
    start = asset.valid_from.start if asset.valid_from else None
    return start or datetime.min.replace(tzinfo=UTC)


def load_index(store: LayerStore, *, embedder: str) -> LayerIndex:
    """The layer stored in ``store`` indexed, with the vectors of ``embedder``."""
    keys, matrix = store.layer_vectors(embedder)
    return LayerIndex.build(sstore.read_assets(store), keys=keys, vectors=matrix)
