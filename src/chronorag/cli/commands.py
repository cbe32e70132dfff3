"""The smaller subcommands: time, review, keys, migrate, context."""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import closing
from datetime import UTC, datetime, tzinfo
from typing import Any

from chronorag import render
from chronorag.answer.llm import Generator
from chronorag.clock import system_now
from chronorag.config import time_zone
from chronorag.errors import ConfigError, TimeParseError


def llm_of(args: argparse.Namespace) -> Generator | None:
    """The chat model of ``--llm URL [--llm-model NAME] [--llm-timeout S]``, if any."""
    if getattr(args, "llm", None) is None:
        if getattr(args, "llm_model", None):
            raise ConfigError("--llm-model names a model of an endpoint: give the endpoint "
                              "too, --llm URL")
        return None
    from chronorag.answer.openai_chat import OpenAIChat

    try:
        return OpenAIChat(args.llm, model=args.llm_model, timeout_s=float(args.llm_timeout))
    except ValueError as exc:
        raise ConfigError(f"--llm: {exc}") from None


def db_default() -> str:
    return os.environ.get("CHRONORAG_DB", "chronorag.db")


def zone_of(args: argparse.Namespace) -> tzinfo:
    """The time zone naive times are read in: --tz, else $CHRONORAG_TZ, else UTC."""
    name = getattr(args, "tz", None) or os.environ.get("CHRONORAG_TZ")
    return time_zone(name) if name else UTC


def review(args: argparse.Namespace) -> int:
    from chronorag.review import DEFAULT_THRESHOLD, review
    from chronorag.store.opening_uri import open_store

    if args.accept_dates is not None or args.accept_versions is not None:
        return _accept(args)
    as_of = args.as_of or system_now()
    as_of = as_of if as_of.tzinfo is not None else as_of.replace(tzinfo=zone_of(args))
    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    store = open_store(args.db or db_default())
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
    with Engine(args.db or db_default(), tz=zone_of(args)) as engine:
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


def keys(args: argparse.Namespace) -> int:
    from chronorag.serve.keys import add_key, revoke_key
    from chronorag.store.opening_uri import open_store

    store = open_store(args.db or db_default())
    try:
        if args.action == "add":
            record, key = add_key(store, user=args.user, admin=args.admin, now=system_now())
            kind = "an admin key" if record.admin else "a key"
            print(f"made {kind} for user {record.user!r}, id {record.id}. It is shown only "
                  "this once; send it as Authorization: Bearer KEY")
            print(key)
        elif args.action == "revoke":
            revoke_key(store, args.id, now=system_now())
            print(f"revoked key {args.id}")
        else:
            print(render.keys_table(store.api_keys(), as_json=args.json))
    finally:
        store.close()
    return 0


def migrate(args: argparse.Namespace) -> int:
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


def context(args: argparse.Namespace) -> int:
    """Print the context pack of a semantic layer for ``args.question``."""
    from chronorag.engine import Engine
    from chronorag.semantic import build_context
    from chronorag.semantic.render import render_pack

    if args.budget is not None and args.budget < 0:
        raise ConfigError("--budget must be a number of tokens >= 0")
    db = args.db or db_default()
    with Engine(db, tz=zone_of(args)) as engine:
        store = engine.store
        if store.layer_generation() == 0:
            raise ConfigError(f"the store {db!r} has no semantic layer; ingest one first: "
                              "chronorag ingest layer.yaml")
        pack = build_context(
            store, args.question, now=args.now or system_now(), as_of=args.as_of,
            budget=args.budget, shares=_shares(args.shares), tz=engine.tz,
            embedder=engine.components.embedder(engine.config.embedder))
    print(json.dumps(pack.to_json(), ensure_ascii=False, indent=2) if args.json
          else render_pack(pack))
    return 0


def _shares(text: str | None) -> dict[str, float]:
    """``--shares "tables=0.4,rules=0.05"`` over the defaults; unknown categories are an error."""
    from chronorag.semantic.pack import CATEGORIES, DEFAULT_SHARES

    shares = dict(DEFAULT_SHARES)
    for part in filter(None, (text or "").split(",")):
        name, _, value = part.partition("=")
        if name.strip() not in CATEGORIES:
            raise ConfigError(f"unknown category {name!r} in --shares; use "
                              + ", ".join(CATEGORIES))
        try:
            shares[name.strip()] = float(value)
        except ValueError:
            raise ConfigError(f"--shares {part!r}: the share must be a number") from None
    return shares


def time(args: argparse.Namespace) -> int:
    from chronorag.timex import parse_one

    tz = zone_of(args)
    now = args.now or system_now().astimezone(tz)
    if now.tzinfo is None:
        now = now.replace(tzinfo=tz)
    if args.extract is not None:
        return _extract(args.extract, args.expression, now, tz)
    if args.expression is None:
        print("error: give a time expression, e.g. chronorag time 'last Tuesday', or "
              "--extract [FILE] to read running text", file=sys.stderr)
        return 2
    try:
        expression = parse_one(args.expression, now=now, tz=tz)
    except TimeParseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    payload = expression.to_json()
    print(json.dumps(payload, ensure_ascii=False) if args.json else render.time_line(payload))
    return 0


def _extract(source: str, extra: str | None, now: datetime, tz: tzinfo) -> int:
    from chronorag.timex import extract

    if extra is not None:
        print(f"error: --extract reads a file or stdin, not an expression ({extra!r}); "
              "give one FILE after --extract", file=sys.stderr)
        return 2
    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"error: cannot read {source!r}: {reason}; give a readable UTF-8 text file, or "
              "no FILE to read stdin", file=sys.stderr)
        return 2
    for item in extract(text, now=now, tz=tz):
        print(json.dumps(item.to_json(), ensure_ascii=False))
    return 0
