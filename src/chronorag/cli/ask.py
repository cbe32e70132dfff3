"""``chronorag ask``: answer a question with evidence."""

from __future__ import annotations

import argparse
import json
import sys

from chronorag import render
from chronorag.cli.options import (
    Subparsers,
    existing_db,
    llm_of,
    llm_options,
    question,
    question_times,
    store_options,
    zone_of,
)
from chronorag.clock import system_now
from chronorag.conditions import parse_context
from chronorag.model import Asking


def add(sub: Subparsers) -> None:
    p = sub.add_parser("ask", help="answer a question with evidence")
    p.add_argument("question", type=question)
    store_options(p)
    question_times(p)
    p.add_argument("--user", default=None, help="who asks: sees public documents, their own "
                   "records and those shared with them; 我/I/my/me mean this id")
    p.add_argument("--admin", action="store_true",
                   help="see every record whatever its subject (without --user, records "
                        "with a subject are otherwise invisible)")
    p.add_argument("--context", action="append", default=[], metavar="KEY=VALUE",
                   help="an attribute of the asker (repeatable), e.g. region=EU: documents "
                        "written for other values do not apply (chronorag conditions)")
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--json", action="store_true")
    llm_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.engine import Engine

    llm = llm_of(args)  # a wrong --llm option is said before the store is looked at
    with Engine(existing_db(args), tz=zone_of(args.tz), llm=llm) as engine:
        warming = engine.warm_up()  # models load while the question is understood
        try:
            answer = engine.ask(args.question, Asking(
                user=args.user, admin=args.admin, now=args.now or system_now(),
                as_of=args.as_of, k=args.k, context=parse_context(args.context)))
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
