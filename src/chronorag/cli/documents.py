"""``chronorag documents list|show|delete`` and the check readers make first: that the
store they name exists."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from chronorag import render
from chronorag.cli.commands import zone_of
from chronorag.errors import NotFoundError, StoreError


def require_store(db: str, *, other: str = "") -> None:
    """Raise ``StoreError`` when ``db`` names no store yet: a command that only reads
    must not make an empty one out of a mistyped path. ``chronorag ingest`` makes it."""
    from chronorag.store.opening_uri import is_postgres_uri, store_exists
    from chronorag.store.pg_session import redacted

    if store_exists(db):
        return
    shown = redacted(db) if is_postgres_uri(db) else db
    raise StoreError(f"no store at {shown!r}; chronorag ingest creates one{other}")


def forget_new_store(db: str) -> None:
    """Remove the SQLite files a rejected first ingest opened: it leaves no store
    behind, as if it had never run (a PostgreSQL schema is left for the next one)."""
    from chronorag.store.opening_uri import is_postgres_uri

    if is_postgres_uri(db) or db == ":memory:":
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(db + suffix).unlink(missing_ok=True)


def documents(args: argparse.Namespace, db: str) -> int:
    from chronorag.store.opening_uri import open_store

    require_store(db)
    if args.action == "delete":
        return _delete(args, db)
    tz = zone_of(args)
    store = open_store(db)
    try:
        if args.action == "list":
            docs = store.documents(text=False)
            counts = store.chunk_counts()
            rows = [render.document_summary(d, counts.get(d.id, 0), tz=tz) for d in docs]
            print(json.dumps(rows, ensure_ascii=False) if args.json
                  else render.documents_table(rows))
            return 0
        found = store.documents([args.id])
    finally:
        store.close()
    if not found:
        raise NotFoundError(f"no document {args.id!r} in the store; chronorag documents "
                            "list shows the ids")
    shown = render.document_json(found[0], tz=tz)
    print(json.dumps(shown, ensure_ascii=False, indent=2) if args.json
          else render.document_text(shown))
    return 0


def _delete(args: argparse.Namespace, db: str) -> int:
    from chronorag.engine import Engine

    with Engine(db, tz=zone_of(args)) as engine:
        deleted = engine.delete(list(dict.fromkeys(args.ids)), unlink=args.unlink)
    print(json.dumps({"deleted": list(deleted)}) if args.json
          else f"deleted {len(deleted)} document(s): {', '.join(deleted)}")
    return 0
