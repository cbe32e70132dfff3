"""The multilingual judge against the pipeline without it, on XQuAD's four sets.

    python benchmarks/multilingual_judge.py --db DIR [--data ../shared/data/xquad]
        [--sets en-en,en-zh,zh-en,zh-zh] [--limit 120] [--questions sample|rest|all]

Both configurations run in one process over the same stores (``DIR/<set>.db``, ingested
first when missing or stale; ingest stores the judge's vectors either way): ``default``
without judges, so a pair the English cross-encoder cannot read keeps its retrieval
relevance, and ``default`` as shipped. ``--questions sample`` is the evenly spaced sample
of ``--limit`` questions that ``chronorag eval retrieval --limit`` asks (the one the
judge's floors were placed on), ``rest`` the set's other questions, never looked at while
building the judge, ``all`` both. AR@1 / ER@1 and p50 per set, and the ratio of p50s.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from chronorag.engine import Engine
from chronorag.evaluate.harness import (
    EVAL_NOW,
    Question,
    evaluate_configs,
    load_questions,
    method_config,
)
from chronorag.evaluate.metrics import percentile, recall_at

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "xquad"
SETS = ("en-en", "en-zh", "zh-en", "zh-zh")


def questions(path: Path, *, limit: int, which: str) -> list[Question]:
    everything = load_questions(path)
    sample = load_questions(path, limit=limit)
    if which == "sample":
        return sample
    if which == "rest":
        chosen = {q.id for q in sample}
        return [q for q in everything if q.id not in chosen]
    return everything


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="folder of <set>.db stores")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--limit", type=int, default=120)
    parser.add_argument("--questions", choices=("sample", "rest", "all"), default="rest")
    args = parser.parse_args(argv)
    shipped = method_config("chronorag")
    configs = {"without judge": replace(shipped, judges=()), "with judge": shipped}
    print(f"| set | questions | {' | '.join(f'{n} AR@1 / ER@1 / p50' for n in configs)} "
          "| p50 ratio |")
    print("|---|---:|" + "---|" * len(configs) + "---:|")
    args.db.mkdir(parents=True, exist_ok=True)
    for name in args.sets.split(","):
        folder = args.data / name
        chosen = questions(folder / "questions.jsonl", limit=args.limit, which=args.questions)
        with Engine(args.db / f"{name}.db") as engine:
            engine.ingest([folder / "corpus.jsonl"], now=EVAL_NOW)
            results = evaluate_configs(engine, chosen, configs)
        cells, p50s = [], []
        for result in results.values():
            ranks = [r for level in result.answer_ranks.values() for r in level]
            evidence = [r for level in result.evidence_ranks.values() for r in level]
            p50s.append(percentile(result.latencies_ms, 50))
            cells.append(f"{recall_at(ranks, 1):.3f} / {recall_at(evidence, 1):.3f} / "
                         f"{p50s[-1]:.0f} ms")
        ratio = p50s[1] / p50s[0] if p50s[0] else float("nan")
        print(f"| {name} | {len(chosen)} | {' | '.join(cells)} | {ratio:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
