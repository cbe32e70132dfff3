"""Ingest of semantic-layer files next to documents, validated together before any write."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from os import PathLike
from pathlib import Path

from chronorag.errors import FieldError, ValidationError
from chronorag.ingest import loaders
from chronorag.retrieve.base import Embedder
from chronorag.semantic import store as sstore
from chronorag.semantic.index import SEARCHABLE, expand_columns
from chronorag.semantic.load import LAYER_SUFFIXES, find_layer_files, load_layers
from chronorag.semantic.model import Asset
from chronorag.store.base import LayerStore, WriteReport

_EMBEDDED = SEARCHABLE | {"example"}


def split_paths(paths: Sequence[str | PathLike[str]]
                ) -> tuple[list[str | PathLike[str]], list[Path]]:
    """Document inputs and layer files. Named .yaml/.yml/.json files are layers; folders
    keep feeding the document loader (when they hold documents) and contribute the files
    inside them that are layers by content."""
    docs: list[str | PathLike[str]] = []
    for given in paths:
        path = Path(given)
        if path.is_file() and path.suffix.lower() in LAYER_SUFFIXES:
            continue
        if path.is_dir() and not _has_documents(path) and any(find_layer_files([path])):
            continue
        docs.append(given)
    return docs, list(dict.fromkeys(find_layer_files(paths)))


def _has_documents(folder: Path) -> bool:
    return any(p.suffix.lower() in loaders.SUFFIXES for p in folder.rglob("*") if p.is_file())


@dataclass(frozen=True)
class LayerClaim:
    """The layer files of one ingest, validated: ``assets`` are written by ``write``
    (inside the ingest's transaction); ``documents`` are the paths left to the document
    loader and ``errors`` every problem found in the layer files."""

    store: LayerStore
    documents: tuple[str | PathLike[str], ...]
    files: int
    assets: tuple[Asset, ...] = ()
    errors: tuple[FieldError, ...] = ()

    def write(self, *, embedders: Sequence[Embedder], now: datetime) -> WriteReport:
        added, replaced, unchanged = store_layer(self.store, self.assets, embedders=embedders,
                                                 now=now)
        return WriteReport(tuple(added), tuple(replaced), tuple(unchanged))


def claim_layers(store: LayerStore, paths: Sequence[str | PathLike[str]], *,
                 tz: tzinfo) -> LayerClaim:
    """Split the layer files from ``paths`` and validate them against ``store``'s layer
    (a file may refer to tables or metrics stored by an earlier ingest)."""
    doc_paths, layer_files = split_paths(paths)
    if not layer_files:
        return LayerClaim(store, tuple(paths), 0)
    try:
        assets = load_layers(layer_files, tz=tz, known=sstore.known_ids(store))
    except ValidationError as exc:
        return LayerClaim(store, tuple(doc_paths), len(layer_files), errors=tuple(exc.errors))
    files = len({a.source.rsplit(":", 1)[0] for a in assets})
    return LayerClaim(store, tuple(doc_paths), files, tuple(assets))


def store_layer(store: LayerStore, assets: Sequence[Asset], *, embedders: Sequence[Embedder],
                now: datetime) -> tuple[list[str], list[str], list[str]]:
    """Embed new or changed assets and upsert them in one transaction; keys added,
    replaced and unchanged."""
    if not assets:
        return [], [], []
    stored = sstore.stored_hashes(store)
    changed = [a for a in assets if stored.get(a.key) != sstore.content_hash(a)]
    targets = [a for a in expand_columns(changed) if a.kind in _EMBEDDED]
    vectors = {}
    if targets:
        texts = [a.text() for a in targets]
        vectors = {e.name: ([a.key for a in targets], e.embed(texts, kind="passage"))
                   for e in embedders}
    return sstore.write_layer(store, assets, vectors=vectors, now=now)
