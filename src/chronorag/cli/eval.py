"""``chronorag eval``: the benchmarks of :mod:`chronorag.evaluate`."""

from __future__ import annotations

import argparse
import sys

from chronorag.cli.options import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser("eval", help="benchmarks")
    eval_sub = p.add_subparsers(dest="suite", required=True)
    e = eval_sub.add_parser("retrieval", help="AR@k / ER@k / SA on a TimeQA-format folder "
                            "(questions may be dated: now, user, document-id evidence)")
    e.add_argument("dir", help="corpus.jsonl + questions.jsonl, or a folder of such folders "
                               "(one table, one store per set)")
    e.add_argument("--tz", default=None, help="IANA time zone for naive times of the corpus "
                   "and of the questions' now (default: UTC)")
    e.add_argument("--methods", default=None, help="comma-separated method names")
    e.add_argument("--limit", type=int, default=None, help="only the first N questions")
    e.add_argument("--json", action="store_true")
    e.add_argument("--plot", default=None, help="write AR@k curves to this PNG")
    e.add_argument("--db", default=None,
                   help="reuse this store (unchanged documents are not embedded again; "
                        "a folder of <set>.db for a folder of sets); default: a fresh "
                        "temporary store")
    e.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chronorag.evaluate.cli import run_eval

    return run_eval(args, out=sys.stdout)
