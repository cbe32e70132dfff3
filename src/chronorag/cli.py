"""Command line: parses arguments, calls the engine, prints. No logic of its own."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from contextlib import closing
from datetime import UTC, datetime, tzinfo

from chronorag import render
from chronorag.clock import parse_moment, system_now
from chronorag.config import time_zone
from chronorag.errors import ChronoragError, ConfigError, TimeParseError, ValidationError
from chronorag.pipeline.ingest import Batching


def _iso(value: str) -> datetime:
    try:
        return parse_moment(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _db_default() -> str:
    return os.environ.get("CHRONORAG_DB", "chronorag.db")


def _tz_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tz", default=None, help="IANA time zone for naive times "
                   "(default: $CHRONORAG_TZ, else UTC)")


def _store_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None)
    _tz_option(p)


def _question_times(p: argparse.ArgumentParser) -> None:
    p.add_argument("--now", type=_iso, default=None, help="when the question is asked")
    p.add_argument("--as-of", type=_iso, default=None, help="the time the question is about")


def _batch_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--batch", type=_positive, default=Batching.docs, metavar="N",
                   help=f"documents per committed batch (default {Batching.docs})")


def _judges(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [] if value.strip() == "none" else [n.strip() for n in value.split(",") if n.strip()]


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number <= 0:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0: {value!r}")
    return number


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chronorag", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ingest", help="validate and store documents (.jsonl, .md, .txt, folders)")
    p.add_argument("paths", nargs="+")
    _store_options(p)
    _batch_option(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("reindex", help="rebuild chunks, time mentions and vectors from the "
                       "stored texts (after an upgrade, or to switch embedder)")
    _store_options(p)
    p.add_argument("--embedder", default=None,
                   help="switch the store to this embedder (default: the store's own)")
    p.add_argument("--judges", default=None, metavar="NAMES",
                   help="switch the multilingual judges: embedder names, comma-separated, "
                        "or 'none' (English-only stores ingest faster; Chinese and "
                        "cross-language questions then keep their retrieval relevance)")
    p.add_argument("--force", action="store_true",
                   help="rebuild every document, not only those made another way")
    _batch_option(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("ask", help="answer a question with evidence")
    p.add_argument("question")
    _store_options(p)
    _question_times(p)
    p.add_argument("--user", default=None, help="who asks: sees public documents, their own "
                   "records and those shared with them; 我/I/my/me mean this id")
    p.add_argument("--admin", action="store_true",
                   help="see every record whatever its subject (without --user, records "
                        "with a subject are otherwise invisible)")
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("time", help="resolve a time expression to an interval, or with "
                       "--extract list every time expression of a text as JSON lines")
    p.add_argument("expression", nargs="?")
    p.add_argument("--extract", nargs="?", const="-", default=None, metavar="FILE",
                   help="read running text from FILE (stdin when none or '-') and print one "
                        "JSON object a line per expression found")
    p.add_argument("--now", type=_iso, default=None)
    _tz_option(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("eval", help="benchmarks")
    eval_sub = p.add_subparsers(dest="suite", required=True)
    e = eval_sub.add_parser("retrieval", help="AR@k / ER@k on a TimeQA-format folder")
    e.add_argument("dir", help="corpus.jsonl + questions.jsonl, or a folder of such folders "
                               "(one table, one store per set)")
    e.add_argument("--methods", default=None, help="comma-separated method names")
    e.add_argument("--limit", type=int, default=None, help="only the first N questions")
    e.add_argument("--json", action="store_true")
    e.add_argument("--plot", default=None, help="write AR@k curves to this PNG")
    e.add_argument("--db", default=None,
                   help="reuse this store (unchanged documents are not embedded again; "
                        "a folder of <set>.db for a folder of sets); default: a fresh "
                        "temporary store")

    p = sub.add_parser("review", help="list what a knowledge-base owner must look at")
    _store_options(p)
    p.add_argument("--as-of", type=_iso, default=None, help="judge validity at this time")
    p.add_argument("--threshold", type=float, default=None,
                   help="cosine above which two documents count as near-duplicates (0.9)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("context", help="context pack of a semantic layer for text-to-SQL")
    p.add_argument("question")
    _store_options(p)
    _question_times(p)
    p.add_argument("--budget", type=int, default=None, help="token budget (words + CJK chars)")
    p.add_argument("--shares", default=None,
                   help="budget shares, e.g. tables=0.3,columns=0.25,metrics=0.15")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("people", help="people, aliases and who may see whose records")
    people_sub = p.add_subparsers(dest="action", required=True)
    pl = people_sub.add_parser("load", help="replace people and access grants from a JSON file")
    pl.add_argument("file")
    pl.add_argument("--db", default=None)
    pl.add_argument("--json", action="store_true")

    p = sub.add_parser("serve", help="serve the HTTP API and the web page (chronorag[serve])")
    _store_options(p)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_positive, default=8000)
    p.add_argument("--max-body-mb", type=_positive, default=32,
                   help="largest request body, in MiB (default 32)")
    p.add_argument("--timeout", type=_positive, default=60,
                   help="seconds a question may take before the answer is a 503 (60)")

    p = sub.add_parser("mcp", help="serve ask, time, context and review as MCP tools over "
                       "stdio (chronorag[mcp])")
    _store_options(p)
    p.add_argument("--config", default="default", help="search preset (default: default)")

    p = sub.add_parser("keys", help="API keys of chronorag serve")
    keys_sub = p.add_subparsers(dest="action", required=True)
    k = keys_sub.add_parser("add", help="make a key; it is printed once, on the last line")
    k.add_argument("--user", required=True, help="who the key asks as")
    k.add_argument("--admin", action="store_true", help="the key may also write documents, "
                   "people and access, and read the review")
    k.add_argument("--db", default=None)
    k = keys_sub.add_parser("list", help="every key (never the keys themselves)")
    k.add_argument("--db", default=None)
    k.add_argument("--json", action="store_true")
    k = keys_sub.add_parser("revoke", help="revoke a key by its id (see keys list)")
    k.add_argument("id")
    k.add_argument("--db", default=None)

    p = sub.add_parser("migrate", help="copy everything of one store into another (SQLite "
                       "file or postgresql:// URI) and verify the copy")
    p.add_argument("--from", dest="source", required=True, help="the store to copy")
    p.add_argument("--to", dest="target", required=True,
                   help="an empty store, or one an interrupted migrate of the same source left")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("demo", help="ingest the bundled demo corpus and ask it questions")
    p.add_argument("--db", default=None, help="keep the demo store here (default: temporary)")
    return parser


MAX_SHOWN_PROBLEMS = 200
DEBUG_ENV = "CHRONORAG_DEBUG"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except ValidationError as exc:
        for error in exc.errors[:MAX_SHOWN_PROBLEMS]:
            print(error, file=sys.stderr)
        if len(exc.errors) > MAX_SHOWN_PROBLEMS:
            print(f"... and {len(exc.errors) - MAX_SHOWN_PROBLEMS} more", file=sys.stderr)
        print(f"rejected: {len(exc.errors)} problem(s); nothing was stored", file=sys.stderr)
        return exc.exit_code
    except ChronoragError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted; committed batches are kept, run the command again to finish",
              file=sys.stderr)
        return 130
    except SystemExit:
        raise
    # Never a traceback for the user; one line that says what. BaseException too: a panic
    # in a Rust extension (tokenizers, sentencex) reaches Python as pyo3's PanicException.
    except BaseException as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        first = (str(exc).splitlines() or [""])[0]
        print(f"error: internal error in 'chronorag {args.command}' ({type(exc).__name__}: "
              f"{first}); the store keeps its last committed state. Set {DEBUG_ENV}=1 to see "
              "the traceback, and please report it", file=sys.stderr)
        return 1


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "time":
        return _time(args)
    if args.command == "demo":
        from chronorag.demo import run_demo

        return run_demo(db=args.db, out=sys.stdout)
    if args.command == "eval":
        from chronorag.evaluate.cli import run_eval

        return run_eval(args, out=sys.stdout)
    if args.command == "review":
        return _review(args)
    if args.command == "context":
        return _context(args)
    if args.command == "keys":
        return _keys(args)
    if args.command == "migrate":
        return _migrate(args)
    if args.command == "serve":
        from chronorag.serve import Limits, run

        run(args.db or _db_default(), host=args.host, port=args.port, tz=_tz(args),
            clock=system_now, limits=Limits(body_bytes=args.max_body_mb * 1024 * 1024,
                                            read_s=float(args.timeout)))
        return 0
    if args.command == "mcp":
        from chronorag.integrations.mcp_server import run as run_mcp

        run_mcp(args.db or _db_default(), tz=_tz(args), clock=system_now, config=args.config)
        return 0
    from chronorag.engine import Engine

    with Engine(args.db or _db_default(), tz=_tz(args)) as engine:
        if args.command in ("ingest", "reindex"):
            progress = render.progress_callback(sys.stderr)
            batching = Batching(docs=args.batch)
            if args.command == "ingest":
                report = engine.ingest(args.paths, now=system_now(), progress=progress,
                                       batching=batching)
            else:
                report = engine.reindex(embedder=args.embedder, judges=_judges(args.judges),
                                        force=args.force, progress=progress,
                                        batching=batching)
            print(json.dumps(report.to_json()) if args.json else render.ingest_report(report))
            return 0
        if args.command == "people":
            directory = engine.load_people(args.file)
            print(json.dumps(directory.to_json(), ensure_ascii=False) if args.json
                  else render.people_report(directory))
            return 0
        warming = engine.warm_up()  # models load while the question is understood
        answer = engine.ask(args.question, now=args.now or system_now(), as_of=args.as_of,
                            user=args.user, k=args.k, admin=args.admin)
        if args.json:
            print(json.dumps(answer.to_json(), ensure_ascii=False, indent=2))
        else:
            render.print_answer(answer, file=sys.stdout)
        # An answer found without the models (an empty store) must not leave the process
        # exiting while onnxruntime still builds a session: that aborts it (SIGABRT).
        warming.join()
        return 0


def _tz(args: argparse.Namespace) -> tzinfo:
    """The time zone naive times are read in: --tz, else $CHRONORAG_TZ, else UTC."""
    name = getattr(args, "tz", None) or os.environ.get("CHRONORAG_TZ")
    return time_zone(name) if name else UTC


def _review(args: argparse.Namespace) -> int:
    from chronorag.review import DEFAULT_THRESHOLD, review
    from chronorag.store.opening_uri import open_store

    as_of = args.as_of or system_now()
    as_of = as_of if as_of.tzinfo is not None else as_of.replace(tzinfo=_tz(args))
    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    store = open_store(args.db or _db_default())
    try:
        report = review(store, as_of=as_of, threshold=threshold)
    finally:
        store.close()
    print(json.dumps(report.to_json(), ensure_ascii=False, indent=2) if args.json
          else render.review_report(report))
    return 0


def _keys(args: argparse.Namespace) -> int:
    from chronorag.serve.keys import add_key, revoke_key
    from chronorag.store.opening_uri import open_store

    store = open_store(args.db or _db_default())
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


def _migrate(args: argparse.Namespace) -> int:
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


def _context(args: argparse.Namespace) -> int:
    """Print the context pack of a semantic layer for ``args.question``."""
    from chronorag.engine import Engine
    from chronorag.semantic import build_context
    from chronorag.semantic.render import render_pack

    if args.budget is not None and args.budget < 0:
        raise ConfigError("--budget must be a number of tokens >= 0")
    db = args.db or _db_default()
    with Engine(db, tz=_tz(args)) as engine:
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


def _time(args: argparse.Namespace) -> int:
    from chronorag.timex import parse_one

    tz = _tz(args)
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


if __name__ == "__main__":
    raise SystemExit(main())
