"""``chronorag serve``: the HTTP API and the web page (chronorag[serve])."""

from __future__ import annotations

import argparse

from chronorag.cli.options import (
    Subparsers,
    db_of,
    llm_of,
    positive,
    serve_options,
    store_options,
    store_to_serve,
    zone_of,
)
from chronorag.clock import system_now


def add(sub: Subparsers) -> None:
    p = sub.add_parser("serve", help="serve the HTTP API and the web page (chronorag[serve])")
    store_options(p)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=positive, default=8000)
    p.add_argument("--max-body-mb", type=positive, default=32,
                   help="largest request body, in MiB (default 32)")
    p.add_argument("--timeout", type=positive, default=60,
                   help="seconds a question may take before the answer is a 503 (60)")
    serve_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.serve import Limits, require_extra
    from chronorag.serve import run as serve

    require_extra()
    llm = llm_of(args)
    store_to_serve(args)
    serve(db_of(args), host=args.host, port=args.port, tz=zone_of(args.tz),
          clock=system_now, limits=Limits(body_bytes=args.max_body_mb * 1024 * 1024,
                                          read_s=float(args.timeout)), llm=llm)
    return 0
