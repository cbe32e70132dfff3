"""``chronorag ingest``: validate and store documents, making the store when it does not
exist yet."""

from __future__ import annotations

import argparse
import json
import sys

from chronorag import render
from chronorag.cli.options import (
    Subparsers,
    batch_option,
    db_of,
    forget_new_store,
    quiet_option,
    stated_options,
    store_options,
    zone_of,
)
from chronorag.clock import system_now
from chronorag.errors import ValidationError
from chronorag.pipeline.ingest import Batching


def add(sub: Subparsers) -> None:
    p = sub.add_parser("ingest", help="validate and store documents (.jsonl, .md, .txt, .html, "
                       ".pdf, .docx, folders)")
    p.add_argument("paths", nargs="+")
    store_options(p)
    batch_option(p)
    p.add_argument("--root", default=None, metavar="DIR",
                   help="a file without an id of its own is known by its path from DIR, "
                        "without suffix (default: the current directory)")
    p.add_argument("--replace", action="store_true",
                   help="let documents replace stored ones of the same id that were read "
                        "from another file")
    quiet_option(p)
    p.add_argument("--json", action="store_true")
    stated_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Ingest, saying on stderr when the store is new; a rejected first ingest leaves no
    store behind."""
    from chronorag.cli.progress import progress_bar
    from chronorag.engine import Engine
    from chronorag.store.opening_uri import store_exists

    db = db_of(args)
    new = not store_exists(db)
    bar = progress_bar(sys.stderr, quiet=args.quiet)
    try:
        with Engine(db, tz=zone_of(args.tz)) as engine:
            report = engine.ingest(args.paths, now=system_now(), progress=bar,
                                   batching=Batching(docs=args.batch), root=args.root,
                                   replace=args.replace, dates_from_text=args.dates_from_text,
                                   allow_dangling=args.allow_dangling,
                                   git_history=args.git_history)
    except ValidationError:
        if new:
            forget_new_store(db)
        raise
    finally:
        if bar is not None:
            bar.close()
    if new:
        print(f"created a new store at {db!r}", file=sys.stderr)
    print(json.dumps(report.to_json()) if args.json else render.ingest_report(report))
    return 0
