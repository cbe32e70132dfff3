"""Semantic-layer assets in any store: assets to and from the store's layer records.

Everything goes through the layer part of the store protocol (``LayerStore``), so every
backend that implements it holds a layer; the document tables are never touched.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from chronorag.model import Granularity, Interval
from chronorag.semantic.model import Asset, JoinPath, JoinStep
from chronorag.store.base import LayerRecord, LayerStore

__all__ = ["known_ids", "read_assets", "stored_hashes", "walk_joins", "write_layer"]


def _interval_json(value: Interval | None) -> dict[str, Any] | None:
    return None if value is None else value.to_json()


def _interval(value: Mapping[str, Any] | None) -> Interval | None:
    if value is None:
        return None
    start, end, gran = value.get("start"), value.get("end"), value.get("granularity")
    return Interval(None if start is None else datetime.fromisoformat(start),
                    None if end is None else datetime.fromisoformat(end),
                    None if gran is None else Granularity(gran))


def asset_json(asset: Asset) -> dict[str, Any]:
    """Everything of an asset but ``source``, as JSON values."""
    return {"body": dict(asset.body), "status": asset.status, "owner": asset.owner,
            "valid_from": _interval_json(asset.valid_from),
            "valid_to": _interval_json(asset.valid_to),
            "published_at": _interval_json(asset.published_at),
            "supersedes": list(asset.supersedes), "derived_from": list(asset.derived_from)}


def content_hash(asset: Asset) -> str:
    """Hash of the asset's content; its file position is excluded so moving it is no change."""
    blob = json.dumps(asset_json(asset), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _asset_from_record(record: LayerRecord) -> Asset:
    data = json.loads(record.body)
    return Asset(kind=record.kind, id=record.id, body=data["body"], status=data["status"],
                 valid_from=_interval(data["valid_from"]), valid_to=_interval(data["valid_to"]),
                 published_at=_interval(data["published_at"]),
                 supersedes=tuple(data["supersedes"]), derived_from=tuple(data["derived_from"]),
                 owner=data["owner"], source=record.source)


def _record(asset: Asset, digest: str) -> LayerRecord:
    body = asset.body
    join = ((body["left"], body["right"], body["on"], body["fanout"])
            if asset.kind == "join" else None)
    return LayerRecord(asset.kind, asset.id, asset.status,
                       json.dumps(asset_json(asset), ensure_ascii=False, sort_keys=True),
                       asset.source, digest, join)


def known_ids(store: LayerStore) -> dict[str, frozenset[str]]:
    """Stored ids by kind, columns as ``table.column`` (for cross-file references)."""
    out: dict[str, set[str]] = {}
    for asset in read_assets(store):
        out.setdefault(asset.kind, set()).add(asset.id)
        for column in asset.body.get("columns", []) if asset.kind == "table" else []:
            out.setdefault("column", set()).add(f"{asset.id}.{column['name']}")
    return {k: frozenset(v) for k, v in out.items()}


def stored_hashes(store: LayerStore) -> dict[str, str]:
    """``kind:id`` -> content hash of every stored asset."""
    return {r.key: r.content_hash for r in store.layer_records()}


def write_layer(store: LayerStore, assets: Sequence[Asset], *,
                vectors: Mapping[str, tuple[Sequence[str], np.ndarray]],
                now: datetime) -> tuple[list[str], list[str], list[str]]:
    """Upsert ``assets`` (and their vectors) in one transaction.

    ``vectors`` maps an embedder name to (asset keys, float32 matrix). Returns the keys
    added, replaced and unchanged; an unchanged asset is not touched.
    """
    stored = stored_hashes(store)
    added: list[str] = []
    replaced: list[str] = []
    unchanged: list[str] = []
    records = []
    for asset in assets:
        digest = content_hash(asset)
        if stored.get(asset.key) == digest:
            unchanged.append(asset.key)
            continue
        (replaced if asset.key in stored else added).append(asset.key)
        records.append(_record(asset, digest))
    store.write_layer(records, vectors=vectors, now=now)
    return added, replaced, unchanged


def read_assets(store: LayerStore) -> list[Asset]:
    """Every stored asset, ordered by kind and id."""
    return [_asset_from_record(r) for r in store.layer_records()]


def walk_joins(store: LayerStore, seeds: Sequence[str], *, allowed: Sequence[str],
               joins: Mapping[str, Asset], depth: int = 3) -> list[JoinPath]:
    """Every cycle-free join path from a seed table, up to ``depth`` joins.

    Only joins in ``allowed`` (those applicable at ``as_of``) are walked, in both
    directions; ``joins`` maps a join id to its asset. Paths come unsorted; ranking is
    the caller's choice.
    """
    paths = []
    for tables, join_ids in store.walk_joins(seeds, allowed=allowed, depth=depth):
        steps = tuple(JoinStep(join_id, tables[i], tables[i + 1], joins[join_id].body["on"],
                               joins[join_id].body["fanout"])
                      for i, join_id in enumerate(join_ids))
        paths.append(JoinPath(tables, steps))
    return paths
