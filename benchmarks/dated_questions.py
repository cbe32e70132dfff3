"""Dated conversations (LoCoMo's development half): evidence recall and "when" answers of
the default pipeline against hybrid+rerank, every question asked at its own ``now``.

    python ../shared/tools/locomo_dev.py LOCOMO_GITDIR /tmp/locomo-dev   # evaluation only
    python benchmarks/dated_questions.py /tmp/locomo-dev [--methods chronorag,hybrid+rerank]
                                         [--out rows.jsonl] [--db DIR] [--limit N]

One store per conversation (every turn a document, ``occurred_at`` the session's time).
Recall@k is the share of a question's gold turns among the first k distinct documents
(as LoCoMo scores it); category 5 (adversarial, no evidence) is left out. "time answers"
counts temporal questions whose gold is one year, month or day and whose short answer
names it at the gold's granularity (``evaluate.metrics.judge_short_answer``, reading the
answer's ``answer_time``). ``chronorag eval retrieval DIR`` reports the same recall and SA
per conversation; this script pools the conversations and splits by category.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from chronorag import Engine
from chronorag.answer.build import build_answer
from chronorag.evaluate.harness import forget_question_vectors, method_config, stated_time
from chronorag.evaluate.metrics import gold_time, judge_short_answer, percentile

KS = (1, 5, 10, 25, 50)
INGESTED = datetime(2026, 1, 1, tzinfo=UTC)


def _one(engine: Engine, q: dict[str, Any], method: str) -> dict[str, Any]:
    config = method_config(method)
    forget_question_vectors(engine, config)
    now = datetime.fromisoformat(q["now"]).replace(tzinfo=UTC)
    started = time.perf_counter()
    query = engine.query(q["question"], now=now, k=50)
    ranked = engine.retrieve(query, config=config)
    answer = build_answer(query, ranked.hits, upcoming=ranked.upcoming,
                          documents=ranked.documents, min_semantic=config.min_semantic)
    ms = (time.perf_counter() - started) * 1000
    ids = list(dict.fromkeys(h.chunk.doc_id for h in ranked.hits))
    gold = set(q["evidence"])
    row = {"recall": {k: len(gold & set(ids[:k])) / len(gold) for k in KS}, "ms": ms,
           "status": answer.status.value, "answer": answer.answer}
    if q["category_name"] == "temporal" and gold_time(q["answers"][0], now=now):
        row["time_right"] = judge_short_answer(
            answer.answer, q["answers"], now=now,
            stated=stated_time(answer.extras.get("answer_time"))).right
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path)
    parser.add_argument("--methods", default="chronorag,hybrid+rerank")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--db", type=Path,
                        help="keep one store a conversation in this folder and reuse it")
    parser.add_argument("--limit", type=int, default=0,
                        help="every n-th question only (evenly spaced), 0 for all")
    args = parser.parse_args()
    methods = args.methods.split(",")
    rows = []
    for conv in sorted(p for p in args.root.iterdir() if p.is_dir()):
        questions = [json.loads(line) for line in (conv / "questions.jsonl").open()]
        questions = [q for q in questions if q["category"] != 5 and q["evidence"]]
        if args.limit:
            questions = questions[:: args.limit]
        with tempfile.TemporaryDirectory() as tmp:
            folder = args.db or Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            with Engine(folder / f"{conv.name}.db") as engine:
                engine.ingest([conv / "corpus.jsonl"], now=INGESTED)
                for q in questions:
                    rows.append({"id": q["id"], "category": q["category_name"],
                                 **{m: _one(engine, q, m) for m in methods}})
    if args.out:
        args.out.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    _table(rows, methods)


def _table(rows: list[dict[str, Any]], methods: list[str]) -> None:
    print("| method | category | questions | " + " | ".join(f"R@{k}" for k in KS)
          + " | time answers right | not_found | p50 ms |")
    print("|---|---|---:|" + "---:|" * (len(KS) + 3))
    for m in methods:
        for cat in [None, *sorted({r["category"] for r in rows})]:
            sel = [r for r in rows if cat is None or r["category"] == cat]
            recall = " | ".join(f"{sum(r[m]['recall'][k] for r in sel) / len(sel):.3f}"
                                for k in KS)
            timed = [r[m]["time_right"] for r in sel if "time_right" in r[m]]
            right = f"{sum(timed)}/{len(timed)}" if timed else ""
            missing = sum(r[m]["status"] == "not_found" for r in sel)
            p50 = percentile([r[m]["ms"] for r in sel], 50)
            print(f"| {m} | {cat or 'all'} | {len(sel)} | {recall} | {right} | {missing} | "
                  f"{p50:.0f} |")


if __name__ == "__main__":
    main()
