"""Date fields -> intervals of the period they name."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from chronorag.ingest import DateError, parse_date
from chronorag.model import Granularity


@pytest.mark.parametrize(("text", "start", "end", "granularity"), [
    ("2021", datetime(2021, 1, 1), datetime(2022, 1, 1), Granularity.YEAR),
    ("2021-12", datetime(2021, 12, 1), datetime(2022, 1, 1), Granularity.MONTH),
    ("2024-02-29", datetime(2024, 2, 29), datetime(2024, 3, 1), Granularity.DAY),
    ("2021-05-06T23", datetime(2021, 5, 6, 23), datetime(2021, 5, 7), Granularity.HOUR),
    ("2021-05-06 12:30", datetime(2021, 5, 6, 12, 30), datetime(2021, 5, 6, 12, 31),
     Granularity.MINUTE),
    ("2021-05-06T12:30:59.5Z", datetime(2021, 5, 6, 12, 30, 59, 500000),
     datetime(2021, 5, 6, 12, 31, 0, 500000), Granularity.SECOND),
])
def test_iso_text(text: str, start: datetime, end: datetime, granularity: Granularity) -> None:
    interval = parse_date(text)
    assert (interval.start, interval.end, interval.granularity) == (
        start.replace(tzinfo=UTC), end.replace(tzinfo=UTC), granularity)


def test_objects_and_year_numbers() -> None:
    assert parse_date(date(2021, 5, 6)).granularity is Granularity.DAY
    moment = datetime(2021, 5, 6, 1, 2, 3, tzinfo=UTC)
    assert parse_date(moment).start == moment
    assert parse_date(2021).granularity is Granularity.YEAR
    berlin = ZoneInfo("Europe/Berlin")
    assert parse_date(datetime(2021, 5, 6), tz=berlin).start == datetime(2021, 5, 6,
                                                                        tzinfo=berlin)


def test_day_in_a_time_zone_follows_the_wall_clock() -> None:
    berlin = ZoneInfo("Europe/Berlin")  # 2021-03-28 has 23 hours there
    interval = parse_date("2021-03-28", tz=berlin)
    assert interval.end == datetime(2021, 3, 29, tzinfo=berlin)


@pytest.mark.parametrize("value", ["2026-13-45", "2021-02-29", "2021-05-06T24:00",
                                   "2021-05-06T12:30+25:00", "21-05-06", "", True, 1.5,
                                   ["2021"]])
def test_invalid(value: object) -> None:
    with pytest.raises(DateError):
        parse_date(value)
