"""``chronorag keys add|list|revoke``: the API keys of ``chronorag serve``."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import TYPE_CHECKING

from chronorag import render
from chronorag.cli.options import Subparsers, db_of, existing_db
from chronorag.clock import system_now

if TYPE_CHECKING:
    from chronorag.store.base import KeyStore


def add(sub: Subparsers) -> None:
    p = sub.add_parser("keys", help="API keys of chronorag serve")
    keys_sub = p.add_subparsers(dest="action", required=True)
    k = keys_sub.add_parser("add", help="make a key; it is printed once, on the last line")
    k.add_argument("--user", required=True, help="who the key asks as")
    k.add_argument("--admin", action="store_true", help="the key may also write documents, "
                   "people and access, and read the review")
    k.add_argument("--db", default=None)
    k.set_defaults(func=run_add)
    k = keys_sub.add_parser("list", help="every key (never the keys themselves)")
    k.add_argument("--db", default=None)
    k.add_argument("--json", action="store_true")
    k.set_defaults(func=run_list)
    k = keys_sub.add_parser("revoke", help="revoke a key by its id (see keys list)")
    k.add_argument("id")
    k.add_argument("--db", default=None)
    k.set_defaults(func=run_revoke)


@contextmanager
def _keys(db: str) -> Iterator[KeyStore]:
    """The API keys of the store ``db``, closed at the end of the block."""
    from chronorag.store.opening_uri import open_store

    with closing(open_store(db)) as store:
        yield store


def run_add(args: argparse.Namespace) -> int:
    from chronorag.serve.keys import add_key

    with _keys(db_of(args)) as store:
        record, key = add_key(store, user=args.user, admin=args.admin, now=system_now())
        kind = "an admin key" if record.admin else "a key"
        print(f"made {kind} for user {record.user!r}, id {record.id}. It is shown only "
              "this once; send it as Authorization: Bearer KEY")
        print(key)
    return 0


def run_list(args: argparse.Namespace) -> int:
    with _keys(existing_db(args)) as store:
        print(render.keys_table(store.api_keys(), as_json=args.json))
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    from chronorag.serve.keys import revoke_key

    with _keys(db_of(args)) as store:
        revoke_key(store, args.id, now=system_now())
        print(f"revoked key {args.id}")
    return 0
