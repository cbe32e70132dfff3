"""`chronorag demo`: ingest the bundled corpus into a fresh store and ask it questions."""

from __future__ import annotations

import tempfile
import time
from datetime import datetime, timedelta, timezone
from importlib import resources
from pathlib import Path
from typing import TextIO

from chronorag.engine import Engine
from chronorag.render import print_answer

SHANGHAI = timezone(timedelta(hours=8))
# The demo is reproducible: every question is asked at this fixed moment (a Wednesday).
DEMO_NOW = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)

QUESTIONS: tuple[tuple[str, str | None], ...] = (
    # 45 days now, 21 days from 2026-12-01 (upcoming); the FAQ and the script are copies,
    # the draft never answers and the forum post never decides.
    ("How many days do I have to return an item?", None),
    # The time in the question sets as_of: the new policy applies, the old one and its
    # copies are superseded.
    ("How many days did I have to return an item on 20 December 2026?", None),
    # Two owners, two different answers: uncertain, both owners named.
    ("How long is the warranty on electronics?", None),
    ("Who was Chancellor of Germany on 26 September 2021?", None),
    # 我 is the asking user: only their records of last Tuesday; the answer is the time.
    ("上周二我几点吃的午饭？", "me"),
    # Mom's health record is hers: "me" was not granted access, so it is not found.
    ("妈妈上周四几点去的医院？", "me"),
)


def demo_corpus() -> Path:
    """Folder of the demo documents shipped inside the package."""
    return Path(str(resources.files("chronorag") / "data" / "demo"))


def demo_people() -> Path:
    """The demo's people file: who 我 and 妈妈 are, and who may see whose records."""
    return Path(str(resources.files("chronorag") / "data" / "demo_people" / "people.json"))


def run_demo(*, db: str | None, out: TextIO) -> int:
    """Ingest the demo corpus and print the answers; returns the exit code."""
    with tempfile.TemporaryDirectory() as tmp:
        path = db or str(Path(tmp) / "demo.db")
        with Engine(path, tz=SHANGHAI) as engine:
            started = time.perf_counter()
            report = engine.ingest([demo_corpus()], now=DEMO_NOW)
            engine.load_people(demo_people())
            out.write(f"Ingested {len(report.added) + len(report.replaced)} documents "
                      f"({report.chunks} chunks) in {time.perf_counter() - started:.1f} s "
                      f"into {path if db else 'a temporary store'}\n")
            out.write(f"Every question is asked at now = {DEMO_NOW.isoformat()}\n\n")
            for question, user in QUESTIONS:
                answer = engine.ask(question, now=DEMO_NOW, user=user, k=3)
                print_answer(answer, file=out)
                out.write("\n")
    return 0
