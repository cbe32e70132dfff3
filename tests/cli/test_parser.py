"""Each command module declares its own subcommand and the function that runs it
(``chronorag.cli.parser`` only puts them in order)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable

import pytest

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
from chronorag.cli.parser import build_parser

# Every subcommand in help order, the fewest other arguments it parses, and the function
# it must run.
MINIMAL: list[tuple[tuple[str, ...], list[str], Callable[[argparse.Namespace], int]]] = [
    (("ingest",), ["corpus/"], ingest.run),
    (("reindex",), [], reindex.run),
    (("ask",), ["What changed?"], ask.run),
    (("time",), ["today"], time_cmd.run),
    (("eval", "retrieval"), ["bench/"], eval_cmd.run),
    (("review",), [], review.run),
    (("coverage",), [], coverage.run),
    (("context",), ["GMV by region"], context.run),
    (("documents", "list"), [], documents.run_list),
    (("documents", "show"), ["a"], documents.run_show),
    (("documents", "delete"), ["a"], documents.run_delete),
    (("people", "load"), ["people.json"], people.run_load),
    (("conditions", "list"), [], conditions.run),
    (("conditions", "declare"), ["region"], conditions.run),
    (("conditions", "drop"), ["region"], conditions.run),
    (("serve",), [], serve.run),
    (("mcp",), [], mcp.run),
    (("keys", "add"), ["--user", "ann"], keys.run_add),
    (("keys", "list"), [], keys.run_list),
    (("keys", "revoke"), ["k1"], keys.run_revoke),
    (("migrate",), ["--from", "a.db", "--to", "b.db"], migrate.run),
    (("demo",), [], demo.run),
]


@pytest.mark.parametrize(("command", "rest", "func"), MINIMAL,
                         ids=[" ".join(command) for command, _, _ in MINIMAL])
def test_every_subcommand_runs_its_own_modules_function(
        command: tuple[str, ...], rest: list[str],
        func: Callable[[argparse.Namespace], int]) -> None:
    assert build_parser().parse_args([*command, *rest]).func is func


def _subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
                 ) -> list[tuple[str, ...]]:
    """Every leaf subcommand path of ``parser``, in the order help lists them."""
    found: list[tuple[str, ...]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found += _subcommands(child, (*path, name)) or [(*path, name)]
    return found


def test_the_table_covers_every_subcommand_in_help_order() -> None:
    assert _subcommands(build_parser()) == [command for command, _, _ in MINIMAL]


def test_importing_the_command_line_loads_no_engine_or_model() -> None:
    # ``chronorag --help`` stays fast: commands import the engine when they run.
    code = ("import sys, chronorag.cli; heavy = ['chronorag.engine', 'chronorag.demo', "
            "'chronorag.serve', 'chronorag.evaluate', 'onnxruntime', 'torch']; "
            "print([m for m in heavy if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.strip() == "[]"
