"""The cost of deriving an answer's JSON from its declaration, against the hand-written
``to_json`` methods it replaced, in one process.

    python benchmarks/json_contract.py [--rounds 7] [--repeat 2000]

The answers are the recorded ``ask --json`` outputs of the contract tests
(``tests/cases/contract/cli/ask_*.json``: English and Chinese, 0 to 8 evidence items,
time mentions, upcoming versions, extras), read back into ``Answer`` values; each is
checked to print byte for byte as recorded before anything is timed. The baseline is
``src/chronorag/model.py`` as of ``BASELINE`` (the last commit with hand-written methods),
read from git and loaded as a module of its own; every answer is copied into its classes.
Rounds alternate the two; the table shows each answer's best round in microseconds per
``to_json()`` call, then the same with ``json.dumps(..., indent=2)`` (what ``ask --json``
prints). ``--cold`` also times the first call in a fresh process (the derivation is
built on first use).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from chronorag.flags import Flag
from chronorag.model import (
    Anchor,
    Answer,
    AnswerStatus,
    Constraint,
    Doubt,
    Entity,
    Evidence,
    Granularity,
    Intent,
    Interval,
    Mention,
    Order,
    Relation,
    Status,
    TimeExpression,
    Understanding,
)

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = ROOT / "tests" / "cases" / "contract" / "cli"
BASELINE = "fb857ac"
_KEYS = {"question", "now", "as_of", "understanding", "status", "answer", "evidence",
         "upcoming", "flags"}


def baseline_model() -> types.ModuleType:
    """``chronorag/model.py`` at ``BASELINE``, as the module ``baseline_model``."""
    source = subprocess.run(["git", "show", f"{BASELINE}:src/chronorag/model.py"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    module = types.ModuleType("baseline_model")
    sys.modules[module.__name__] = module
    exec(compile(source, f"{BASELINE}:model.py", "exec"), module.__dict__)
    return module


def _time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _interval(item: Mapping[str, Any]) -> Interval:
    gran = item["granularity"]
    return Interval(_time(item["start"]), _time(item["end"]),
                    None if gran is None else Granularity(gran))


def _mention(item: Mapping[str, Any]) -> Mention:
    start, end = item["span"]
    anchor = _time(item["anchor"])
    return Mention(item["text"], start, end, _interval(item), relation=Relation(
        item["relation"]), anchor=anchor)


def _evidence(item: Mapping[str, Any]) -> Evidence:
    times = {k: _time(item[k]) for k in ("valid_from", "valid_to", "occurred_at",
                                         "published_at", "valid_until")}
    section = item.get("section")
    return Evidence(
        item["doc_id"], item["chunk_id"], item["title"], item["text"], item["start"],
        item["end"], item["source_type"], None if item["status"] is None else Status(
            item["status"]), times["valid_from"], times["valid_to"], times["occurred_at"],
        item["applicable"], tuple(Flag(f) for f in item["flags"]), item["score"],
        item["scores"], owner=item["owner"], published_at=times["published_at"],
        sentence=item["sentence"], times=tuple(_mention(m) for m in item["times"]),
        superseded_by=tuple(item["superseded_by"]), valid_until=times["valid_until"],
        section=None if section is None else tuple(section))


def _understanding(question: str, item: Mapping[str, Any]) -> Understanding:
    c = item["constraint"]
    interval = (None if c["start"] is None and c["end"] is None
                else Interval(_time(c["start"]), _time(c["end"])))
    constraint = Constraint(Relation(c["relation"]), None if c["order"] is None else Order(
        c["order"]), interval, None if c["anchor"] is None else Anchor(c["anchor"]),
        tuple(Doubt(d) for d in c["doubts"]))
    expressions = tuple(TimeExpression(t["text"], 0, len(t["text"]), _interval(t))
                        for t in item["time_expressions"])
    return Understanding(question, item["content"], Intent(item["intent"]), constraint,
                         expressions, tuple(Entity(**e) for e in item["entities"]))


def answer_of(payload: Mapping[str, Any]) -> Answer:
    """The ``Answer`` whose JSON is ``payload``."""
    labels = payload["flags"]
    return Answer(
        payload["question"], datetime.fromisoformat(payload["now"]),
        datetime.fromisoformat(payload["as_of"]),
        _understanding(payload["question"], payload["understanding"]),
        AnswerStatus(payload["status"]), payload["answer"],
        tuple(_evidence(e) for e in payload["evidence"]),
        tuple(_evidence(e) for e in payload["upcoming"]),
        tuple(Flag(f) for f in labels if not f.startswith("owner:")),
        owners=tuple(f.removeprefix("owner:") for f in labels if f.startswith("owner:")),
        extras={k: v for k, v in payload.items() if k not in _KEYS})


def copied(value: Any, into: types.ModuleType) -> Any:
    """``value`` with every record rebuilt from the same-named class of ``into``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = getattr(into, type(value).__name__)
        return kind(**{f.name: copied(getattr(value, f.name), into)
                       for f in dataclasses.fields(value) if f.init})
    if isinstance(value, tuple):
        return tuple(copied(v, into) for v in value)
    return value


def _best(fn: Callable[[], object], repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - started) / repeat * 1e6


def _cold() -> float:
    """Milliseconds of the first ``to_json`` of an answer in a fresh process."""
    code = ("import json,time,sys; sys.path.insert(0, 'benchmarks'); import json_contract as b; "
            "a = b.answer_of(json.loads(open(sorted(b.ANSWERS.glob('ask_en_up*'))[0])"
            ".read())); t = time.perf_counter(); a.to_json(); "
            "print((time.perf_counter() - t) * 1e3)")
    runs = [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout) for _ in range(5)]
    return statistics.median(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--cold", action="store_true")
    args = parser.parse_args()
    old = baseline_model()
    cases = []
    for path in sorted(ANSWERS.glob("ask_*.json")):
        recorded = path.read_text("utf-8")
        answer = answer_of(json.loads(recorded))
        for variant in (answer, copied(answer, old)):
            printed = json.dumps(variant.to_json(), ensure_ascii=False, indent=2) + "\n"
            assert printed == recorded, f"{path.name} does not print as recorded"
        cases.append((path.stem, answer, copied(answer, old)))
    print("| answer | items | hand-written µs | derived µs | ratio | with json.dumps: "
          "hand-written / derived µs |\n|---|---|---|---|---|---|")
    ratios, dumped = [], []
    for name, new, base in cases:
        best: dict[str, float] = {}
        for _ in range(args.rounds):
            for label, answer in (("old", base), ("new", new)):
                best[label] = min(best.get(label, 1e9), _best(answer.to_json, args.repeat))
                full = lambda a=answer: json.dumps(a.to_json(), ensure_ascii=False, indent=2)  # noqa: E731
                best[label + "+"] = min(best.get(label + "+", 1e9), _best(full, args.repeat))
        ratios.append(best["new"] / best["old"])
        dumped.append(best["new+"] / best["old+"])
        items = len(new.evidence) + len(new.upcoming)
        print(f"| {name.removeprefix('ask_')} | {items} | {best['old']:.1f} | "
              f"{best['new']:.1f} | {ratios[-1]:.2f} | {best['old+']:.1f} / "
              f"{best['new+']:.1f} |")
    print(f"\nmedian ratio derived / hand-written: to_json {statistics.median(ratios):.2f}, "
          f"with json.dumps {statistics.median(dumped):.2f}")
    if args.cold:
        print(f"first to_json in a fresh process: {_cold():.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
