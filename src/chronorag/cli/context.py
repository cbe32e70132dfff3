"""``chronorag context``: the context pack of a semantic layer for text-to-SQL."""

from __future__ import annotations

import argparse
import json

from chronorag.cli.options import (
    Subparsers,
    existing_db,
    question,
    question_times,
    store_options,
    zone_of,
)
from chronorag.clock import system_now
from chronorag.errors import ConfigError


def add(sub: Subparsers) -> None:
    p = sub.add_parser("context", help="context pack of a semantic layer for text-to-SQL")
    p.add_argument("question", type=question)
    store_options(p)
    question_times(p)
    p.add_argument("--budget", type=int, default=None, help="token budget (words + CJK chars)")
    p.add_argument("--shares", default=None,
                   help="budget shares, e.g. tables=0.3,columns=0.25,metrics=0.15")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the context pack of a semantic layer for ``args.question``."""
    db = existing_db(args)
    from chronorag.engine import Engine
    from chronorag.semantic import build_context
    from chronorag.semantic.render import render_pack

    if args.budget is not None and args.budget < 0:
        raise ConfigError("--budget must be a number of tokens >= 0")
    with Engine(db, tz=zone_of(args.tz)) as engine:
        store = engine.store
        if store.layer_generation() == 0:
            raise ConfigError(f"the store {db!r} has no semantic layer; ingest one first: "
                              "chronorag ingest layer.yaml")
        pack = build_context(
            store, args.question, now=args.now or system_now(), as_of=args.as_of,
            budget=args.budget, shares=_shares(args.shares), tz=engine.tz,
            embedder=engine.components.embedder(engine.config.embedder))
    print(json.dumps(pack.to_json(), ensure_ascii=False, indent=2) if args.json
          else render_pack(pack))
    return 0


def _shares(text: str | None) -> dict[str, float]:
    """``--shares "tables=0.4,rules=0.05"`` over the defaults; unknown categories are an error."""
    from chronorag.semantic.pack import CATEGORIES, DEFAULT_SHARES

    shares = dict(DEFAULT_SHARES)
    for part in filter(None, (text or "").split(",")):
        name, _, value = part.partition("=")
        if name.strip() not in CATEGORIES:
            raise ConfigError(f"unknown category {name!r} in --shares; use "
                              + ", ".join(CATEGORIES))
        try:
            shares[name.strip()] = float(value)
        except ValueError:
            raise ConfigError(f"--shares {part!r}: the share must be a number") from None
    return shares
