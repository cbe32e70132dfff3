"""Ingest of semantic-layer files next to documents, validated together before any write."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TypeVar

from chronorag.errors import FieldError, StoreError, ValidationError
from chronorag.ingest import loaders
from chronorag.retrieve.base import Embedder
from chronorag.semantic import store as sstore
from chronorag.semantic.index import SEARCHABLE, expand_columns
from chronorag.semantic.load import LAYER_SUFFIXES, find_layer_files, load_layers
from chronorag.semantic.model import Asset

T = TypeVar("T")

_EMBEDDED = SEARCHABLE | {"example"}


def split_paths(paths: Sequence[str | Path]) -> tuple[list[str | Path], list[Path]]:
    """Document inputs and layer files. Named .yaml/.yml/.json files are layers; folders
    keep feeding the document loader (when they hold documents) and contribute the files
    inside them that are layers by content."""
    docs: list[str | Path] = []
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


def validate_all(store: object, paths: Sequence[str | Path], *, tz: tzinfo,
                 load_documents: Callable[[Sequence[str | Path]], list[T]],
                 ) -> tuple[list[T], list[Asset]]:
    """Documents and layer assets of ``paths``; one ``ValidationError`` with every problem
    of both, before anything is written."""
    doc_paths, layer_files = split_paths(paths)
    if not layer_files:
        return load_documents(paths), []
    errors: list[FieldError] = []
    files: list[T] = []
    assets: list[Asset] = []
    if doc_paths:
        try:
            files = load_documents(doc_paths)
        except ValidationError as exc:
            errors += exc.errors
    if not isinstance(store, sstore.SQLiteStore):
        raise StoreError("semantic layers need the SQLite store; open the engine on a .db file")
    try:
        assets = load_layers(layer_files, tz=tz, known=sstore.known_ids(store))
    except ValidationError as exc:
        errors += exc.errors
    if errors:
        raise ValidationError(errors)
    return files, assets


def store_layer(store: object, assets: Sequence[Asset], *, embedders: Sequence[Embedder],
                now: datetime) -> tuple[list[str], list[str], list[str]]:
    """Embed new or changed assets and upsert them in one transaction; keys added,
    replaced and unchanged."""
    if not assets:
        return [], [], []
    if not isinstance(store, sstore.SQLiteStore):
        raise StoreError("semantic layers need the SQLite store; open the engine on a .db file")
    stored = sstore.stored_hashes(store)
    changed = [a for a in assets if stored.get(a.key) != sstore.content_hash(a)]
    targets = [a for a in expand_columns(changed) if a.kind in _EMBEDDED]
    vectors = {}
    if targets:
        texts = [a.text() for a in targets]
        vectors = {e.name: ([a.key for a in targets], e.embed(texts, kind="passage"))
                   for e in embedders}
    return sstore.write_layer(store, assets, vectors=vectors, now=now)
