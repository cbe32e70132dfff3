"""Times the calendar cannot hold are recognised and skipped, never read as a wrong time.

Cases in tests/cases/timex_unheld.jsonl: ``found`` lists the expressions that must still be
read (usually none); ``ingest`` the mentions ingest keeps, when it differs from ``found``;
``tz`` a UTC offset ("+08:00") other than UTC.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from pathlib import Path

import pytest

from chronorag.cli import main
from chronorag.errors import TimeParseError
from chronorag.timex import parse, parse_one, sentence_mentions

CASES = [json.loads(line) for line in
         (Path(__file__).parents[1] / "cases" / "timex_unheld.jsonl").read_text("utf-8")
         .splitlines() if line.strip()]
IDS = [f"{c['now'][:10]}:{c['text']}" for c in CASES]


def _zone(case: dict) -> tzinfo:
    if "tz" not in case:
        return UTC
    sign = -1 if case["tz"].startswith("-") else 1
    hours, minutes = case["tz"].lstrip("+-").split(":")
    return timezone(sign * timedelta(hours=int(hours), minutes=int(minutes)))


def _now(case: dict) -> datetime:
    return datetime.fromisoformat(case["now"]).replace(tzinfo=_zone(case))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_only_the_holdable_part_is_read(case: dict) -> None:
    found = parse(case["text"], now=_now(case), tz=_zone(case))
    assert [e.text for e in found] == case["found"]


@pytest.mark.parametrize("case", [c for c in CASES if "tz" not in c],
                         ids=[c["text"] for c in CASES if "tz" not in c])
def test_ingest_mentions_skip_it_too(case: dict) -> None:
    text = case["text"]
    (mentions,) = sentence_mentions(text, [(0, len(text))])
    assert [m.text for m in mentions] == case.get("ingest", case["found"])


@pytest.mark.parametrize("case", [c for c in CASES if not c["found"]],
                         ids=[i for i, c in zip(IDS, CASES, strict=True) if not c["found"]])
def test_parse_one_says_why(case: dict) -> None:
    with pytest.raises(TimeParseError):
        parse_one(case["text"], now=_now(case), tz=_zone(case))


@pytest.mark.parametrize("text", ["9999-12", "公元前221年", "31 Feb 2023", "最近9999年"])
def test_parse_one_names_the_reason(text: str) -> None:
    with pytest.raises(TimeParseError, match="impossible date or outside the calendar"):
        parse_one(text, now=datetime(2026, 11, 30, tzinfo=UTC))


@pytest.mark.parametrize("case", [c for c in CASES if not c["found"] and "tz" not in c],
                         ids=[c["text"] for c in CASES if not c["found"] and "tz" not in c])
def test_time_cli_reports_an_error(case: dict, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["time", "--now", case["now"], "--tz", "UTC", "--json", "--", case["text"]])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == "" and "error:" in captured.err
