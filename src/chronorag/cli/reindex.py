"""``chronorag reindex``: rebuild what is derived from the stored texts."""

from __future__ import annotations

import argparse
import json
import sys

from chronorag import render
from chronorag.cli.options import (
    Subparsers,
    batch_option,
    existing_db,
    judges,
    quiet_option,
    store_options,
    zone_of,
)
from chronorag.pipeline.ingest import Batching


def add(sub: Subparsers) -> None:
    p = sub.add_parser("reindex", help="rebuild chunks, time mentions and vectors from the "
                       "stored texts (after an upgrade, or to switch embedder)")
    store_options(p)
    p.add_argument("--embedder", default=None,
                   help="switch the store to this embedder (default: the store's own)")
    p.add_argument("--judges", default=None, metavar="NAMES",
                   help="switch the multilingual judges: embedder names, comma-separated, "
                        "or 'none' (English-only stores ingest faster; Chinese and "
                        "cross-language questions then keep their retrieval relevance)")
    p.add_argument("--force", action="store_true",
                   help="rebuild every document, not only those made another way")
    batch_option(p)
    quiet_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    db = existing_db(args)
    from chronorag.cli.progress import progress_bar
    from chronorag.engine import Engine

    with Engine(db, tz=zone_of(args.tz)) as engine:
        bar = progress_bar(sys.stderr, quiet=args.quiet, what="reindexing")
        try:
            report = engine.reindex(embedder=args.embedder, judges=judges(args.judges),
                                    force=args.force, progress=bar,
                                    batching=Batching(docs=args.batch))
        finally:
            if bar is not None:
                bar.close()
        print(json.dumps(report.to_json()) if args.json else render.ingest_report(report))
    return 0
