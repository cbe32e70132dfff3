"""What the commands share: option groups and argument types several of them declare, and
the helpers that turn parsed options into a store path, a time zone or a chat model."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TypeAlias

from chronorag.answer.llm import Generator
from chronorag.clock import parse_moment
from chronorag.config import time_zone
from chronorag.errors import ConfigError, StoreError
from chronorag.pipeline.ingest import Batching

# A string: argparse's action class cannot be subscripted at run time.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def iso(value: str) -> datetime:
    try:
        return parse_moment(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def question(value: str) -> str:
    if not value.strip():
        raise argparse.ArgumentTypeError("the question is empty; ask it in words")
    return value


def positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number <= 0:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0: {value!r}")
    return number


def judges(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [] if value.strip() == "none" else [n.strip() for n in value.split(",") if n.strip()]


def tz_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tz", default=None, help="IANA time zone for naive times "
                   "(default: $CHRONORAG_TZ, else UTC)")


def store_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None)
    tz_option(p)


def question_times(p: argparse.ArgumentParser) -> None:
    p.add_argument("--now", type=iso, default=None, help="when the question is asked")
    p.add_argument("--as-of", type=iso, default=None, help="the time the question is about")


def llm_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--llm", default=None, metavar="URL",
                   help="an OpenAI-compatible chat endpoint (e.g. http://127.0.0.1:8080/v1) "
                        "writes the answer from the evidence, checked before it is shown "
                        "(chronorag[llm]; its key, if any, in $CHRONORAG_LLM_KEY)")
    p.add_argument("--llm-model", default=None, metavar="NAME",
                   help="the model to ask the endpoint for (default: the endpoint's own)")
    p.add_argument("--llm-timeout", type=positive, default=60, metavar="S",
                   help="seconds the model may take to write; then the extractive answer "
                        "stands, flagged generation_failed (default 60)")


def batch_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--batch", type=positive, default=Batching.docs, metavar="N",
                   help=f"documents per committed batch (default {Batching.docs})")


def stated_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dates-from-text", action="store_true",
                   help="fill missing valid_from, modified_at and supersedes from what the "
                        "text states ('Effective date: ...', 本办法自...起施行); never over a "
                        "field the front matter or JSON gives")
    p.add_argument("--git-history", action="store_true",
                   help="ingest every version of each file from its git history: each "
                        "commit that changed it, valid from the effective date its text "
                        "states, else from the commit; each supersedes the one before")
    p.add_argument("--allow-dangling", action="store_true",
                   help="a supersedes/derived_from naming an id neither stored nor ingested "
                        "is a warning, not an error")


def quiet_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (there is none when stderr is not a terminal)")


def db_default() -> str:
    return os.environ.get("CHRONORAG_DB", "chronorag.db")


def db_of(args: argparse.Namespace) -> str:
    """The store a command works on: --db, else $CHRONORAG_DB, else ./chronorag.db."""
    return str(args.db or db_default())


def existing_db(args: argparse.Namespace) -> str:
    """:func:`db_of`, which must name a store already (see :func:`require_store`)."""
    db = db_of(args)
    require_store(db)
    return db


def zone_of(name: str | None) -> tzinfo:
    """The time zone naive times are read in: ``name`` (a command's --tz), else
    $CHRONORAG_TZ, else UTC."""
    name = name or os.environ.get("CHRONORAG_TZ")
    return time_zone(name) if name else UTC


def llm_of(args: argparse.Namespace) -> Generator | None:
    """The chat model of ``--llm URL [--llm-model NAME] [--llm-timeout S]``, if any; only
    for commands that declare them with :func:`llm_options`."""
    if args.llm is None:
        if args.llm_model:
            raise ConfigError("--llm-model names a model of an endpoint: give the endpoint "
                              "too, --llm URL")
        return None
    from chronorag.answer.openai_chat import OpenAIChat

    try:
        return OpenAIChat(args.llm, model=args.llm_model, timeout_s=float(args.llm_timeout))
    except ValueError as exc:
        raise ConfigError(f"--llm: {exc}") from None


def require_store(db: str, *, other: str = "") -> None:
    """Raise ``StoreError`` when ``db`` names no store yet: a command that only reads
    must not make an empty one out of a mistyped path. ``chronorag ingest`` makes it."""
    from chronorag.store.opening_uri import is_postgres_uri, store_exists
    from chronorag.store.pg_session import redacted

    if store_exists(db):
        return
    shown = redacted(db) if is_postgres_uri(db) else db
    raise StoreError(f"no store at {shown!r}; chronorag ingest creates one{other}")


def serve_options(p: argparse.ArgumentParser) -> None:
    """Options of the commands that serve a store (``serve``, ``mcp``)."""
    p.add_argument("--create", action="store_true",
                   help="start with an empty store when --db names none (else: exit 1)")
    llm_options(p)


def store_to_serve(args: argparse.Namespace) -> None:
    """A server over a store that does not exist is a mistyped path unless ``--create``
    says to start an empty one (documents uploaded later)."""
    db = db_of(args)
    if args.create:
        from chronorag.store.opening_uri import store_exists

        if not store_exists(db):
            print(f"creating a new store at {db}", file=sys.stderr)
        return
    require_store(db, other=f" (or {args.command} --create starts with an empty one)")


def forget_new_store(db: str) -> None:
    """Remove the SQLite files a rejected first ingest opened: it leaves no store
    behind, as if it had never run (a PostgreSQL schema is left for the next one)."""
    from chronorag.store.opening_uri import is_postgres_uri

    if is_postgres_uri(db) or db == ":memory:":
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(db + suffix).unlink(missing_ok=True)
