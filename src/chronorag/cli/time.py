"""``chronorag time``: resolve one time expression, or list those of a running text."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, tzinfo

from chronorag import render
from chronorag.cli.options import Subparsers, iso, tz_option, zone_of
from chronorag.clock import system_now
from chronorag.errors import TimeParseError


def add(sub: Subparsers) -> None:
    p = sub.add_parser("time", help="resolve a time expression to an interval, or with "
                       "--extract list every time expression of a text as JSON lines")
    p.add_argument("expression", nargs="?")
    p.add_argument("--extract", nargs="?", const="-", default=None, metavar="FILE",
                   help="read running text from FILE (stdin when none or '-') and print one "
                        "JSON object a line per expression found")
    p.add_argument("--now", type=iso, default=None)
    tz_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.timex import parse_one

    tz = zone_of(args.tz)
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
