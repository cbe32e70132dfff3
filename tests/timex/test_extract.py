"""``extract``: every expression of running text with kind, relation and value.

Golden cases pin the public kinds (date, time, duration, set, ref), the relations (none,
since, until, before, after) and TIMEX3-style values; properties hold for any text.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.timex import Extracted, extract, parse

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)

# (text, the expression's text, kind, relation, value, start, end)
CASES = [
    ("He has served since 2013.", "since 2013", "date", "since", "2013",
     "2013-01-01T00:00:00+00:00", None),
    ("She stayed until 2005.", "until 2005", "date", "until", "2005",
     None, "2006-01-01T00:00:00+00:00"),
    ("习近平自2013年起担任国家主席。", "自2013年起", "date", "since", "2013",
     "2013-01-01T00:00:00+00:00", None),
    ("2018年以前的数据", "2018年以前", "date", "before", "2018", None,
     "2018-01-01T00:00:00+00:00"),
    ("It was sold in May 2021.", "May 2021", "date", "none", "2021-05",
     "2021-05-01T00:00:00+00:00", "2021-06-01T00:00:00+00:00"),
    ("Revenue fell in Q3 2024.", "Q3 2024", "date", "none", "2024-Q3",
     "2024-07-01T00:00:00+00:00", "2024-10-01T00:00:00+00:00"),
    ("We met yesterday at 3pm and left.", "yesterday at 3pm", "time", "none", "2026-11-29T15:00",
     "2026-11-29T15:00:00+00:00", "2026-11-29T16:00:00+00:00"),
    ("He lived there from 1990 to 1995.", "from 1990 to 1995", "date", "none", None,
     "1990-01-01T00:00:00+00:00", "1996-01-01T00:00:00+00:00"),
    ("The talks lasted three years.", "three years", "duration", "none", "P3Y", None, None),
    ("Stay for two weeks.", "two weeks", "duration", "none", "P2W", None, None),
    ("It took several months.", "several months", "duration", "none", "PXM", None, None),
    ("a decade of growth", "a decade", "duration", "none", "P10Y", None, None),
    ("the meeting lasted 5 hours", "5 hours", "duration", "none", "PT5H", None, None),
    ("持续了三年半", "三年半", "duration", "none", "P3.5Y", None, None),
    ("历时8天又二十个小时", "8天又二十个小时", "duration", "none", "P8DT20H", None, None),
    ("五个星期3小时", "五个星期3小时", "duration", "none", "P5WT3H", None, None),
    ("等了一个半小时", "一个半小时", "duration", "none", "PT1.5H", None, None),
    ("It took 2 1/2 years.", "2 1/2 years", "duration", "none", "P2Y6M", None, None),
    ("It lasted about a decade.", "about a decade", "duration", "none", "P10Y", None, None),
    ("for half an hour", "half an hour", "duration", "none", "PT30M", None, None),
    ("They argued for years.", "years", "duration", "none", "PXY", None, None),
    ("Profit rose for several quarters.", "several quarters", "duration", "none", "PXQ",
     None, None),
    ("等了两个月", "两个月", "duration", "none", "P2M", None, None),
    ("We meet every Monday.", "every Monday", "set", "none", "XXXX-WXX-1", None, None),
    ("The report is published annually.", "annually", "set", "none", "P1Y", None, None),
    ("They rally daily outside.", "daily", "set", "none", "P1D", None, None),
    ("each year the river floods", "each year", "set", "none", "P1Y", None, None),
    ("每周一开会", "每周一", "set", "none", "XXXX-WXX-1", None, None),
    ("他每天跑步", "每天", "set", "none", "P1D", None, None),
    ("每年举办一次", "每年", "set", "none", "P1Y", None, None),
]


@pytest.mark.parametrize(("text", "surface", "kind", "relation", "value", "start", "end"),
                         CASES)
def test_golden(text: str, surface: str, kind: str, relation: str, value: str | None,
                start: str | None, end: str | None) -> None:
    found = [e for e in extract(text, now=NOW) if e.text == surface]
    assert found, [e.text for e in extract(text, now=NOW)]
    line = found[0].to_json()
    assert (line["kind"], line["relation"], line["value"]) == (kind, relation, value)
    assert (line["start"], line["end"]) == (start, end)
    assert text[line["span"][0]:line["span"][1]] == surface


def test_json_keys_follow_the_contract() -> None:
    line = extract("since 2013", now=NOW)[0].to_json()
    assert list(line)[:7] == ["text", "span", "start", "end", "granularity", "kind", "relation"]


def test_fractions_and_financial_adjectives_are_no_times() -> None:
    text = "three-quarters of the quarterly dividend, in a second term"
    assert extract(text, now=NOW) == []


def test_four_digit_year_and_month_day_are_no_durations() -> None:
    kinds = {e.text: e.kind for e in extract("2013年，3月，29日", now=NOW)}
    assert "duration" not in kinds.values()


def test_a_duration_inside_a_date_is_the_dates() -> None:
    found = extract("It happened three years ago.", now=NOW)
    assert [(e.text, e.kind) for e in found] == [("three years ago", "date")]


@pytest.mark.parametrize("text", ["We meet every Monday for three weeks.", "每周一开会三个月",
                                  "it lasted a decade", "paid weekly since 2013"])
def test_durations_and_sets_stay_out_of_parse(text: str) -> None:
    extracted = {(e.start, e.end) for e in extract(text, now=NOW)
                 if e.kind in ("duration", "set")}
    parsed = {(e.start, e.end) for e in parse(text, now=NOW)}
    assert extracted and not extracted & parsed


_PIECES = ["since 2013", "until 2005", "every Monday", "three weeks", "每周一", "三年半",
           "自2013年起", "2018年以前", "yesterday at 3pm", "from 1990 to 1995", "now",
           "a decade", "annually", " ", "，", "and", "for ", "每", "年", "3", "个月",
           "在", "2019", "年中", "中"]
texts = st.one_of(st.text(max_size=80),
                  st.lists(st.sampled_from(_PIECES), max_size=8).map("".join))
moments = st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30),
                       timezones=st.just(UTC))


@settings(max_examples=200, deadline=None)
@given(text=texts, now=moments)
def test_any_text_gives_ordered_disjoint_spans_that_point_at_their_text(
        text: str, now: datetime) -> None:
    found = extract(text, now=now)
    previous = 0
    for e in found:
        assert isinstance(e, Extracted)
        assert 0 <= previous <= e.start < e.end <= len(text)
        assert text[e.start:e.end] == e.text
        previous = e.end
        line = e.to_json()
        assert line["kind"] in ("date", "time", "duration", "set", "ref")
        assert line["relation"] in ("none", "since", "until", "before", "after")
        assert (e.interval is None) == (e.kind in ("duration", "set"))
