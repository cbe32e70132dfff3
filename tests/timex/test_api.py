"""parse_one, time zones and sentence_mentions."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from chronorag.errors import TimeParseError
from chronorag.model import Granularity
from chronorag.timex import parse, parse_one, sentence_mentions

NOW = datetime(2024, 5, 15, 10, 0, tzinfo=UTC)
ONE_CASES = [json.loads(line) for line in
             (Path(__file__).parents[1] / "cases" / "timex_parse_one.jsonl")
             .read_text("utf-8").splitlines() if line.strip()]


def _d(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


@pytest.mark.parametrize("case", ONE_CASES, ids=[c["text"] for c in ONE_CASES])
def test_parse_one(case: dict) -> None:
    e = parse_one(case["text"], now=NOW)
    assert (e.interval.start, e.interval.end) == (_d(case["start"]), _d(case["end"]))


@pytest.mark.parametrize("text", ["", "hello", "the meeting", "2021 and 2022", "May 6 people"])
def test_parse_one_rejects_with_help(text: str) -> None:
    with pytest.raises(TimeParseError, match=r"try forms like|several times"):
        parse_one(text, now=NOW)


def test_naive_now_is_read_in_tz() -> None:
    tz = ZoneInfo("Asia/Shanghai")
    (e,) = parse("昨天", now=datetime(2024, 5, 15, 1, 0), tz=tz)
    assert e.interval.start == datetime(2024, 5, 14, tzinfo=tz)


def test_aware_now_is_converted_to_tz() -> None:
    # 2024-05-14 20:00 UTC is already 2024-05-15 in Shanghai.
    tz = timezone(timedelta(hours=8))
    (e,) = parse("today", now=datetime(2024, 5, 14, 20, 0, tzinfo=UTC), tz=tz)
    assert e.interval.start == datetime(2024, 5, 15, tzinfo=tz)


def test_mentions_absolute_offsets_and_inheritance() -> None:
    text = ("The club was founded on 4 June 1948 . It grew fast . Yesterday it won ."
            "\n\nA new paragraph . It moved between 1822 and 1848 . Then it closed .")
    spans = [(m.start(), m.end()) for m in re.finditer(r"[^.\n ][^.\n]*[^.\n ]", text)]
    result = sentence_mentions(text, spans)
    (own,) = result[0]
    assert text[own.start:own.end] == own.text == "4 June 1948" and not own.inherited
    (inherited,) = result[1]
    assert inherited.inherited and inherited.interval == own.interval
    assert result[2][0].inherited  # "Yesterday" is relative: no mention of its own
    assert result[3] == ()  # a new paragraph inherits nothing
    (span,) = result[4]
    assert span.text == "between 1822 and 1848" and span.interval.granularity == Granularity.YEAR
    assert result[5][0].inherited and result[5][0].text == span.text


@pytest.mark.parametrize(("sentence", "expected"), [
    ("He lives at 3017 N Street", []),
    ("About 1,000 people came", []),
    ("The model 2048 was fast", []),
    ("He was born 1943 in Ohio", ["1943"]),
    ("the 1990 election was close", ["1990"]),
    ("1815 , the division was formed", ["1815"]),
    ("Smith ( 1990 ) argued", ["1990"]),
    ("It ran 1990 - 1995 and again 2001–04", ["1990 - 1995", "2001–04"]),
    ("He ruled from 1811 to 1827", ["from 1811 to 1827"]),
    ("他于2003年到2005年之间任校长", ["2003年到2005年之间"]),
    ("1990年代的经济", ["1990年代"]),
    ("昨天下午3点开会", []),
    ("2021年5月6日下午3点开会", ["2021年5月6日下午3点"]),
])
def test_mention_years_need_date_context(sentence: str, expected: list[str]) -> None:
    (mentions,) = sentence_mentions(sentence, [(0, len(sentence))])
    assert [m.text for m in mentions] == expected
