"""``chronorag mcp``: ask, time, context and review as MCP tools over stdio
(chronorag[mcp])."""

from __future__ import annotations

import argparse

from chronorag.cli.options import (
    Subparsers,
    db_of,
    llm_of,
    serve_options,
    store_options,
    store_to_serve,
    zone_of,
)
from chronorag.clock import system_now


def add(sub: Subparsers) -> None:
    p = sub.add_parser("mcp", help="serve ask, time, context and review as MCP tools over "
                       "stdio (chronorag[mcp])")
    store_options(p)
    p.add_argument("--config", default="default", help="search preset (default: default)")
    serve_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.integrations.mcp_server import require_extra
    from chronorag.integrations.mcp_server import run as run_mcp

    require_extra()
    llm = llm_of(args)
    store_to_serve(args)
    run_mcp(db_of(args), tz=zone_of(args.tz), clock=system_now, config=args.config,
            llm=llm)
    return 0
