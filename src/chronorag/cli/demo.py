"""``chronorag demo``: the bundled demo corpus, ingested and asked questions."""

from __future__ import annotations

import argparse
import sys

from chronorag.cli.options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser("demo", help="ingest the bundled demo corpus and ask it questions")
    p.add_argument("--db", default=None, help="keep the demo store here (default: temporary)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.demo import run_demo

    return run_demo(db=args.db, out=sys.stdout)
