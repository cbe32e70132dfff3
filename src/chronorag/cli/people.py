"""``chronorag people load``: people, aliases and who may see whose records."""

from __future__ import annotations

import argparse
import json

from chronorag import render
from chronorag.cli.options import Subparsers, db_of, zone_of


def add(sub: Subparsers) -> None:
    p = sub.add_parser("people", help="people, aliases and who may see whose records")
    people_sub = p.add_subparsers(dest="action", required=True)
    pl = people_sub.add_parser("load", help="replace people and access grants from a JSON file")
    pl.add_argument("file")
    pl.add_argument("--db", default=None)
    pl.add_argument("--json", action="store_true")
    pl.set_defaults(func=run_load)


def run_load(args: argparse.Namespace) -> int:
    from chronorag.engine import Engine

    with Engine(db_of(args), tz=zone_of(None)) as engine:
        directory = engine.load_people(args.file)
        print(json.dumps(directory.to_json(), ensure_ascii=False) if args.json
              else render.people_report(directory))
        return 0
