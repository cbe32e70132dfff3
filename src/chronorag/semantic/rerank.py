"""Rerank with bindings: bound assets first, their tables lifted, unbound tables pushed down.

Scores are additive and deterministic (no model): the search score (dense cosine plus
BM25 scaled to [0, 1]) plus fixed boosts. Columns are pruned to the roles a query needs
(metric, dimension, filter, pk, fk, time) and to those related to the question: bound,
found by search, join keys of the chosen paths, or time columns of tables whose metric
or column is bound (a trend needs a time axis).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from chronorag.semantic.index import LayerIndex
from chronorag.semantic.model import KEEP_ROLES, Binding, Candidate, JoinPath, key_of

BOUND = 2.0
CERTIFIED = 0.5
LIFT = 1.0
ON_PATH = 0.5
PUSH_DOWN = 0.5
_QUALIFIED = re.compile(r"([A-Za-z_][\w]*)\.([A-Za-z_][\w]*)")


@dataclass(frozen=True)
class Scored:
    """An asset chosen for the context pack, with why it ranks where it does."""

    key: str
    score: float
    bound: bool = False
    certified: bool = False
    reasons: tuple[str, ...] = ()

    @property
    def priority(self) -> tuple[int, int, float, str]:
        """Sort key inside a category: bound first, certified next, then score."""
        return (not self.bound, not self.certified, -self.score, self.key)


@dataclass(frozen=True)
class Reranked:
    tables: tuple[Scored, ...]
    columns: tuple[Scored, ...]
    metrics: tuple[Scored, ...]
    rules: tuple[Scored, ...]


def rerank(index: LayerIndex, *, bindings: Sequence[Binding], candidates: Iterable[Candidate],
           paths: Sequence[JoinPath], as_of: datetime, limit: int = 10) -> Reranked:
    """Tables, columns, metrics and rules for the pack, each best first."""
    base = _search_scores(candidates)
    bound = {key_of(b.asset_type, b.asset_id): b for b in bindings}
    certified = {k for k, b in bound.items() if b.status == "certified"}
    scores: dict[str, float] = dict(base)
    reasons: dict[str, list[str]] = {}
    for key in bound:
        scores[key] = scores.get(key, 0.0) + BOUND + (CERTIFIED if key in certified else 0.0)
        reasons.setdefault(key, []).append("bound")
    lifted = {index.assets[k].table for k in bound if k in index.assets} - {None}
    for table in lifted:
        tkey = key_of("table", str(table))
        scores[tkey] = scores.get(tkey, 0.0) + LIFT
        reasons.setdefault(tkey, []).append("lifted")
    paths = _used_paths(paths)
    on_path = {t for p in paths for t in p.tables}
    for table in on_path:
        tkey = key_of("table", table)
        scores[tkey] = scores.get(tkey, 0.0) + ON_PATH
        reasons.setdefault(tkey, []).append("join_path")
    for key in list(scores):
        kind = key.split(":", 1)[0]
        if kind == "table" and bound and key not in bound and index.assets.get(key) and \
                index.assets[key].id not in lifted:
            scores[key] *= PUSH_DOWN  # nothing of this table was named in the question
            reasons.setdefault(key, []).append("pushed_down")

    def pick(kind: str, keys: Iterable[str]) -> tuple[Scored, ...]:
        items = [Scored(k, scores.get(k, 0.0), k in bound, k in certified
                        or index.assets[k].status == "certified", tuple(reasons.get(k, ())))
                 for k in dict.fromkeys(keys)
                 if k in index.assets and index.assets[k].kind == kind
                 and index.applicable(k, as_of=as_of)]
        return tuple(sorted(items, key=lambda s: s.priority))

    tables = pick("table", scores)[:limit]
    chosen = {index.assets[s.key].id for s in tables}
    columns = pick("column", _related_columns(index, scores, bound, chosen, paths, lifted))
    metrics = pick("metric", [k for k in scores if k.startswith("metric:")])[:limit]
    rules = pick("rule", _related_rules(index, scores, chosen, bound, metrics))
    return Reranked(tables, columns, metrics, rules)


def _used_paths(paths: Sequence[JoinPath]) -> list[JoinPath]:
    """The paths the query will need: those joining two found tables, else the best one."""
    connecting = [p for p in paths if p.connects]
    return connecting or list(paths[:1])


def _search_scores(candidates: Iterable[Candidate]) -> dict[str, float]:
    """Dense cosine plus BM25 divided by the best BM25 (so both lie in [0, 1])."""
    candidates = list(candidates)
    top = max((c.score for c in candidates if c.engine == "keyword"), default=1.0) or 1.0
    out: dict[str, float] = {}
    for c in candidates:
        if c.engine in ("dense", "keyword"):
            share = c.score / top if c.engine == "keyword" else c.score
            out[c.key] = out.get(c.key, 0.0) + 0.5 * share
    return out


def _related_columns(index: LayerIndex, scores: Mapping[str, float],
                     bound: Mapping[str, Binding], chosen: set[str],
                     paths: Sequence[JoinPath], lifted: set[str | None]) -> list[str]:
    keys = [k for k in bound if k.startswith("column:")]
    keys += [k for k in scores if k.startswith("column:")
             and index.assets[k].table in chosen and _keep(index, k)]
    for path in paths:
        for step in path.steps:
            keys += [key_of("column", f"{t}.{c}") for t, c in _QUALIFIED.findall(step.on)
                     if key_of("column", f"{t}.{c}") in index.assets]
    for table in lifted:
        keys += [a.key for a in index.assets.values() if a.kind == "column"
                 and a.table == table and a.body.get("role") == "time"]
    return [k for k in keys if k in bound or _keep(index, k)]


def _keep(index: LayerIndex, key: str) -> bool:
    asset = index.assets.get(key)
    return asset is not None and asset.body.get("role") in KEEP_ROLES


def _related_rules(index: LayerIndex, scores: Mapping[str, float], chosen: set[str],
                   bound: Mapping[str, Binding], metrics: Sequence[Scored]) -> list[str]:
    targets = chosen | {index.assets[k].id for k in bound if k in index.assets}
    targets |= {index.assets[s.key].id for s in metrics}
    keys = [a.key for a in index.assets.values() if a.kind == "rule"
            and targets & set(a.body.get("applies_to", ()))]
    keys += [k for k in scores if k.startswith("rule:")]
    return keys
