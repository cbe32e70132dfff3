"""Chinese Gregorian holidays and parts of named months."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chronorag.timex import extract, sentence_mentions

NOW = datetime(2019, 9, 3, 10, 0, 0, tzinfo=UTC)


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(("text", "span", "start", "end"), [
    ("国庆节放假", "国庆节", "2019-10-01", "2019-10-02"),
    ("2018年圣诞节", "2018年圣诞节", "2018-12-25", "2018-12-26"),
    ("明年的元旦", "明年的元旦", "2020-01-01", "2020-01-02"),
    ("五一", "五一", "2019-05-01", "2019-05-02"),
    ("今年国庆", "今年国庆", "2019-10-01", "2019-10-02"),
    ("教師節", "教師節", "2019-09-10", "2019-09-11"),
    ("月底", "月底", "2019-09-21", "2019-10-01"),
    ("本月底", "本月底", "2019-09-21", "2019-10-01"),
    ("上个月初", "上个月初", "2019-08-01", "2019-08-11"),
    ("下月中旬", "下月中旬", "2019-10-11", "2019-10-21"),
    ("2019年3月底", "2019年3月底", "2019-03-21", "2019-04-01"),
    ("2019年十二月初", "2019年十二月初", "2019-12-01", "2019-12-11"),
])
def test_holidays_and_month_parts(text: str, span: str, start: str, end: str) -> None:
    [e] = extract(text, now=NOW)
    assert e.interval is not None
    assert (e.text, e.interval.start, e.interval.end) == (span, _at(start), _at(end))


@pytest.mark.parametrize("text", ["五一二", "十五一", "三个月底", "神龙二年正月初一"])
def test_numbers_are_no_holidays(text: str) -> None:
    assert [e for e in extract(text, now=NOW) if e.interval is not None] == []


def test_month_part_with_a_year_is_found_at_ingest() -> None:
    text = "公司于2019年3月底成立。"
    [mentions] = sentence_mentions(text, [(0, len(text))])
    assert [(m.text, m.interval.start) for m in mentions] == [("2019年3月底", _at("2019-03-21"))]
