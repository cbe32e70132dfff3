"""Short answers on the policy case set (tests/cases/policy_answers): exact and judged.

Ingests the Markdown-like policies into a fresh store, asks each question at a fixed
``now`` (its ``as_of`` when it has one) and reports, per question and overall, whether the
short answer is exactly the expected one, whether ``evaluate.metrics.judge_short_answer``
counts it right (the gold's words inside the answer: the harness's SA), the status, and
whether ``upcoming`` lists the expected documents.

    python benchmarks/policy_answers.py [--cases DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from chronorag import Engine
from chronorag.evaluate.metrics import judge_short_answer

CASES = Path(__file__).parents[1] / "tests" / "cases" / "policy_answers"
NOW = datetime.fromisoformat("2026-06-15T12:00:00+00:00")


def run(cases: Path) -> list[dict[str, Any]]:
    questions = [json.loads(line) for line in
                 (cases / "questions.jsonl").read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    rows = []
    with tempfile.TemporaryDirectory() as folder, Engine(Path(folder) / "kb.db") as engine:
        engine.ingest([cases / "corpus.jsonl"], now=NOW)
        for case in questions:
            as_of = datetime.fromisoformat(case["as_of"]) if "as_of" in case else None
            answer = engine.ask(case["question"], now=NOW, as_of=as_of)
            upcoming = [e.doc_id for e in answer.upcoming]
            rows.append({
                "question": case["question"], "expected": case["answer"],
                "answer": answer.answer, "status": answer.status.value,
                "exact": answer.answer == case["answer"],
                "judged": judge_short_answer(answer.answer, [case["answer"]], now=NOW).right,
                "status_right": answer.status.value == case.get("status",
                                                                answer.status.value),
                "upcoming_right": upcoming == case.get("upcoming", upcoming),
                "flags": list(answer.flags),
            })
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run(args.cases)
    summary = {key: sum(r[key] for r in rows) / len(rows)
               for key in ("exact", "judged", "status_right", "upcoming_right")}
    if args.json:
        json.dump({"questions": rows, "summary": summary}, sys.stdout, ensure_ascii=False,
                  indent=1)
        sys.stdout.write("\n")
        return 0
    for r in rows:
        mark = "ok " if r["exact"] else "MISS"
        sys.stdout.write(f"{mark} {r['status']:<9} {r['question']}\n     -> {r['answer']!r}"
                         f" (expected {r['expected']!r}) {r['flags']}\n")
    sys.stdout.write(" ".join(f"{k} {v:.3f}" for k, v in summary.items()) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
