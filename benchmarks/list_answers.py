"""List answers for questions about everything in a period, against the single answer.

Runs the questions of a benchmark folder whose gold has several answers (TimeQA: "In 1960,
where was X going to school?" with two schools), then the written cases of
tests/cases/listing, through the default pipeline twice in one process: with list answers
(``answer.listing``) and without them (the baseline). Prints, per set, how many answers
were lists and how many contain every gold answer and at least one (text match as in
``chronorag eval``).

    python benchmarks/list_answers.py ../shared/data/timeqa --db /work/dev/db/timeqa.db
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from chronorag.answer import build
from chronorag.engine import Engine
from chronorag.evaluate.metrics import text_answer_right
from chronorag.flags import Flag

NOW = datetime(2026, 1, 1, tzinfo=UTC)
CASES = Path(__file__).parents[1] / "tests" / "cases" / "listing"


@contextmanager
def without_lists() -> Iterator[None]:
    """The baseline: the answer stage without list answers."""
    listed = build.list_answer
    build.list_answer = lambda *args, **kwargs: None
    try:
        yield
    finally:
        build.list_answer = listed


def score(engine: Engine, questions: list[dict[str, Any]], *, now: datetime) -> tuple[int, ...]:
    lists = every = some = 0
    for q in questions:
        answer = engine.ask(q["question"], now=now)
        text = answer.answer or ""
        golds = q["golds"]
        lists += Flag.LISTED in answer.flags
        every += bool(text) and all(text_answer_right(text, g) for g in golds)
        some += bool(text) and any(text_answer_right(text, g) for g in golds)
    return len(questions), lists, every, some


def written() -> list[dict[str, Any]]:
    cases = [json.loads(line) for line in (CASES / "questions.jsonl").open(encoding="utf-8")]
    return [{"question": c["question"],
             "golds": [e.split(" (")[0].split("（")[0]
                       for e in c["answer"].replace("；", "; ").split("; ")]}
            for c in cases if "answer" in c and c["flags"] == ["listed"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a benchmark folder with questions.jsonl")
    parser.add_argument("--db", required=True, help="the store its corpus was ingested into")
    args = parser.parse_args()
    several = [{"question": q["question"], "golds": q["answers"]}
               for q in map(json.loads, (args.folder / "questions.jsonl").open(encoding="utf-8"))
               if len(q.get("answers", [])) > 1]
    rows = []
    with Engine(args.db) as engine:
        for mode in ("without lists", "with lists"):
            with without_lists() if mode == "without lists" else _nothing():
                rows.append((args.folder.name, mode, *score(engine, several, now=NOW)))
    with Engine(":memory:") as engine:
        engine.ingest([CASES / "corpus.jsonl"], now=NOW)
        for mode in ("without lists", "with lists"):
            with without_lists() if mode == "without lists" else _nothing():
                rows.append(("written cases", mode, *score(engine, written(), now=NOW)))
    print("| set | answers | questions | lists | every gold | some gold |")
    print("|---|---|---:|---:|---:|---:|")
    for name, mode, n, lists, every, some in rows:
        print(f"| {name} | {mode} | {n} | {lists} | {every} | {some} |")


@contextmanager
def _nothing() -> Iterator[None]:
    yield


if __name__ == "__main__":
    main()
