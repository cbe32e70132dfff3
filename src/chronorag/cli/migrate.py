"""``chronorag migrate``: copy one store into another and verify the copy."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import closing

from chronorag import render
from chronorag.cli.options import Subparsers
from chronorag.clock import system_now


def add(sub: Subparsers) -> None:
    p = sub.add_parser("migrate", help="copy everything of one store into another (SQLite "
                       "file or postgresql:// URI) and verify the copy")
    p.add_argument("--from", dest="source", required=True, help="the store to copy")
    p.add_argument("--to", dest="target", required=True,
                   help="an empty store, or one an interrupted migrate of the same source left")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.retrieve.in_store import complete_search
    from chronorag.store.migrate import migrate
    from chronorag.store.opening_uri import open_store
    from chronorag.store.search import InStoreSearch

    with closing(open_store(args.source)) as source, closing(open_store(args.target)) as target:
        report = migrate(source, target, now=system_now())
        if report.verified and isinstance(target, InStoreSearch):
            complete_search(target)  # the copy answers its first question searching itself
    print(json.dumps(report.to_json(), indent=2) if args.json
          else render.migration_report(report))
    if not report.verified:
        print("error: the copy differs from the source: " + "; ".join(report.differences())
              + ". Run migrate again; if it still differs, please report it", file=sys.stderr)
        return 1
    return 0
