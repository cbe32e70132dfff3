"""How often a question's time falls in a hole of its gold document's coverage.

Measures whether "a question whose time falls in a hole of its evidence's group is not
sure" would hold as a rule: on a set whose answers are right, every question counted here
would be wrongly turned uncertain. Groups by title (``chronorag coverage``), holes from
what the texts state (see ``chronorag.coverage``).

    python benchmarks/coverage_holes.py ../shared/data/timeqa --db /work/dev/db/timeqa.db
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from pathlib import Path

from chronorag.coverage import coverage
from chronorag.engine import Engine
from chronorag.people import Directory
from chronorag.understand import understand

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a benchmark folder with questions.jsonl")
    parser.add_argument("--db", required=True, help="the store its corpus was ingested into")
    args = parser.parse_args()
    with Engine(args.db) as engine:
        documents = engine.store.documents(text=False)
        report = coverage(documents, engine.store.chunks(), by="title", now=NOW)
    title = {d.id: d.title for d in documents}
    timed = in_hole = 0
    for line in (args.folder / "questions.jsonl").open(encoding="utf-8"):
        question = json.loads(line)
        asked = understand(question["question"], now=NOW, tz=UTC,
                           people=Directory()).constraint.interval
        gold = [e["doc_id"] if isinstance(e, dict) else e for e in question.get("evidence", [])]
        group = report.group(title.get(gold[0], "")) if gold else None
        if asked is None or group is None:
            continue
        timed += 1
        in_hole += bool(group.missing(asked))
    print("| questions with a time and a gold document | asked time in a hole of its group |")
    print("|---:|---:|")
    print(f"| {timed} | {in_hole} ({in_hole / max(timed, 1):.0%}) |")


if __name__ == "__main__":
    main()
