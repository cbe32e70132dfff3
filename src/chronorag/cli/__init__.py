"""Command line: parses arguments, calls the engine, prints. No logic of its own."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from chronorag.cli.parser import build_parser
from chronorag.errors import ChronoragError, ValidationError

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


def _dispatch(args: argparse.Namespace) -> int:
    """Run the command: its module's ``add`` set ``func`` on its parser."""
    code: int = args.func(args)
    return code
