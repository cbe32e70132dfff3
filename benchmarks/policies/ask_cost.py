"""What a second reading of the window reranker costs, in one process.

    python benchmarks/policies/ask_cost.py DB QUESTIONS.jsonl [QUESTIONS.jsonl ...]
        [--reading ask|answering|other_script]

Asks every question four times over the store ``run.py`` made, alternating one reading of
the window reranker off and on, so both see the same machine load: ``ask`` (default), the
asking sentence read apart (``rank.rerank_windows.asked_sentence``); ``answering``, the
answering sentence chosen anew in the most relevant passages
(``WindowReranker._answered``); ``other_script``, the Chinese passages gathered for a
question in English (``pipeline.across``). Prints the p50 of ``Engine.ask`` each way, over all
questions and over those with a case stated before the question, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from chronorag.clock import parse_moment
from chronorag.engine import Engine
from chronorag.model import Asking, Hit, Query
from chronorag.pipeline import search
from chronorag.rank import rerank_windows
from chronorag.rank.rerank_windows import WindowReranker
from chronorag.retrieve.tokenize import is_mostly_cjk

ASKED = rerank_windows.asked_sentence
ANSWERED = WindowReranker._answered
GATHERED = search.other_script_passages


def _unanswered(self: WindowReranker, query: Query, read: list[Hit]) -> list[Hit]:
    return read


def _ungathered(query: Query, hits: list[Hit], **_: object) -> list[Hit]:
    return list(hits)


def switch(reading: str, *, on: bool) -> None:
    """Turn ``reading`` of the search or the window reranker on or off."""
    if reading == "ask":
        rerank_windows.asked_sentence = ASKED if on else (lambda _text: None)
    elif reading == "other_script":
        search.other_script_passages = GATHERED if on else _ungathered
    else:
        WindowReranker._answered = ANSWERED if on else _unanswered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("questions", type=Path, nargs="+")
    parser.add_argument("--reading", choices=("ask", "answering", "other_script"),
                        default="ask")
    args = parser.parse_args()
    questions = [json.loads(line) for path in args.questions
                 for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    seconds: dict[bool, list[list[float]]] = {False: [], True: []}
    with Engine(str(args.db)) as engine:
        engine.warm_up()
        for q in questions:
            as_of = parse_moment(q["as_of"]) if q.get("as_of") else None
            asking = Asking(now=parse_moment(q["now"]), as_of=as_of, k=5)
            taken: dict[bool, list[float]] = {False: [], True: []}
            for on in (False, True, False, True):
                switch(args.reading, on=on)
                start = time.perf_counter()
                engine.ask(q["question"], asking)
                taken[on].append(time.perf_counter() - start)
            for on in (False, True):
                seconds[on].append(taken[on])
    switch(args.reading, on=True)
    stated = [i for i, q in enumerate(questions) if ASKED(q["question"]) is not None]
    print("| questions | n | p50 off (ms) | p50 on (ms) | on / off |")
    print("|---|---:|---:|---:|---:|")
    english = [i for i, q in enumerate(questions) if not is_mostly_cjk(q["question"])]
    for name, chosen in (("all", range(len(questions))), ("in English", english),
                         ("with a stated case", stated)):
        if not chosen:
            continue
        without = statistics.median(t for i in chosen for t in seconds[False][i]) * 1000
        read = statistics.median(t for i in chosen for t in seconds[True][i]) * 1000
        print(f"| {name} | {len(chosen)} | {without:.0f} | {read:.0f} "
              f"| {read / without:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
