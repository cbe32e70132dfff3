"""``chronorag review``: what a knowledge-base owner must look at, and accepting the
dates and version chains it proposes."""

from __future__ import annotations

import argparse
import json
from typing import Any

from chronorag import render
from chronorag.cli.options import Subparsers, db_of, existing_db, iso, store_options, zone_of
from chronorag.clock import system_now


def add(sub: Subparsers) -> None:
    p = sub.add_parser("review", help="list what a knowledge-base owner must look at")
    store_options(p)
    p.add_argument("--as-of", type=iso, default=None, help="judge validity at this time")
    p.add_argument("--threshold", type=float, default=None,
                   help="cosine above which two documents count as near-duplicates (0.9)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--accept-dates", nargs="*", default=None, metavar="ID",
                   help="write the dates and links the texts state (the review's proposals) "
                        "into the empty fields of these documents (all when no ID is given)")
    p.add_argument("--accept-versions", nargs="*", default=None, metavar="ID",
                   help="link the version chains the review proposes (those holding these "
                        "documents; all when no ID is given): each version supersedes the "
                        "one before it, when every version has a date of its own")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    db = existing_db(args)
    from chronorag.review import DEFAULT_THRESHOLD, review
    from chronorag.store.opening_uri import open_store

    if args.accept_dates is not None or args.accept_versions is not None:
        return _accept(args)
    as_of = args.as_of or system_now()
    as_of = as_of if as_of.tzinfo is not None else as_of.replace(tzinfo=zone_of(args.tz))
    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    store = open_store(db)
    try:
        report = review(store, as_of=as_of, threshold=threshold)
    finally:
        store.close()
    print(json.dumps(report.to_json(), ensure_ascii=False, indent=2) if args.json
          else render.review_report(report))
    return 0


def _accept(args: argparse.Namespace) -> int:
    """``--accept-dates`` and/or ``--accept-versions``: dates first, since a chain is
    linked only when its versions have dates of their own."""
    from chronorag.engine import Engine

    done: dict[str, Any] = {}
    with Engine(db_of(args), tz=zone_of(args.tz)) as engine:
        if args.accept_dates is not None:
            done["dates"] = engine.accept_dates(args.accept_dates or None, now=system_now())
        if args.accept_versions is not None:
            done["versions"] = engine.accept_versions(args.accept_versions or None,
                                                      now=system_now())
    if args.json:
        both = {name: value.to_json() for name, value in done.items()}
        print(json.dumps(both if len(both) > 1 else next(iter(both.values())),
                         ensure_ascii=False, indent=2))
    else:
        print("\n".join(render.accepted_dates(v) if name == "dates" else
                        render.linked_versions(v) for name, v in done.items()))
    return 0
