"""``chronorag conditions``: the condition keys documents' ``applies_to`` and askers'
attributes may use (``region``, ``segment``, …), each with the values it takes."""

from __future__ import annotations

import argparse
import json
import sys

from chronorag.cli.options import Subparsers, db_of, existing_db, store_options, zone_of
from chronorag.conditions import as_json


def add(sub: Subparsers) -> None:
    p = sub.add_parser("conditions", help="the condition keys documents may apply to "
                       "(region, segment, ...) and their values")
    actions = p.add_subparsers(dest="action", required=True)
    listed = actions.add_parser("list", help="the declared keys and their values")
    declared = actions.add_parser(
        "declare", help="declare a key (with the values it takes; none: any value), or add "
                        "values to one; creates the store when --db names none")
    declared.add_argument("key")
    declared.add_argument("values", nargs="*")
    dropped = actions.add_parser("drop", help="drop a key no stored document or person uses")
    dropped.add_argument("key")
    for parser in (listed, declared, dropped):
        store_options(parser)
        parser.add_argument("--json", action="store_true")
        parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.engine import Engine
    from chronorag.store.opening_uri import store_exists

    action = args.action
    db = db_of(args) if action == "declare" else existing_db(args)
    new = action == "declare" and not store_exists(db)
    with Engine(db, tz=zone_of(None)) as engine:
        if action == "declare":
            keys = engine.declare_condition(args.key, args.values)
        elif action == "drop":
            keys = engine.drop_condition(args.key)
        else:
            keys = engine.conditions()
    if new:
        print(f"created a new store at {db!r}", file=sys.stderr)
    if args.json:
        print(json.dumps(as_json(keys), ensure_ascii=False))
    elif not keys:
        print("no condition is declared; declare one with: chronorag conditions declare "
              "KEY [VALUE...]")
    else:
        for key, values in keys.items():
            print(f"{key}: {', '.join(values) if values else '(any value)'}")
    return 0
