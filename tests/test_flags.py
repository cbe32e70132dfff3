"""Flags are named once, in ``chronorag.flags``: code sets and tests members, so mypy
catches a misspelt flag. A string literal spelling a flag anywhere else in the source is
either a flag written by hand (use the member) or listed below with what it is instead."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from chronorag.flags import Flag

SRC = Path(__file__).resolve().parents[1] / "src" / "chronorag"

NOT_FLAGS = {
    # Document and semantic-layer statuses share two words with the validity flags.
    ("model.py", "draft"), ("model.py", "retired"),
    ("semantic/index.py", "draft"), ("semantic/index.py", "retired"),
    ("semantic/model.py", "draft"), ("semantic/model.py", "retired"),
    # The review report's key for its list of undated documents, and its item kind.
    ("review.py", "undated"),
    # The coverage report's count of documents that state no time.
    ("coverage.py", "undated"),
    # The authority prior's field that lists source types that never decide.
    ("rank/authority.py", "non_decisive"),
}


def _spelt_flags() -> set[tuple[str, str]]:
    values = {str(f) for f in Flag}
    found = set()
    for path in SRC.rglob("*.py"):
        if path.name == "flags.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in values:
                found.add((path.relative_to(SRC).as_posix(), node.value))
    return found


def test_no_flag_is_spelt_outside_its_enum() -> None:
    assert _spelt_flags() <= NOT_FLAGS


def test_every_exception_is_still_there() -> None:
    # A stale entry would let a later hand-written flag in that module pass unseen.
    assert _spelt_flags() >= NOT_FLAGS


def test_values_are_unique_snake_case_and_serialise_as_their_value() -> None:
    values = [str(f) for f in Flag]
    assert len(set(values)) == len(values)
    assert all(v == v.lower() and " " not in v for v in values)
    assert json.dumps([Flag.VIOLATES_TIME]) == '["violates_time"]'
