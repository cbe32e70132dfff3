"""Command line: parses arguments, calls the engine, prints. No logic of its own."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from chronorag import render
from chronorag.cli import commands
from chronorag.cli.commands import db_default, llm_of, zone_of
from chronorag.cli.documents import documents, forget_new_store, require_store
from chronorag.cli.parser import build_parser, judges
from chronorag.clock import system_now
from chronorag.errors import ChronoragError, ValidationError
from chronorag.pipeline.ingest import Batching

__all__ = ["build_parser", "main"]


MAX_SHOWN_PROBLEMS = 200
DEBUG_ENV = "CHRONORAG_DEBUG"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = _dispatch(args)
        sys.stdout.flush()  # here, so a reader that left (``| head``) is seen below
        return code
    except BrokenPipeError:
        # The reader closed the pipe: nothing more to say to anyone. Python would flush
        # stdout again at exit and report the same error; point it at /dev/null first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
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


# Commands that only read a store: one that does not exist is an error, not a new file.
# (``ask`` checks after its options, below.)
_READERS = frozenset({"review", "context", "reindex", "documents"})


def _store_to_serve(args: argparse.Namespace) -> None:
    """A server over a store that does not exist is a mistyped path unless ``--create``
    says to start an empty one (documents uploaded later)."""
    db = args.db or db_default()
    if args.create:
        from chronorag.store.opening_uri import store_exists

        if not store_exists(db):
            print(f"creating a new store at {db}", file=sys.stderr)
        return
    require_store(db, other=f" (or {args.command} --create starts with an empty one)")


def _dispatch(args: argparse.Namespace) -> int:
    if args.command in _READERS or (args.command == "keys" and args.action == "list"):
        require_store(args.db or db_default())
    if args.command == "time":
        return commands.time(args)
    if args.command == "demo":
        from chronorag.demo import run_demo

        return run_demo(db=args.db, out=sys.stdout)
    if args.command == "eval":
        from chronorag.evaluate.cli import run_eval

        return run_eval(args, out=sys.stdout)
    if args.command == "review":
        return commands.review(args)
    if args.command == "context":
        return commands.context(args)
    if args.command == "keys":
        return commands.keys(args)
    if args.command == "migrate":
        return commands.migrate(args)
    if args.command == "documents":
        return documents(args, args.db or db_default())
    if args.command == "ingest":
        return _ingest(args)
    if args.command == "serve":
        from chronorag.serve import Limits, require_extra, run

        require_extra()
        llm = llm_of(args)
        _store_to_serve(args)
        run(args.db or db_default(), host=args.host, port=args.port, tz=zone_of(args),
            clock=system_now, limits=Limits(body_bytes=args.max_body_mb * 1024 * 1024,
                                            read_s=float(args.timeout)), llm=llm)
        return 0
    if args.command == "mcp":
        from chronorag.integrations.mcp_server import require_extra as mcp_extra
        from chronorag.integrations.mcp_server import run as run_mcp

        mcp_extra()
        llm = llm_of(args)
        _store_to_serve(args)
        run_mcp(args.db or db_default(), tz=zone_of(args), clock=system_now, config=args.config,
                llm=llm)
        return 0
    from chronorag.engine import Engine

    llm = llm_of(args)  # a wrong --llm option is said before the store is looked at
    if args.command == "ask":
        require_store(args.db or db_default())
    with Engine(args.db or db_default(), tz=zone_of(args), llm=llm) as engine:
        if args.command == "reindex":
            from chronorag.cli.progress import progress_bar

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
        if args.command == "people":
            directory = engine.load_people(args.file)
            print(json.dumps(directory.to_json(), ensure_ascii=False) if args.json
                  else render.people_report(directory))
            return 0
        warming = engine.warm_up()  # models load while the question is understood
        try:
            answer = engine.ask(args.question, now=args.now or system_now(),
                                as_of=args.as_of, user=args.user, k=args.k, admin=args.admin)
            if args.json:
                print(json.dumps(answer.to_json(), ensure_ascii=False, indent=2))
            else:
                render.print_answer(answer, file=sys.stdout)
        finally:
            # An answer found without the models (an empty store), or a reader gone before
            # it was printed, must not leave the process exiting while onnxruntime still
            # builds a session: that aborts it (SIGABRT).
            warming.join()
        return 0


def _ingest(args: argparse.Namespace) -> int:
    """Ingest, making the store when it does not exist yet (and saying so on stderr);
    a rejected first ingest leaves no store behind."""
    from chronorag.cli.progress import progress_bar
    from chronorag.engine import Engine
    from chronorag.store.opening_uri import store_exists

    db = args.db or db_default()
    new = not store_exists(db)
    bar = progress_bar(sys.stderr, quiet=args.quiet)
    try:
        with Engine(db, tz=zone_of(args)) as engine:
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
