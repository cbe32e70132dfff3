"""``chronorag context``: the CLI's only entry into the semantic package (kept thin)."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, tzinfo
from typing import TextIO

from chronorag.errors import ConfigError
from chronorag.semantic.pack import CATEGORIES, DEFAULT_SHARES


def parse_shares(text: str | None) -> dict[str, float]:
    """``"tables=0.4,rules=0.05"`` over the defaults; unknown categories are an error."""
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


def run_context(args: argparse.Namespace, *, db: str, tz: tzinfo = UTC, out: TextIO) -> int:
    """Print the context pack for ``args.question`` (JSON with ``--json``); naive times
    are read in ``tz``."""
    from chronorag.clock import system_now
    from chronorag.engine import Engine
    from chronorag.semantic.context import build_context
    from chronorag.semantic.render import render_pack
    from chronorag.semantic.store import has_layer
    from chronorag.store.sqlite import SQLiteStore

    if args.budget is not None and args.budget < 0:
        raise ConfigError("--budget must be a number of tokens >= 0")
    with Engine(db, tz=tz) as engine:
        store = engine.store
        if not isinstance(store, SQLiteStore) or not has_layer(store):
            raise ConfigError(f"the store {db!r} has no semantic layer; ingest one first: "
                              "chronorag ingest layer.yaml")
        pack = build_context(
            store, args.question, now=args.now or system_now(), as_of=args.as_of,
            budget=args.budget, shares=parse_shares(args.shares), tz=engine.tz,
            embedder=engine.components.embedder(engine.config.embedder))
    if args.json:
        out.write(json.dumps(pack.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(render_pack(pack) + "\n")
    return 0
