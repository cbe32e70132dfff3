"""The context pack for a text-to-SQL model, trimmed to a token budget.

Token estimator (deterministic, model-free): every CJK ideograph is one token and every
maximal run of other non-space characters is one token ("fact_orders.gmv_amount" is one,
"华东GMV" is three). It undercounts subword tokenizers on long identifiers, so leave a
margin when the model's limit is tight. The estimate is additive over lines, so the text
rendering's estimate equals the sum of what the packer counted.

Under a budget the header (title, grade, binding constraints) is paid first, then each
category gets its share of the rest (``DEFAULT_SHARES``) and is filled in priority order
(bound first, certified next, then score) until the next item does not fit; what the
categories leave unused is offered to them again in the same order. Never above budget.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chronorag.lang import HAN

CATEGORIES: tuple[str, ...] = ("tables", "columns", "metrics", "examples", "join_paths", "rules")
DEFAULT_SHARES: Mapping[str, float] = {
    "tables": 0.30, "columns": 0.25, "metrics": 0.15, "examples": 0.10, "join_paths": 0.10,
    "rules": 0.10,
}
HEADINGS: Mapping[str, str] = {
    "tables": "## Tables", "columns": "## Columns", "metrics": "## Metrics",
    "examples": "## Approved examples", "join_paths": "## Join paths", "rules": "## Rules",
}
BINDINGS_HEADING = "## Bindings (constraints: use exactly these assets for these terms)"
_TOKEN = re.compile(rf"[{HAN}]|[^\s{HAN}]+")


def estimate_tokens(text: str) -> int:
    """Words plus CJK characters: the budget's unit (see the module docstring)."""
    return len(_TOKEN.findall(text))


@dataclass(frozen=True)
class Item:
    """One entry of the pack: its JSON payload and the line the text rendering shows."""

    data: Mapping[str, Any]
    line: str

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.line)


@dataclass(frozen=True)
class Pack:
    """The trimmed pack: header lines, kept items per category and the token accounting."""

    header: tuple[str, ...]
    bindings: tuple[Item, ...]
    items: Mapping[str, tuple[Item, ...]]
    budget: int | None
    dropped: Mapping[str, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """The prompt-ready text, line by line."""
        out = list(self.header)
        if self.bindings:
            out += [BINDINGS_HEADING, *(i.line for i in self.bindings)]
        for category in CATEGORIES:
            if self.items.get(category):
                out += [HEADINGS[category], *(i.line for i in self.items[category])]
        return out

    def text(self) -> str:
        return "\n".join(self.lines())

    def used(self) -> int:
        return sum(estimate_tokens(line) for line in self.lines())

    def tokens_json(self) -> dict[str, Any]:
        by = {c: sum(i.tokens for i in self.items.get(c, ())) for c in CATEGORIES}
        return {"budget": self.budget, "used": self.used(), "by_category": by,
                "dropped": dict(self.dropped), "estimator": "words+cjk"}


def pack(header: Sequence[str], bindings: Sequence[Item],
         items: Mapping[str, Sequence[Item]], *, budget: int | None,
         shares: Mapping[str, float] = DEFAULT_SHARES) -> Pack:
    """Fit ``header``, ``bindings`` and the categories' items (each in priority order)."""
    if budget is None:
        return Pack(tuple(header), tuple(bindings), {c: tuple(items.get(c, ())) for c in
                                                     CATEGORIES}, None)
    left = budget
    kept_header: list[str] = []
    for line in header:
        if estimate_tokens(line) > left:
            break
        kept_header.append(line)
        left -= estimate_tokens(line)
    kept_bindings, left = _fill(bindings, BINDINGS_HEADING, [], left)
    kept: dict[str, list[Item]] = {c: [] for c in CATEGORIES}
    total = sum(shares.get(c, 0.0) for c in CATEGORIES) or 1.0
    spent = 0
    start = left
    for category in CATEGORIES:
        quota = int(start * shares.get(category, 0.0) / total)
        kept[category], rest = _fill(items.get(category, ()), HEADINGS[category], [], quota)
        spent += quota - rest
    left = start - spent
    for category in CATEGORIES:  # second pass: what other categories left unused
        kept[category], left = _fill(items.get(category, ()), HEADINGS[category],
                                     kept[category], left)
    dropped = {c: len(items.get(c, ())) - len(kept[c]) for c in CATEGORIES}
    dropped["bindings"] = len(bindings) - len(kept_bindings)
    return Pack(tuple(kept_header), tuple(kept_bindings), {c: tuple(v) for c, v in kept.items()},
                budget, {k: v for k, v in dropped.items() if v})


def _fill(items: Sequence[Item], heading: str, kept: list[Item],
          left: int) -> tuple[list[Item], int]:
    """Append items after ``kept`` in order while they fit; stop at the first that does
    not (a lower-priority item never displaces a higher one)."""
    out = list(kept)
    for item in items[len(kept):]:
        cost = item.tokens + (0 if out else estimate_tokens(heading))
        if cost > left:
            break
        out.append(item)
        left -= cost
    return out, left
