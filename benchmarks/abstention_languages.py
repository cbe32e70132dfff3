"""Does a question abstain when its answer is not in the store, in every language pair?

    python benchmarks/abstention_languages.py [--data ../shared/data/xquad] [--limit 120]
        [--sets en-en,en-zh,zh-en,zh-zh] [--split article|paragraph] [--dump FILE]

For each XQuAD set the corpus is split into two halves: by ``article`` (alternate articles in
file order: an unanswerable question finds no page about its subject, the case of a question
about something the store does not cover) or by ``paragraph`` (alternate paragraphs: the
missing paragraph's neighbours from the same article stay in the store, the hardest
negative, which no relevance floor can tell apart). Each half is ingested into its own
store, and every question is asked of both through the default pipeline (`chronorag ask`'s
configuration):
against the half holding its gold paragraph it is *answerable*, against the other half it
is *unanswerable* and must come back ``not_found``. Nothing is filtered after the fact, so
the reranker and the answer stage see exactly what a store without the answer gives them.

Per set it prints the relevance of the top hit (``scores["semantic"]``, what the answer
stage compares with ``min_semantic``), the top hit's dense cosine and the best multilingual
judge score among the first ten hits (``rank.multilingual``, uncalibrated; its 97th
percentile over unanswerable questions places each pair's range) for both kinds of
question, then a table of relevance floors against the share of answerable questions
still answered (status other than ``not_found``) and the share of unanswerable ones
abstained (``not_found``); the first row is the current setting. Each store holds half of
the set's paragraphs, so there are fewer distractors than in the full set.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path

from chronorag.answer.build import build_answer
from chronorag.engine import Engine
from chronorag.evaluate.harness import EVAL_NOW, Question, load_questions, method_config
from chronorag.model import AnswerStatus

SETS = ("en-en", "en-zh", "zh-en", "zh-zh")
FLOORS = (0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.50, 0.60)


@dataclass(frozen=True)
class Outcome:
    """One question asked of one store: whether the gold paragraph was there, the top
    hit's relevance and dense cosine, and for each floor whether it answered."""

    answerable: bool
    semantic: float
    cosine: float
    answered: dict[float, bool]
    judge: float = float("nan")


def _halves(corpus: Path, folder: Path, *, split: str) -> tuple[list[Path], list[set[str]]]:
    lines = [line for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    titles = list(dict.fromkeys(json.loads(line)["title"] for line in lines))
    side = {title: i % 2 for i, title in enumerate(titles)}
    paths, ids = [], []
    for half in (0, 1):
        if split == "article":
            chosen = [line for line in lines if side[json.loads(line)["title"]] == half]
        else:
            chosen = lines[half::2]
        path = folder / f"half{half}.jsonl"
        path.write_text("\n".join(chosen) + "\n", encoding="utf-8")
        paths.append(path)
        ids.append({json.loads(line)["id"] for line in chosen})
    return paths, ids


def _ask(engine: Engine, q: Question, *, answerable: bool, floors: list[float]) -> Outcome:
    config = method_config("chronorag")
    query = engine.query(q.text, now=EVAL_NOW, k=20)
    ranked = engine.retrieve(query, config=config)
    top = ranked.hits[0] if ranked.hits else None
    answered = {}
    for floor in floors:
        answer = build_answer(query, ranked.hits, documents=ranked.documents,
                              min_semantic=floor)
        answered[floor] = answer.status is not AnswerStatus.NOT_FOUND
    judge = engine.components.judge(config.judges)
    scores = [j.score for j in (judge.judge(q.text, ranked.hits[:10]) if judge else ()) if j]
    return Outcome(answerable,
                   float(top.scores.get("semantic", 0.0)) if top else 0.0,
                   float(top.scores.get("dense", 0.0)) if top else 0.0,
                   answered, max(scores, default=float("nan")))


def run_set(folder: Path, *, limit: int, split: str) -> list[Outcome]:
    questions = load_questions(folder / "questions.jsonl", limit=limit)
    baseline = method_config("chronorag").min_semantic
    floors = [baseline, *FLOORS]
    outcomes = []
    with tempfile.TemporaryDirectory() as tmp:
        paths, ids = _halves(folder / "corpus.jsonl", Path(tmp), split=split)
        for half, path in enumerate(paths):
            with Engine(Path(tmp) / f"half{half}.db") as engine:
                engine.ingest([path], now=EVAL_NOW)
                for q in questions:
                    gold = {span.doc_id for span in q.evidence}
                    outcomes.append(_ask(engine, q, answerable=bool(gold & ids[half]),
                                         floors=floors))
    return outcomes


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return f"{quartiles[0]:.3f} / {statistics.median(values):.3f} / {quartiles[2]:.3f}"


def _p97(outcomes: list[Outcome]) -> str:
    values = [o.judge for o in outcomes if o.judge == o.judge]
    return f"{statistics.quantiles(values, n=100)[96]:.3f}" if len(values) > 1 else "-"


def report(name: str, outcomes: list[Outcome]) -> list[str]:
    yes = [o for o in outcomes if o.answerable]
    no = [o for o in outcomes if not o.answerable]
    floors = list(outcomes[0].answered) if outcomes else []
    lines = [f"### {name} ({len(yes)} answerable, {len(no)} unanswerable)", "",
             "| top hit (q1 / median / q3) | answerable | unanswerable |", "|---|---|---|",
             f"| relevance | {_spread([o.semantic for o in yes])} | "
             f"{_spread([o.semantic for o in no])} |",
             f"| dense cosine | {_spread([o.cosine for o in yes])} | "
             f"{_spread([o.cosine for o in no])} |",
             f"| judge score | {_spread([o.judge for o in yes])} | "
             f"{_spread([o.judge for o in no])} |", "",
             f"97th percentile of the unanswerable judge scores: {_p97(no)}", "",
             "| min relevance | answerable answered | unanswerable abstained |",
             "|---|---|---|"]
    for i, floor in enumerate(floors):
        kept = sum(o.answered[floor] for o in yes) / len(yes) if yes else 0.0
        held = sum(not o.answered[floor] for o in no) / len(no) if no else 0.0
        label = f"{floor:.2f} (current)" if i == 0 else f"{floor:.2f}"
        lines.append(f"| {label} | {kept:.3f} | {held:.3f} |")
    return [*lines, ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/xquad"))
    parser.add_argument("--limit", type=int, default=120)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--split", choices=("article", "paragraph"), default="article")
    parser.add_argument("--dump", type=Path, help="write every outcome here (JSON lines)")
    args = parser.parse_args()
    for name in args.sets.split(","):
        outcomes = run_set(args.data / name, limit=args.limit, split=args.split)
        print("\n".join(report(name, outcomes)), flush=True)
        if args.dump:
            with args.dump.open("a", encoding="utf-8") as out:
                for o in outcomes:
                    out.write(json.dumps({"set": name, "answerable": o.answerable,
                                          "semantic": o.semantic, "cosine": o.cosine,
                                          "judge": o.judge}) + "\n")


if __name__ == "__main__":
    main()
