"""Exact term matching (engine R) and synonym expansion for corrective retrieval.

Matching is on NFKC-lowercased text. A Latin surface matches as whole words (``gmv`` in
"华东GMV趋势" and "gmv trend", not in "gmvx"); a CJK surface of two or more characters
matches as a substring, a one-character one only as a jieba word. Longer matches win
overlaps ("gross merchandise value" over "value"). Besides ``terms`` entries, the ids of
tables, metrics and qualified columns (``fact_orders.gmv_amount``) and metric names bind
to themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from chronorag.lang import has_han
from chronorag.retrieve.tokenize import normalize, tokenize
from chronorag.semantic.index import LayerIndex
from chronorag.semantic.model import Asset, Binding, key_of

_RANK = {"certified": 0, "approved": 1, None: 2}
_TARGET_KINDS = ("metric", "column", "table")


@dataclass(frozen=True)
class _Surface:
    text: str
    pattern: re.Pattern[str] | None
    source: str  # the key of the term asset, or of the asset named by its own id
    target: str  # the id the surface maps to
    term: str  # the business term shown in the binding
    value: str | None = None


def _pattern(surface: str) -> re.Pattern[str] | None:
    if has_han(surface):
        return None
    words = r"\s+".join(re.escape(w) for w in surface.split())
    return re.compile(rf"(?<![0-9a-z_]){words}(?![0-9a-z_])")


class TermMatcher:
    """Surfaces of every term, synonym and asset id of a layer, ready to match."""

    def __init__(self, index: LayerIndex) -> None:
        self._index = index
        surfaces: list[_Surface] = []
        for asset in index.assets.values():
            surfaces += _surfaces(asset)
        self._surfaces = tuple(surfaces)

    def bind(self, question: str, *, as_of: datetime) -> list[Binding]:
        """One binding per matched term, left to right; unresolvable terms are dropped."""
        text = normalize(question)
        words = set(tokenize(question))
        found: list[tuple[int, int, _Surface]] = []
        for surface in self._surfaces:
            if not self._index.applicable(surface.source, as_of=as_of):
                continue  # a draft, retired or expired term binds nothing
            found += [(s, e, surface) for s, e in _spans(surface, text, words)]
        # Longest first; at equal spans a glossary term beats an asset naming itself.
        found.sort(key=lambda f: (-(f[1] - f[0]), f[0], not f[2].source.startswith("term:"),
                                  self._rank(f[2]), f[2].source))
        taken: list[tuple[int, int]] = []
        bindings: dict[tuple[str, str], Binding] = {}
        for start, end, surface in found:
            if any(start < e and s < end for s, e in taken):
                continue
            binding = self._binding(surface, text[start:end], start, end, as_of)
            if binding is not None:
                taken.append((start, end))
                bindings.setdefault((binding.term, binding.asset_id), binding)
        return sorted(bindings.values(), key=lambda b: b.start)

    def expansion(self, question: str, *, as_of: datetime) -> list[str]:
        """Surfaces of terms that share a word with the question but did not match whole:
        the synonym expansion corrective retrieval adds to the query."""
        words = {w for w in tokenize(question) if len(w) > 1}
        bound = {b.term for b in self.bind(question, as_of=as_of)}
        groups: dict[str, list[str]] = {}
        for surface in self._surfaces:
            if surface.source.startswith("term:") and surface.term not in bound:
                groups.setdefault(surface.source, []).append(surface.text)
        out: list[str] = []
        for source, texts in groups.items():
            if not self._index.applicable(source, as_of=as_of):
                continue
            if words & {w for t in texts for w in tokenize(t)}:
                out += texts
        return list(dict.fromkeys(out))

    def _rank(self, surface: _Surface) -> int:
        status = self._index.assets[surface.source].status
        return _RANK.get(status, 2)

    def _binding(self, surface: _Surface, matched: str, start: int, end: int,
                 as_of: datetime) -> Binding | None:
        target = next((key_of(k, surface.target) for k in _TARGET_KINDS
                       if key_of(k, surface.target) in self._index.assets), None)
        if target is None:
            return None
        resolved = self._index.resolve(target, as_of=as_of)
        if resolved is None:
            return None
        asset = self._index.assets[resolved]
        return Binding(term=surface.term, asset_id=asset.id, asset_type=asset.kind,
                       matched=matched, start=start, end=end,
                       status=self._index.assets[surface.source].status,
                       requested=None if resolved == target else surface.target,
                       value=surface.value)


def _spans(surface: _Surface, text: str, words: set[str]) -> list[tuple[int, int]]:
    if surface.pattern is not None:
        return [m.span() for m in surface.pattern.finditer(text)]
    if len(surface.text) >= 2 or surface.text in words:
        return [(m.start(), m.end()) for m in re.finditer(re.escape(surface.text), text)]
    return []


def _surfaces(asset: Asset) -> list[_Surface]:
    if asset.kind == "term":
        body = asset.body
        names = [body["term"], *body.get("synonyms", ())]
        return [_Surface(n, _pattern(n), asset.key, body["maps_to"], body["term"],
                         body.get("value"))
                for n in dict.fromkeys(normalize(x).strip() for x in names) if n]
    if asset.kind not in _TARGET_KINDS:
        return []
    names = [asset.id]
    if asset.kind == "metric" and isinstance(asset.body.get("name"), str):
        names.append(asset.body["name"])
    out = []
    for name in dict.fromkeys(normalize(n).strip() for n in names):
        out.append(_Surface(name, _pattern(name), asset.key, asset.id, asset.id))
    return out
