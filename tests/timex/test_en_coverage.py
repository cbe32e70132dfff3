"""English times without a year, references, quarters and seasons (see ``timex.en``)."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.timex import parse
from chronorag.timex.en_tense import tense
from chronorag.timex.pipeline import context, find

# A Monday.
NOW = datetime(2000, 4, 3, 12, 0, tzinfo=UTC)
FAST = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "200")), deadline=None)


def _one(text: str) -> tuple[str, str | None, str | None, str | None]:
    found = parse(text, now=NOW)
    assert len(found) == 1, [f.text for f in found]
    iv = found[0].interval
    return (found[0].text, iv.start and iv.start.isoformat()[:16],
            iv.end and iv.end.isoformat()[:16], iv.granularity and iv.granularity.value)


@pytest.mark.parametrize(("text", "want"), [
    # bare weekdays by tense: past -> latest on or before today, will -> next, else nearest
    ("The bombs exploded Friday.", ("Friday", "2000-03-31T00:00", "2000-04-01T00:00", "day")),
    ("He said Monday he would stay.", ("Monday", "2000-04-03T00:00", "2000-04-04T00:00", "day")),
    ("They will meet Thursday.", ("Thursday", "2000-04-06T00:00", "2000-04-07T00:00", "day")),
    ("Talks on Saturday", ("Saturday", "2000-04-01T00:00", "2000-04-02T00:00", "day")),
    ("The ship leaves at 9 a.m. Tuesday.",
     ("at 9 a.m. Tuesday", "2000-04-04T09:00", "2000-04-04T10:00", "hour")),
    # month and day without a year
    ("The deal closed Aug. 7.", ("Aug. 7", "1999-08-07T00:00", "1999-08-08T00:00", "day")),
    ("He must leave by Oct. 1.", ("Oct. 1", "2000-10-01T00:00", "2000-10-02T00:00", "day")),
    ("It was due by Feb. 14.", ("Feb. 14", "2000-02-14T00:00", "2000-02-15T00:00", "day")),
    ("The vote is April 7", ("April 7", "2000-04-07T00:00", "2000-04-08T00:00", "day")),
    ("It happened on Friday, March 31.",
     ("Friday, March 31", "2000-03-31T00:00", "2000-04-01T00:00", "day")),
    ("They met Friday, Aug. 4.", ("Friday, Aug. 4", "2000-08-04T00:00", "2000-08-05T00:00",
                                  "day")),
    # months without a year
    ("Prices fell in early December.",
     ("early December", "1999-12-01T00:00", "1999-12-11T00:00", "month")),
    ("late last July", ("late last July", "1999-07-21T00:00", "1999-08-01T00:00", "month")),
    ("They will vote in May.", ("May", "2000-05-01T00:00", "2000-06-01T00:00", "month")),
    # quarters and seasons
    ("Sales rose in the third quarter.",
     ("the third quarter", "1999-07-01T00:00", "1999-10-01T00:00", "quarter")),
    ("first-quarter profit", ("first-quarter", "2000-01-01T00:00", "2000-04-01T00:00",
                              "quarter")),
    ("They met last summer.", ("last summer", "1999-06-01T00:00", "1999-09-01T00:00",
                               "season")),
    ("this spring", ("this spring", "2000-03-01T00:00", "2000-06-01T00:00", "season")),
    ("next year's first quarter",
     ("next year's first quarter", "2001-01-01T00:00", "2001-04-01T00:00", "quarter")),
    ("the 1988 second quarter",
     ("the 1988 second quarter", "1988-04-01T00:00", "1988-07-01T00:00", "quarter")),
    ("Profit fell in the quarter.",
     ("the quarter", "2000-01-01T00:00", "2000-04-01T00:00", "quarter")),
    ("fiscal 1998", ("fiscal 1998", "1998-01-01T00:00", "1999-01-01T00:00", "year")),
    ("this fiscal year", ("this fiscal year", "2000-01-01T00:00", "2001-01-01T00:00", "year")),
    ("They met in June last year.",
     ("June last year", "1999-06-01T00:00", "1999-07-01T00:00", "month")),
    ("He left last Oct. 23.", ("Oct. 23", "1999-10-23T00:00", "1999-10-24T00:00", "day")),
    ("this afternoon", ("this afternoon", "2000-04-03T00:00", "2000-04-04T00:00", "day")),
    # N units ago at the unit's granularity
    ("four years ago", ("four years ago", "1996-01-01T00:00", "1997-01-01T00:00", "year")),
    ("two months ago", ("two months ago", "2000-02-01T00:00", "2000-03-01T00:00", "month")),
    ("3 days ago", ("3 days ago", "2000-03-31T00:00", "2000-04-01T00:00", "day")),
    # references
    ("Prices are now higher.", ("now", "2000-04-03T00:00", "2000-04-04T00:00", "day")),
    ("It rose in the past.", ("in the past", None, "2000-04-03T12:00", "day")),
    ("Sales rose in the past year.",
     ("the past year", "1999-04-04T00:00", "2000-04-04T00:00", "day")),
    ("in the future", ("in the future", "2000-04-03T12:00", None, "day")),
])
def test_reads(text: str, want: tuple[str, str | None, str | None, str | None]) -> None:
    assert _one(text) == want


@pytest.mark.parametrize("text", [
    "You may leave.", "Troops march on.", "The spring broke.", "Now that he is here, go.",
    "the firm now known as Marriott",
    "a sunday school", "friday", "The Sun rose.", "May I come in?",
])
def test_ordinary_words_are_no_times(text: str) -> None:
    assert parse(text, now=NOW) == []


def test_references_have_kind_ref() -> None:
    kinds = {f.kind for f in find("now, recently, the future", context(NOW))}
    assert kinds == {"ref"}


def test_references_need_now() -> None:
    assert find("now and in the future, Friday, Aug. 7", context(None)) == []


@FAST
@given(text=st.text(max_size=80), start=st.integers(0, 90), size=st.integers(0, 20))
def test_tense_never_fails(text: str, start: int, size: int) -> None:
    assert tense(text, start, start + size) in (-1, 0, 1)


WORDS = st.sampled_from(["Friday", "Aug. 7", "early December", "late last July", "now",
                         "the third quarter", "last summer", "said", "will", "the past",
                         "May", "March 3", "four years ago", "9 a.m.", ",", ".", " "])


@FAST
@given(parts=st.lists(WORDS, max_size=8), year=st.integers(1, 9999))
def test_times_without_a_year_survive_any_now(parts: list[str], year: int) -> None:
    # At the calendar's edges a reading may be skipped, never raised.
    now = datetime(year, 12 if year < 9999 else 1, 31 if year < 9999 else 1, tzinfo=UTC)
    for f in parse(" ".join(parts), now=now):
        assert f.interval.start is None or f.interval.end is None or \
            f.interval.start < f.interval.end
