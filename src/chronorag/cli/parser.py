"""The top-level parser: each command module adds its own subcommand, in the order
``chronorag --help`` lists them."""

from __future__ import annotations

import argparse

from chronorag.cli import (
    ask,
    conditions,
    context,
    coverage,
    demo,
    documents,
    ingest,
    keys,
    mcp,
    migrate,
    people,
    reindex,
    review,
    serve,
)
from chronorag.cli import eval as eval_cmd
from chronorag.cli import time as time_cmd

# What ``chronorag --help`` says above the list of commands.
DESCRIPTION = "The command line's arguments: every subcommand and option, nothing else."

COMMANDS = (ingest, reindex, ask, time_cmd, eval_cmd, review, coverage, context, documents,
            people, conditions, serve, mcp, keys, migrate, demo)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chronorag", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add(sub)
    return parser
