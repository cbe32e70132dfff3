"""English ``extract`` values as TimeML writes them (TIMEX3), and what stays out of ``parse``.

Golden cases, one per class: the shared value rule (``timex.timex3``), parts of day, windows
and event-anchored counts as durations, references only extraction reports, the period a
report compares ("a year ago" after a quarter), the ends of ranges, weekday tense cues,
weekends, clock times with a zone, and years after more context words.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chronorag.model import Granularity, Interval, Relation
from chronorag.timex import extract, parse
from chronorag.timex.timex3 import timex_value, value_of
from chronorag.understand import understand

NOW = datetime(1989, 10, 26, 12, 0, tzinfo=UTC)  # a Thursday


def _u(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(("start", "end", "granularity", "want"), [
    (_u(1998, 10, 23, 22), _u(1998, 10, 23, 23), "hour", "1998-10-23T22:00"),
    (_u(1998, 10, 23, 22, 5), _u(1998, 10, 23, 22, 6), "minute", "1998-10-23T22:05"),
    (_u(1998, 7, 1), _u(1998, 10, 1), "quarter", "1998-Q3"),
    (_u(1998, 6, 1), _u(1998, 9, 1), "season", "1998-SU"),
    (_u(1990, 1, 1), _u(2000, 1, 1), "decade", "199"),
    (_u(1998, 2, 2), _u(1998, 2, 9), "week", "1998-W06"),
    (datetime(1998, 4, 1), datetime(1998, 4, 2), None, "1998-04-01"),  # naive, no granularity
])
def test_value_of_writes_timex3(start: datetime, end: datetime, granularity: str | None,
                                want: str) -> None:
    assert value_of(start, end, granularity) == want


@pytest.mark.parametrize(("start", "end", "granularity", "want"), [
    (_u(1990, 8, 11), _u(1990, 8, 13), Granularity.DAY, "1990-W32-WE"),  # a weekend
    (_u(1991, 1, 1), _u(1991, 5, 1), Granularity.MONTH, "1991"),  # early 1991
    (_u(1990, 1, 1), _u(1990, 7, 1), Granularity.MONTH, "1990-H1"),
    (_u(1989, 12, 1), _u(1989, 12, 11), Granularity.MONTH, "1989-12"),  # early December
    (_u(1977, 1, 1), _u(1980, 1, 1), Granularity.YEAR, "197"),  # the late 1970s
    (_u(1866, 1, 1), _u(1900, 1, 1), Granularity.DECADE, "18"),  # the late 19th century
    (_u(1998, 12, 1), _u(1999, 2, 1), Granularity.MONTH, "1998-12"),  # no unit: its start
])
def test_several_units_take_the_unit_that_holds_them(start: datetime, end: datetime,
                                                     granularity: Granularity,
                                                     want: str | None) -> None:
    assert timex_value(Interval(start, end, granularity)) == want


def test_open_intervals_are_references_only_at_now() -> None:
    assert value_of(None, NOW, "day", NOW) == "PAST_REF"
    assert value_of(NOW, None, "day", NOW) == "FUTURE_REF"
    assert value_of(None, _u(1981, 1, 1), "year", NOW) is None
    assert value_of(None, NOW, "day") is None
    assert timex_value(Interval(_u(1998, 1, 1), _u(1999, 1, 1), Granularity.YEAR)) == "1998"


# (text, the expression's text, kind, value)
CASES = [
    # parts of day: the day's value and TMO / TAF / TEV / TNI
    ("Friday morning, the blast hit.", "Friday morning", "date", "1989-10-20TMO"),
    ("It rained last night.", "last night", "date", "1989-10-25TNI"),
    ("We leave tonight.", "tonight", "date", "1989-10-26TNI"),
    ("Shares fell mid-afternoon yesterday.", "mid-afternoon yesterday", "date",
     "1989-10-25TAF"),
    ("They met Thursday evening.", "Thursday evening", "date", "1989-10-26TEV"),
    # windows from now and counts from an event are durations
    ("Prices rose over the past two months.", "the past two months", "duration", "P2M"),
    ("over the next 14 months", "the next 14 months", "duration", "P14M"),
    ("in the last two decades", "the last two decades", "duration", "P20Y"),
    ("Three days later, he left.", "Three days", "duration", "P3D"),
    ("seen ten days before the shooting", "ten days", "duration", "P10D"),
    ("He should arrive at least 72 hours after his son.", "at least 72 hours", "duration",
     "PT72H"),
    # references and vague spans only extraction reports
    ("at the then current market price", "then current", "ref", "PAST_REF"),
    ("Few read papers these days.", "these days", "ref", "PRESENT_REF"),
    ("Now that he is here, we can start.", "Now", "ref", "PRESENT_REF"),
    ("Rates may rise in the near term.", "the near term", "ref", "FUTURE_REF"),
    ("It grew fast in recent years.", "recent years", "duration", "PXY"),
    ("Troops arrive in coming weeks.", "coming weeks", "duration", "PXW"),
    ("in the weeks ahead", "the weeks ahead", "duration", "PXW"),
    # the period a report compares, a year before
    ("Third-quarter profit rose 19% from $5 a year ago.", "a year ago", "date", "1988-Q3"),
    ("Third-quarter profit rose 19% from a year ago.", "from a year ago", "date", "1988-Q3"),
    ("Net for the nine months rose from $5 a year earlier.", "a year earlier", "date", "1988"),
    ("A year ago, he left the firm.", "A year ago", "date", "1988"),
    ("In the year-earlier third quarter, it earned $5.", "the year-earlier third quarter",
     "date", "1988-Q3"),
    ("It posted a third-quarter loss, compared with year-earlier profit of $3.", "year-earlier",
     "date", "1988-Q3"),
    ("It lost $9 in the quarter, after $4 in the year-ago period.", "the year-ago period",
     "date", "1988-Q3"),
    ("Net fell, compared with a year-earlier gain.", "year-earlier", "date", "1988"),
    # weekdays: deadline words look ahead, the possessive names a reported event, a name in
    # -ed is no past tense, "is to" is a future
    ("The group might come as soon as Tuesday.", "Tuesday", "date", "1989-10-31"),
    ("They would fight Wednesday's ruling.", "Wednesday", "date", "1989-10-25"),
    ("He would be traveling to the United States Saturday.", "Saturday", "date", "1989-10-28"),
    ("It is to resume trading Tuesday.", "Tuesday", "date", "1989-10-31"),
    ("He will succeed Daniel P. Davison Feb. 1.", "Feb. 1", "date", "1990-02-01"),  # no -ed
    # sets of a month, vague counts after "within"
    ("The fair opens each July.", "each July", "set", "XXXX-07"),
    ("Troops arrive within weeks.", "weeks", "duration", "PXW"),
    # weekends
    ("He said over the weekend.", "the weekend", "date", "1989-W42-WE"),
    ("Traders sold ahead of the weekend.", "the weekend", "date", "1989-W43-WE"),
    ("Next weekend we rest.", "Next weekend", "date", "1989-W43-WE"),
    # a zone belongs to its clock time, which then takes the day after it
    ("The offer runs until 5 p.m. EST Nov. 9.", "until 5 p.m. EST Nov. 9", "time",
     "1989-11-09T17:00"),
    # years after "into", "due", "both"
    ("We expect that to continue into 1990.", "1990", "date", "1990"),
    ("It will dilute earnings in both 1990 and 1991.", "1990", "date", "1990"),
    ("It sold bonds due 1993.", "1993", "date", "1993"),
    # a part of a year or decade is written as the whole (TimeML keeps the part in MOD)
    ("Sales slowed in early 1991.", "early 1991", "date", "1991"),
    ("It peaked in the late 1970s.", "the late 1970s", "date", "197"),
    # years in words, and seasons without a year
    ("Prices fell in nineteen ninety-six.", "nineteen ninety-six", "date", "1996"),
    ("It began in January nineteen ninety-seven.", "January nineteen ninety-seven", "date",
     "1997-01"),
    ("as in the winter of nineteen ninety-four", "the winter of nineteen ninety-four", "date",
     "1994-WI"),
    ("It ends in the year two thousand.", "the year two thousand", "date", "2000"),
    ("Demand slowed in the summer.", "the summer", "date", "1989-SU"),
    ("Sales will rise in the spring.", "the spring", "date", "1990-SP"),
    # holidays with a fixed rule
    ("He was found last Thanksgiving.", "last Thanksgiving", "date", "1988-11-24"),
    ("It opens next Thanksgiving.", "next Thanksgiving", "date", "1989-11-23"),
    ("The campaign will run to Election Day.", "Election Day", "date", "1989-11-07"),
    ("It will be quiet on Christmas Eve.", "Christmas Eve", "date", "1989-12-24"),
    ("They will rest on New Year's Day.", "New Year's Day", "date", "1990-01-01"),
]


@pytest.mark.parametrize(("text", "surface", "kind", "value"), CASES)
def test_timeml_values(text: str, surface: str, kind: str, value: str) -> None:
    found = [e for e in extract(text, now=NOW) if e.text == surface]
    assert found, [(e.text, e.value) for e in extract(text, now=NOW)]
    assert (found[0].kind, found[0].value) == (kind, value)


@pytest.mark.parametrize(("text", "values"), [
    ("between 1994 and 1997", ["1994", "1997"]),
    ("from 1991 to 1997", ["1991", "1997"]),
    ("from Aug. 26 to Oct. 20", ["1989-08-26", "1989-10-20"]),
    ("between now and Feb. 10", ["PRESENT_REF", "1990-02-10"]),
])
def test_range_ends_are_read_apart(text: str, values: list[str]) -> None:
    (whole,) = extract(text, now=NOW)
    assert whole.value is None and whole.interval is not None  # the range itself
    assert [p.value for p in whole.parts] == values
    assert all(whole.start <= p.start < p.end <= whole.end for p in whole.parts)


@pytest.mark.parametrize("text", ["alternating current.", "the current year's figures",
                                  "His recent sale closed.", "his current wife"])
def test_no_reference_where_no_time_is_named(text: str) -> None:
    assert all(e.kind != "ref" for e in extract(text, now=NOW))


@pytest.mark.parametrize("text", ["two thousand people came", "nineteen twenty-five dollars",
                                  "Prices will fall further."])
def test_numbers_in_words_that_are_no_year(text: str) -> None:
    assert [e.value for e in extract(text, now=NOW) if e.value and e.value[:1] == "1"] == []


def test_references_of_extraction_never_constrain_a_question() -> None:
    question = "Who is the current CEO of Norvex these days?"
    assert parse(question, now=NOW) == []
    assert understand(question, now=NOW).constraint.relation == Relation.NONE


@pytest.mark.parametrize(("text", "start", "end"), [
    ("last night", "1989-10-25", "1989-10-26"),
    ("yesterday morning", "1989-10-25", "1989-10-26"),
    ("over the weekend", "1989-10-21", "1989-10-23"),
    ("this weekend", "1989-10-28", "1989-10-30"),
    ("last weekend", "1989-10-21", "1989-10-23"),
])
def test_parse_keeps_whole_days(text: str, start: str, end: str) -> None:
    (e,) = parse(text, now=NOW)
    assert e.interval.start is not None and e.interval.end is not None
    assert (e.interval.start.date().isoformat(), e.interval.end.date().isoformat()) == (start,
                                                                                        end)
    assert e.interval.granularity == Granularity.DAY


@pytest.mark.parametrize("now", [datetime(1, 1, 2, tzinfo=UTC), datetime(9999, 12, 30, tzinfo=UTC)])
@pytest.mark.parametrize("text", ["Third-quarter net fell from a year ago; year-earlier net rose.",
                                  "last Thanksgiving, over the weekend, in the summer",
                                  "nineteen ninety-six, between now and Dec. 31"])
def test_calendar_edges_are_skipped_not_raised(text: str, now: datetime) -> None:
    for e in extract(text, now=now):
        assert text[e.start:e.end] == e.text
