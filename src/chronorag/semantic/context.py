"""The context pack for text-to-SQL (``chronorag context``) and what ``ask`` adds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any, TypedDict

from chronorag.contract import IsoTime, to_json
from chronorag.retrieve.base import Embedder
from chronorag.semantic.index import LayerIndex
from chronorag.semantic.model import Binding, ExampleMatch, JoinPath, SemanticOptions
from chronorag.semantic.pack import DEFAULT_SHARES, Item, Pack, pack
from chronorag.semantic.pipeline import Retrieval, SemanticSearcher
from chronorag.semantic.rerank import Reranked, Scored, rerank
from chronorag.store.base import LayerStore


@dataclass(frozen=True)
class SemanticContext:
    """What ``ask`` adds under ``"semantic"``: bindings, join paths, approved examples."""

    bindings: tuple[Binding, ...]
    join_paths: tuple[JoinPath, ...]
    examples: tuple[ExampleMatch, ...]

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


class ContextJSON(TypedDict):
    """A context pack's JSON (``context --json``, ``POST /v1/context``): each category's
    items as the layer states them."""

    question: str
    now: IsoTime
    as_of: IsoTime
    bindings: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    columns: list[dict[str, Any]]
    metrics: list[dict[str, Any]]
    join_paths: list[dict[str, Any]]
    examples: list[dict[str, Any]]
    rules: list[dict[str, Any]]
    grade: str
    corrective: dict[str, Any]
    tokens: dict[str, Any]
    timings_ms: dict[str, float]


@dataclass(frozen=True)
class ContextPack:
    """The pack for one question: the trimmed content plus how it was retrieved."""

    question: str
    now: datetime
    as_of: datetime
    retrieval: Retrieval
    pack: Pack

    def to_json(self) -> ContextJSON:
        def of(category: str) -> list[dict[str, Any]]:
            return [dict(i.data) for i in self.pack.items.get(category, ())]

        return {
            "question": self.question, "now": self.now.isoformat(),
            "as_of": self.as_of.isoformat(),
            "bindings": [dict(i.data) for i in self.pack.bindings],
            "tables": of("tables"), "columns": of("columns"), "metrics": of("metrics"),
            "join_paths": of("join_paths"), "examples": of("examples"), "rules": of("rules"),
            "grade": self.retrieval.grade, "corrective": dict(self.retrieval.corrective),
            "tokens": self.pack.tokens_json(),
            "timings_ms": {k: round(v, 3) for k, v in self.retrieval.timings_ms.items()},
        }

    def text(self) -> str:
        """Prompt-ready text; its token estimate is ``to_json()["tokens"]["used"]``."""
        return self.pack.text()


def build_context(store: LayerStore, question: str, *, now: datetime, embedder: Embedder,
                  as_of: datetime | None = None, budget: int | None = None,
                  shares: Mapping[str, float] = DEFAULT_SHARES,
                  options: SemanticOptions | None = None, tz: tzinfo = UTC,
                  parallel: bool = True) -> ContextPack:
    """The context pack for ``question``; a time in the question sets ``as_of`` as in ask."""
    from chronorag.understand import resolve_as_of, understand

    now = now if now.tzinfo is not None else now.replace(tzinfo=tz)
    understanding = understand(question, now=now, tz=tz)
    if as_of is None:
        as_of = resolve_as_of(understanding, now)
    elif as_of.tzinfo is None:
        as_of = as_of.replace(tzinfo=tz)
    searcher = SemanticSearcher(store, embedder, options=options, parallel=parallel)
    found = searcher.retrieve(question, content=understanding.content, as_of=as_of)
    ranked = rerank(searcher.index, bindings=found.bindings, candidates=found.candidates,
                    paths=found.join_paths, as_of=as_of, limit=searcher.options.candidates)
    header = [f"# Context for text-to-SQL: {question}",
              f"as_of {as_of.date().isoformat()}; retrieval grade {found.grade}"
              + ("; widened once" if found.corrective.get("retried") else "")]
    packed = pack(header, _binding_items(found.bindings),
                  _items(searcher.index, ranked, found), budget=budget, shares=shares)
    return ContextPack(question, now, as_of, found, packed)


def _binding_items(bindings: Sequence[Binding]) -> list[Item]:
    ordered = sorted(bindings, key=lambda b: (b.status != "certified", b.start))
    items = []
    for b in ordered:
        value = f" = '{b.value}'" if b.value else ""
        was = f" (replaces {b.requested} at as_of)" if b.requested else ""
        line = (f"- \"{b.matched}\" ({b.term}) -> {b.asset_type} {b.asset_id}{value}{was}"
                f" [{b.status or 'unreviewed'}]")
        items.append(Item(b.to_json(), line))
    return items


def _items(index: LayerIndex, ranked: Reranked, found: Retrieval) -> dict[str, list[Item]]:
    return {
        "tables": [_table(index, s) for s in ranked.tables],
        "columns": [_column(index, s) for s in ranked.columns],
        "metrics": [_metric(index, s) for s in ranked.metrics],
        "join_paths": [_path(p) for p in found.join_paths],
        "examples": [_example(e) for e in found.examples],
        "rules": [_rule(index, s) for s in ranked.rules],
    }


def _base(index: LayerIndex, s: Scored) -> dict[str, Any]:
    asset = index.assets[s.key]
    return {"id": asset.id, "score": round(s.score, 4), "bound": s.bound,
            "status": asset.status, "reasons": list(s.reasons),
            "description": asset.body.get("description")}


def _table(index: LayerIndex, s: Scored) -> Item:
    data = _base(index, s)
    return Item(data, f"- {data['id']}: {data['description'] or ''}".rstrip(": "))


def _column(index: LayerIndex, s: Scored) -> Item:
    asset = index.assets[s.key]
    data = {**_base(index, s), "table": asset.table, "type": asset.body.get("type"),
            "role": asset.body.get("role")}
    desc = f": {data['description']}" if data["description"] else ""
    return Item(data, f"- {asset.id} ({data['role']}, {data['type'] or '?'}){desc}")


def _metric(index: LayerIndex, s: Scored) -> Item:
    asset = index.assets[s.key]
    since = asset.valid_from.start.date().isoformat() if asset.valid_from and \
        asset.valid_from.start else None
    data = {**_base(index, s), "name": asset.body.get("name"), "table": asset.table,
            "expression": asset.body["expression"], "valid_from": since,
            "supersedes": list(asset.supersedes)}
    valid = f" (valid from {since})" if since else ""
    return Item(data, f"- {asset.id} [{data['name'] or asset.id}] = {data['expression']} "
                      f"ON {asset.table}{valid}")


def _path(path: JoinPath) -> Item:
    joins = "; ".join(f"{s.left} JOIN {s.right} ON {s.on}" for s in path.steps)
    return Item(path.to_json(), f"- {' -> '.join(path.tables)} [{path.risk} fanout]: {joins}")


def _example(e: ExampleMatch) -> Item:
    return Item(e.to_json(), f"- Q: {e.question} SQL: {' '.join(e.sql.split())}")


def _rule(index: LayerIndex, s: Scored) -> Item:
    asset = index.assets[s.key]
    applies = list(asset.body.get("applies_to", ()))
    data = {**_base(index, s), "text": asset.body["text"], "applies_to": applies}
    return Item(data, f"- {asset.body['text']}" + (f" (applies to {', '.join(applies)})"
                                                   if applies else ""))
