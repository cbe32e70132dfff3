"""How to combine relevance and temporal fit: the gated rule against a plain product.

    python benchmarks/combination_rules.py [--limit N] [--db benchmarks/out/timeqa-e5.db]

Every answerable TimeQA question goes once through the default pipeline (`chronorag ask`'s:
retrieval, sentence-window cross-encoder, temporal stage). Its ranked hits, with their
relevance scores, are then re-ordered by each combination rule below — the same candidates
and the same cross-encoder scores for every rule — and AR@1 / ER@1 are computed per level.
The baseline row is the plain product (semantic × fit), in the same process.
"""

from __future__ import annotations

import argparse

from timeqa_store import DATA, DEFAULT_DB, open_timeqa

from chronorag.config import get_preset
from chronorag.evaluate.harness import EVAL_NOW, load_questions
from chronorag.evaluate.metrics import Span, answer_hit_ranks, evidence_hit_rank
from chronorag.model import Hit
from chronorag.rank.temporal import ChronoTemporal

RULES: dict[str, ChronoTemporal] = {
    "product (baseline)": ChronoTemporal(mode="product"),
    "gated, relevance x fit in a tier": ChronoTemporal(fit_weight=1.0),
    "gated, relevance x fit^0.25 in a tier": ChronoTemporal(fit_weight=0.25),
    "gated, relevance alone in a tier (default)": ChronoTemporal(),
}


def _hits_at_one(hits: list[Hit], answers: tuple[str, ...],
                 evidence: tuple[Span, ...]) -> tuple[bool, bool]:
    top = hits[:1]
    answer = answer_hit_ranks([h.chunk.text for h in top], answers) == 1
    spans = [Span(h.chunk.doc_id, h.chunk.start, h.chunk.end) for h in top]
    return answer, evidence_hit_rank(spans, evidence) == 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--db", default=str(DEFAULT_DB))
    args = parser.parse_args()
    config = get_preset("default")
    questions = [q for q in load_questions(DATA / "questions.jsonl", limit=args.limit)
                 if q.answers]
    scores: dict[tuple[str, str], list[tuple[bool, bool]]] = {}
    with open_timeqa(args.db) as engine:
        for q in questions:
            query = engine.query(q.text, now=EVAL_NOW)
            hits = engine.retrieve(query, config=config).hits
            for name, rule in RULES.items():
                scores.setdefault((name, q.level), []).append(
                    _hits_at_one(rule.rerank(query, hits), q.answers, q.evidence))
    print("| rule | easy AR@1 | easy ER@1 | hard AR@1 | hard ER@1 | hard / easy AR@1 |")
    print("|---|---|---|---|---|---|")
    for name in RULES:
        easy, hard = scores.get((name, "easy"), []), scores.get((name, "hard"), [])
        e_ar, e_er = _share(easy, 0), _share(easy, 1)
        h_ar, h_er = _share(hard, 0), _share(hard, 1)
        print(f"| {name} | {e_ar:.3f} | {e_er:.3f} | {h_ar:.3f} | {h_er:.3f} | "
              f"{h_ar / max(e_ar, 1e-9):.3f} |")


def _share(rows: list[tuple[bool, bool]], column: int) -> float:
    return sum(r[column] for r in rows) / max(len(rows), 1)


if __name__ == "__main__":
    main()
