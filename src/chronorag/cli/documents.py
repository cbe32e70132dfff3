"""``chronorag documents list|show|delete``: the stored documents, one function an action."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import TYPE_CHECKING

from chronorag import render
from chronorag.cli.options import Subparsers, existing_db, store_options, zone_of
from chronorag.errors import NotFoundError

if TYPE_CHECKING:
    from chronorag.store.base import DocumentStore


def add(sub: Subparsers) -> None:
    p = sub.add_parser("documents", help="list, show or delete stored documents")
    docs_sub = p.add_subparsers(dest="action", required=True)
    d = docs_sub.add_parser("list", help="id, title, source, validity, status, supersedes "
                            "and chunks of every document")
    store_options(d)
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=run_list)
    d = docs_sub.add_parser("show", help="one document's fields and text")
    d.add_argument("id")
    store_options(d)
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=run_show)
    d = docs_sub.add_parser("delete", help="delete documents with their chunks, vectors "
                            "and links, all or none")
    d.add_argument("ids", nargs="+", metavar="ID")
    d.add_argument("--unlink", action="store_true",
                   help="also remove other documents' supersedes/derived_from naming them "
                        "(else such a delete is refused)")
    d.add_argument("--db", default=None)
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=run_delete)


def run_list(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        docs = store.documents(text=False)
        counts = store.chunk_counts()
    tz = zone_of(args.tz)
    rows = [render.document_summary(d, counts.get(d.id, 0), tz=tz) for d in docs]
    print(json.dumps(rows, ensure_ascii=False) if args.json else render.documents_table(rows))
    return 0


def run_show(args: argparse.Namespace) -> int:
    with _opened(args) as store:
        found = store.documents([args.id])
    if not found:
        raise NotFoundError(f"no document {args.id!r} in the store; chronorag documents "
                            "list shows the ids")
    shown = render.document_json(found[0], tz=zone_of(args.tz))
    print(json.dumps(shown, ensure_ascii=False, indent=2) if args.json
          else render.document_text(shown))
    return 0


@contextmanager
def _opened(args: argparse.Namespace) -> Iterator[DocumentStore]:
    """The documents of the store ``--db`` names, which must exist: these actions only
    read. Closed at the end of the block."""
    from chronorag.store.opening_uri import open_store

    with closing(open_store(existing_db(args))) as store:
        yield store


def run_delete(args: argparse.Namespace) -> int:
    from chronorag.engine import Engine

    with Engine(existing_db(args), tz=zone_of(None)) as engine:
        deleted = engine.delete(list(dict.fromkeys(args.ids)), unlink=args.unlink)
    print(json.dumps({"deleted": list(deleted)}) if args.json
          else f"deleted {len(deleted)} document(s): {', '.join(deleted)}")
    return 0
