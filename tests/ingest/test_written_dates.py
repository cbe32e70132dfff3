"""Date fields written in words: read in the document's zone, reported, or refused with why."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.errors import ValidationError
from chronorag.ingest import DateError, check_paths, load_paths, parse_date
from chronorag.model import Granularity

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(("text", "start", "granularity"), [
    ("February 1, 2024", datetime(2024, 2, 1), Granularity.DAY),
    ("1 Feb 2024", datetime(2024, 2, 1), Granularity.DAY),
    ("2024年2月1日", datetime(2024, 2, 1), Granularity.DAY),
    ("2024年2月", datetime(2024, 2, 1), Granularity.MONTH),
    ("May 2023", datetime(2023, 5, 1), Granularity.MONTH),
])
def test_written_dates_are_read_in_the_zone(text: str, start: datetime,
                                            granularity: Granularity) -> None:
    interval = parse_date(text, tz=SHANGHAI, written=True)
    assert (interval.start, interval.granularity) == (start.replace(tzinfo=SHANGHAI),
                                                      granularity)


@pytest.mark.parametrize(("text", "reason"), [
    ("last week", "relative"), ("yesterday", "relative"), ("03/04/2024", "ambiguous"),
    ("since 2019", "open period"), ("2019 to 2021", "span of time"),
    ("soon-ish", "not a date"),
])
def test_ambiguous_dates_stay_errors_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(DateError, match=reason):
        parse_date(text, written=True)
    with pytest.raises(DateError):
        parse_date(text)  # without ``written`` only ISO 8601 is read


def test_front_matter_reading_is_reported_with_file_and_line(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text("---\ntitle: X\nvalid_from: February 1, 2024\nmodified_at: 2024-03-01\n"
                   "---\nBody.\n", encoding="utf-8")
    (checked,) = check_paths([doc], tz=SHANGHAI, root=doc.parent)
    assert [str(r) for r in checked.readings] == [
        f'{doc}:3: valid_from "February 1, 2024" read as 2024-02-01 (day)']
    (source,) = load_paths([doc], tz=SHANGHAI, root=doc.parent)
    assert source.documents[0].valid_from.start == datetime(2024, 2, 1, tzinfo=SHANGHAI)


def test_jsonl_relative_date_is_an_error_naming_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "t", "valid_from": "2024年2月"}) + "\n"
                    + json.dumps({"id": "b", "text": "t", "valid_from": "last week"}) + "\n",
                    encoding="utf-8")
    with pytest.raises(ValidationError) as info:
        check_paths([path], root=path.parent)
    (error,) = info.value.errors
    assert (error.line, error.field) == (2, "valid_from") and "relative" in error.reason


@settings(deadline=None)
@given(text=st.text(max_size=60))
def test_any_text_is_a_period_or_a_date_error(text: str) -> None:
    try:
        interval = parse_date(text, written=True)
    except DateError:
        return
    assert interval.start is not None and interval.start.tzinfo is not None
