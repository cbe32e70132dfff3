"""How often do the checks of a written answer accept faithful answers and reject unfaithful
ones, on real evidence?

    python benchmarks/generation_checks.py DIR --db STORE [--limit N] [--json]

DIR is a TimeQA-format folder (``questions.jsonl``), STORE a store of its corpus (as
``chronorag eval retrieval --db`` uses). Each question is asked through the default
pipeline without a model; from the first evidence item of every question answered or
uncertain (when that item applies),
answers a model could write are made and judged by ``answer.written.check_written``:

* faithful (should be accepted): the short answer cited; the deciding sentence verbatim,
  cited; the question's own time, then the short answer, cited;
* unfaithful (should be rejected): the deciding sentence with one number changed to one
  the evidence never states; a sentence of an item that does not apply, citing it; the
  deciding sentence citing an id that is not in the evidence; the sentence uncited.

The speed row compares the checks' time with the question's own (same process).

With ``--llm URL`` the questions are also answered by that model (an OpenAI-compatible
endpoint) through ``Engine.generate``: how many written answers were used, which rules
rejected the others, and the model's time against the question's.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, timedelta
from pathlib import Path
from typing import Any

from chronorag.answer.written import check_written, numbers
from chronorag.engine import Engine
from chronorag.evaluate.harness import EVAL_NOW, load_questions
from chronorag.model import Answer, AnswerStatus, Evidence, Granularity, Interval, TimeExpression
from chronorag.timex import parse

FAITHFUL = ("short answer", "deciding sentence", "question's time + answer",
            "a date written another way")
UNFAITHFUL = ("a number changed", "a date moved by one unit", "an item that does not apply",
              "an unknown id", "uncited")
_WRITTEN = (Granularity.DAY, Granularity.MONTH, Granularity.YEAR)


def _sentence(item: Evidence) -> str:
    return (item.sentence or item.text).strip()


def _changed_number(text: str, known: set[Any]) -> str | None:
    """``text`` with its first number replaced by one the evidence never states."""
    match = re.search(r"(?<![\d.,])\d+(?![\d.,])", text)
    if match is None:
        return None
    value = int(match.group())
    new = value + 7
    while new in known:
        new += 7
    return text[:match.start()] + str(new) + text[match.end():]


def _first_date(text: str, answer: Answer) -> TimeExpression | None:
    """The first single day, month or year of ``text`` (not a range)."""
    for found in parse(text, now=answer.now, tz=answer.now.tzinfo or UTC):
        iv = found.interval
        if iv.granularity in _WRITTEN and iv.start is not None and iv.end is not None \
                and _one_unit(iv):
            return found
    return None


def _one_unit(iv: Interval) -> bool:
    assert iv.start is not None and iv.end is not None
    days = (iv.end - iv.start).days
    return {Granularity.DAY: days == 1, Granularity.MONTH: 28 <= days <= 31,
            Granularity.YEAR: 365 <= days <= 366}.get(iv.granularity or Granularity.DAY, False)


def _redated(text: str, found: TimeExpression, *, shift: int) -> str:
    """``text`` with ``found`` written in another form (shift 0) or moved by units."""
    iv = found.interval
    assert iv.start is not None and iv.granularity is not None
    start = iv.start
    if shift and iv.granularity is Granularity.DAY:
        start += timedelta(days=shift)
    elif shift and iv.granularity is Granularity.MONTH:
        index = start.year * 12 + start.month - 1 + shift
        start = start.replace(year=index // 12, month=index % 12 + 1)
    elif shift:
        start = start.replace(year=start.year + shift)
    # ISO 8601 writes four-digit years ("0899-12-08"); strftime would write "899-12-08".
    written = {Granularity.DAY: f"{start.year:04d}-{start.month:02d}-{start.day:02d}",
               Granularity.MONTH: f"{start:%B} {start.year}"}.get(iv.granularity,
                                                                   str(start.year))
    return text[:found.start] + written + text[found.end:]


def _moved(sentence: str, date: TimeExpression, answer: Answer) -> str | None:
    """``sentence`` with ``date`` moved by the fewest units that make it overlap no time
    the evidence, the question or the asked moment states: certainly unsupported."""
    tz = answer.now.tzinfo or UTC
    stated = [e.interval for text in (answer.question, *(i.text for i in answer.evidence))
              for e in parse(text, now=answer.now, tz=tz)]
    stated += [Interval(m, m + timedelta(minutes=1)) for m in (answer.now, answer.as_of)]
    for shift in range(1, 50):
        moved = _redated(sentence, date, shift=shift)
        found = _first_date(moved[date.start:], answer)
        if found is not None and not any(found.interval.overlaps(s) for s in stated):
            return moved
    return None


def cases(answer: Answer) -> Iterator[tuple[str, bool, str]]:
    """(kind, should be accepted, text) for one question's answer."""
    deciding = answer.evidence[0]
    cite = f"[{deciding.doc_id}]"
    sentence = _sentence(deciding)
    if answer.answer:
        yield FAITHFUL[0], True, f"{answer.answer} {cite}"
    yield FAITHFUL[1], True, f"{sentence} {cite}"
    times = answer.understanding.time_expressions
    if times and answer.answer:
        yield FAITHFUL[2], True, f"{times[0].text}: {answer.answer} {cite}"
    # The asked year is a time an answer may state ("as of 2026"): never the changed one.
    known = numbers(" ".join([answer.question, str(answer.as_of.year), str(answer.now.year),
                              *(f"{e.title} {e.text}" for e in answer.evidence)]))
    date = _first_date(sentence, answer)
    if date is not None:
        yield FAITHFUL[3], True, f"{_redated(sentence, date, shift=0)} {cite}"
    changed = _changed_number(sentence, known)
    if changed is not None:
        yield UNFAITHFUL[0], False, f"{changed} {cite}"
    if date is not None and (moved := _moved(sentence, date, answer)) is not None:
        yield UNFAITHFUL[1], False, f"{moved} {cite}"
    other = next((e for e in answer.evidence if not e.applicable), None)
    if other is not None:
        yield UNFAITHFUL[2], False, f"{_sentence(other)} [{other.doc_id}]"
    yield UNFAITHFUL[3], False, f"{sentence} [{deciding.doc_id}-unknown]"
    yield UNFAITHFUL[4], False, sentence


