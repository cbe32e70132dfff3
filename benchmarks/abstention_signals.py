"""Can the ranking's own scores tell unanswerable TimeQA questions from answerable ones?

    python benchmarks/abstention_signals.py [--limit N] [--db benchmarks/out/timeqa-e5.db]

Runs the hard questions through the default pipeline (`chronorag ask`'s) and, for signals
an abstention rule could use, prints how well each separates answerable from unanswerable
questions (AUC: 0.5 = no better than chance), then the trade-off of the best one as a
threshold: share of unanswerable questions abstained against share of answerable ones
still answered. The baseline row is the pipeline's own status rule, measured in the same
run.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from timeqa_store import DATA, DEFAULT_DB, open_timeqa

from chronorag.answer.build import build_answer
from chronorag.config import get_preset
from chronorag.evaluate.harness import EVAL_NOW, load_questions
from chronorag.model import AnswerStatus, Hit

Signal = Callable[[Sequence[Hit]], float]
Row = tuple[bool, bool, dict[str, float]]


def _semantic(hit: Hit) -> float:
    return float(hit.scores.get("semantic", 0.0))


SIGNALS: dict[str, Signal] = {
    "top semantic (cross-encoder, best window)": lambda h: _semantic(h[0]),
    "top temporal fit": lambda h: float(h[0].scores.get("temporal", 1.0)),
    "top semantic x fit": lambda h: _semantic(h[0]) * float(h[0].scores.get("temporal", 1.0)),
    "margin top1 - top2 semantic": lambda h: _semantic(h[0]) - (_semantic(h[1]) if len(h) > 1
                                                                 else 0.0),
    "satisfying passages in top 5": lambda h: float(sum("time_verified" in x.flags
                                                        for x in h[:5])),
}


def auc(positive: Sequence[float], negative: Sequence[float]) -> float:
    """Probability that a random positive scores above a random negative (ties: half)."""
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / max(len(positive) * len(negative), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--db", default=str(DEFAULT_DB))
    args = parser.parse_args()
    config = get_preset("default")
    questions = [q for q in load_questions(DATA / "questions.jsonl", limit=args.limit)
                 if q.level == "hard"]
    rows: list[Row] = []
    with open_timeqa(args.db) as engine:
        for q in questions:
            query = engine.query(q.text, now=EVAL_NOW)
            ranked = engine.retrieve(query, config=config)
            answer = build_answer(query, ranked.hits, documents=ranked.documents,
                                  min_semantic=config.min_semantic)
            values = {name: f(ranked.hits) for name, f in SIGNALS.items()} if ranked.hits \
                else dict.fromkeys(SIGNALS, 0.0)
            rows.append((bool(q.answers), answer.status is AnswerStatus.ANSWERED, values))
    answerable = [r for r in rows if r[0]]
    unanswerable = [r for r in rows if not r[0]]
    print(f"{len(answerable)} answerable, {len(unanswerable)} unanswerable hard questions\n")
    aucs = {name: auc([r[2][name] for r in answerable], [r[2][name] for r in unanswerable])
            for name in SIGNALS}
    print("| signal | AUC answerable > unanswerable |\n|---|---|")
    for name, value in aucs.items():
        print(f"| {name} | {value:.3f} |")
    best = max(aucs, key=lambda n: aucs[n])
    print(f"\nThreshold on '{best}' on top of the pipeline's rule:\n")
    print("| rule | unanswerable abstained | answerable answered |\n|---|---|---|")
    _row("pipeline status (baseline)", rows, lambda r: r[1])
    levels = sorted({round(r[2][best], 2) for r in rows})
    for threshold in levels[:: max(len(levels) // 8, 1)]:
        _row(f"answered and {best} >= {threshold:.2f}", rows,
             _above(best, threshold))


def _above(signal: str, threshold: float) -> Callable[[Row], bool]:
    return lambda r: r[1] and r[2][signal] >= threshold


def _row(name: str, rows: Sequence[Row], answers: Callable[[Row], bool]) -> None:
    unanswerable = [not answers(r) for r in rows if not r[0]]
    answerable = [answers(r) for r in rows if r[0]]
    print(f"| {name} | {sum(unanswerable) / max(len(unanswerable), 1):.3f} | "
          f"{sum(answerable) / max(len(answerable), 1):.3f} |")


if __name__ == "__main__":
    main()
