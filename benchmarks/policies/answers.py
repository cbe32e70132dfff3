"""Short answers of the policy question sets, asked in one process over a store run.py made.

    python benchmarks/policies/answers.py DB QUESTIONS.jsonl [QUESTIONS.jsonl ...]
        [--json OUT] [--against OLD.json]

run.py drives the CLI, one process a question, as a new user would; this script asks the
same questions through ``Engine.ask`` in one process (seconds instead of minutes), to
compare two versions of the answer code over one store. Prints, per question file, the
short answers exactly right (``metrics.exact``) by status; ``--json`` writes every
question's answer, status and evidence; ``--against`` lists the questions whose answer or
status differs from an earlier ``--json`` and what that did to its exactness.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
# A sibling module: benchmarks/ is not a package.
import metrics

from chronorag.clock import parse_moment
from chronorag.engine import Engine
from chronorag.model import Asking


def ask_all(db: Path, files: list[Path]) -> list[dict[str, Any]]:
    rows = []
    with Engine(str(db)) as engine:
        engine.warm_up()
        for path in files:
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                q = json.loads(line)
                as_of = parse_moment(q["as_of"]) if q.get("as_of") else None
                answer = engine.ask(q["question"], Asking(now=parse_moment(q["now"]), as_of=as_of,
                                                          k=5)).to_json()
                rows.append({"set": path.stem, "id": q["id"], "kind": q.get("kind"),
                             "question": q["question"], "gold": q["answer"],
                             "answer": answer.get("answer"), "status": answer.get("status"),
                             "exact": metrics.exact(answer.get("answer"), q["answer"],
                                                    q.get("accept", [])),
                             "evidence": [e.get("doc_id") for e in answer.get("evidence", [])]})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| set | right | of | right and answered | wrong and answered |",
             "|---|---:|---:|---:|---:|"]
    for name in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == name]
        count = Counter((r["status"], r["exact"]) for r in mine)
        right = sum(1 for r in mine if r["exact"])
        lines.append(f"| {name} | {right} | {len(mine)} | {count[('answered', True)]} | "
                     f"{count[('answered', False)]} |")
    return "\n".join(lines)


def changes(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[str]:
    before = {r["id"]: r for r in old}
    out = []
    for row in new:
        was = before.get(row["id"])
        if was and (was["answer"], was["status"]) != (row["answer"], row["status"]):
            out.append(f"{row['id']}: {was['exact']} -> {row['exact']}  "
                       f"{(was['answer'] or '')[:60]!r} -> {(row['answer'] or '')[:60]!r}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", type=Path, help="a store run.py ingested (run.py --db)")
    parser.add_argument("questions", type=Path, nargs="+")
    parser.add_argument("--json", type=Path, help="write every answer here")
    parser.add_argument("--against", type=Path, help="an earlier --json to compare with")
    args = parser.parse_args()
    if not args.db.exists():
        parser.error(f"{args.db}: no such store")
    rows = ask_all(args.db, args.questions)
    print(table(rows))
    if args.against:
        print("\n".join(changes(json.loads(args.against.read_text(encoding="utf-8")), rows)))
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
