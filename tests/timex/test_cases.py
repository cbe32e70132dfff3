"""Table-driven parse cases (EN + ZH) from tests/cases/timex_parse.jsonl."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chronorag.timex import parse

CASES = [json.loads(line) for line in
         (Path(__file__).parents[1] / "cases" / "timex_parse.jsonl").read_text("utf-8")
         .splitlines() if line.strip()]


def _moment(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['now'][:10]}:{c['text']}" for c in CASES])
def test_parse_case(case: dict) -> None:
    found = parse(case["text"], now=_moment(case["now"]))
    expect = case["expect"]
    if expect is None:
        assert found == [], [e.text for e in found]
        return
    assert found, f"nothing found in {case['text']!r}"
    first = found[0]
    got = (first.text, first.interval.start, first.interval.end,
           first.interval.granularity and first.interval.granularity.value)
    want = (expect["text"], _moment(expect["start"]), _moment(expect["end"]),
            expect["granularity"])
    assert got == want
    assert case["text"][first.start:first.end] == first.text


def test_enough_cases() -> None:
    assert len(CASES) >= 300