def run(folder: Path, *, db: str, limit: int | None) -> dict[str, Any]:
    questions = load_questions(folder / "questions.jsonl", limit=limit)
    judged: dict[str, Counter[str]] = {k: Counter() for k in (*FAITHFUL, *UNFAITHFUL)}
    reasons: dict[str, Counter[str]] = {k: Counter() for k in FAITHFUL}
    ask_s = check_s = 0.0
    answered = 0
    with Engine(db) as engine:
        for q in questions:
            started = time.perf_counter()
            answer = engine.ask(q.text, now=EVAL_NOW, generate=False)
            ask_s += time.perf_counter() - started
            # Uncertain answers too (XQuAD's undated pages are never more): the checks
            # judge the text against the evidence, whatever the status.
            if answer.status is AnswerStatus.NOT_FOUND or not answer.evidence[0].applicable:
                continue
            answered += 1
            for kind, faithful, text in cases(answer):
                started = time.perf_counter()
                verdict = check_written(text, evidence=answer.evidence, question=q.text,
                                        now=answer.now, as_of=answer.as_of, tz=engine.tz,
                                        upcoming=answer.upcoming)
                check_s += time.perf_counter() - started
                judged[kind]["accepted" if verdict.accepted else "rejected"] += 1
                if faithful and not verdict.accepted:
                    reasons[kind].update(p.rule for p in verdict.problems)
    return {"set": folder.name, "questions": len(questions), "judged_questions": answered,
            "judged": {k: dict(v) for k, v in judged.items()},
            "false_rejections": {k: dict(v) for k, v in reasons.items()},
            "ask_ms": 1000 * ask_s / max(len(questions), 1),
            "check_ms": 1000 * check_s / max(sum(sum(v.values()) for v in judged.values()), 1)}


def run_model(folder: Path, *, db: str, limit: int | None, url: str) -> dict[str, Any]:
    """Every question answered by the model at ``url``: used, rejected (by rule), failed."""
    from chronorag.answer.openai_chat import OpenAIChat

    outcome: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    ask_s = write_s = 0.0
    with Engine(db, llm=OpenAIChat(url, timeout_s=120)) as engine:
        for q in load_questions(folder / "questions.jsonl", limit=limit):
            started = time.perf_counter()
            answer = engine.ask(q.text, now=EVAL_NOW, generate=False)
            ask_s += time.perf_counter() - started
            started = time.perf_counter()
            info = engine.generate(answer).extras["generation"]
            write_s += time.perf_counter() - started
            kind = ("skipped" if info.get("skipped") else "failed" if info.get("error")
                    else "used" if info["used"] else "rejected")
            outcome[kind] += 1
            rules.update({p["rule"] for p in info.get("problems", ())})
    n = max(sum(outcome.values()), 1)
    return {"set": folder.name, "model": url, "outcome": dict(outcome), "rules": dict(rules),
            "ask_ms": 1000 * ask_s / n, "write_ms": 1000 * write_s / n}


def model_table(result: dict[str, Any]) -> str:
    n = sum(result["outcome"].values())
    parts = ", ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in
                      sorted(result["outcome"].items()))
    rules = ", ".join(f"{r} {c}" for r, c in sorted(result["rules"].items()))
    return (f"### {result['set']} written by {result['model']}: {n} questions\n- {parts}\n"
            f"- answers rejected with (an answer may break several): {rules or 'none'}\n"
            f"- model {result['write_ms']:.0f} ms per question against "
            f"{result['ask_ms']:.0f} ms to ask it (ratio "
            f"{result['write_ms'] / max(result['ask_ms'], 1e-9):.1f})")


def table(result: dict[str, Any]) -> str:
    lines = [f"### {result['set']}: {result['judged_questions']} of {result['questions']} "
             "questions with an applicable first item",
             "| answer written | should be | n | accepted | rejected |", "|---|---|---:|---:|---:|"]
    for kind, counts in result["judged"].items():
        n = sum(counts.values())
        if n:
            should = "accepted" if kind in FAITHFUL else "rejected"
            lines.append(f"| {kind} | {should} | {n} | {100 * counts.get('accepted', 0) / n:.1f}%"
                         f" | {100 * counts.get('rejected', 0) / n:.1f}% |")
    for kind, rules in result["false_rejections"].items():
        if rules:
            lines.append(f"- faithful '{kind}' rejected for: "
                         + ", ".join(f"{r} ({c})" for r, c in sorted(rules.items())))
    ratio = result["check_ms"] / max(result["ask_ms"], 1e-9)
    lines.append(f"- checks {result['check_ms']:.2f} ms per answer against {result['ask_ms']:.0f}"
                 f" ms per question asked (ratio {ratio:.4f})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--db", required=True)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--llm", default=None, metavar="URL",
                        help="also have this endpoint's model write every answer")
    args = parser.parse_args()
    result = run(args.folder, db=args.db, limit=args.limit)
    print(json.dumps(result, ensure_ascii=False) if args.json else table(result))
    if args.llm:
        written = run_model(args.folder, db=args.db, limit=args.limit, url=args.llm)
        print(json.dumps(written, ensure_ascii=False) if args.json else model_table(written))


if __name__ == "__main__":
    main()
