"""``chronorag coverage``: which periods the store's texts speak of, per group of
documents, the holes between them and the documents that state no time."""

from __future__ import annotations

import argparse
import json

from chronorag.cli.options import Subparsers, existing_db, iso, store_options, zone_of
from chronorag.clock import system_now
from chronorag.coverage import GROUPINGS, UNITS, as_table


def add(sub: Subparsers) -> None:
    p = sub.add_parser("coverage", help="the periods the store's texts cover, and the holes")
    store_options(p)
    p.add_argument("--by", choices=GROUPINGS, default="title",
                   help="group documents by title, source type or the entity (subject) "
                        "they are about (default: title)")
    p.add_argument("--unit", choices=UNITS, default="year", help="year (default) or month")
    p.add_argument("--now", type=iso, default=None,
                   help="where open periods end (default: the clock)")
    p.add_argument("--limit", type=int, default=None,
                   help="show only the largest N groups (the JSON keeps every group)")
    p.add_argument("--png", default=None, metavar="FILE",
                   help="also draw the coverage of the largest groups into FILE "
                        "(pip install 'chronorag[plot]')")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.coverage import save_png
    from chronorag.engine import Engine

    now = args.now or system_now()
    now = now if now.tzinfo is not None else now.replace(tzinfo=zone_of(args.tz))
    with Engine(existing_db(args), tz=zone_of(args.tz)) as engine:
        report = engine.coverage(by=args.by, unit=args.unit, now=now)
    if args.png:
        save_png(report, args.png, limit=args.limit or 40)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        print(as_table(report, limit=args.limit))
    return 0
