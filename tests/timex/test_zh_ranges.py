"""Chinese month ranges, X和Y之间, dated parts of the day, weekdays of a month, offsets from
now, bare clock times and parts of the day, and the first / last weeks of a year."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.timex import extract, parse, sentence_mentions

# A Tuesday in the second half of the year, mid-morning.
NOW = datetime(2019, 9, 3, 10, 0, 0, tzinfo=UTC)


def _at(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text).replace(tzinfo=UTC)


def _one(text: str) -> tuple[str, datetime | None, datetime | None]:
    found = extract(text, now=NOW)
    assert len(found) == 1, found
    e = found[0]
    assert e.interval is not None
    return e.text, e.interval.start, e.interval.end


@pytest.mark.parametrize(("text", "span", "start", "end"), [
    # months without a year: this year's; a backwards range runs into the next year
    ("三月和九月之间的数据", "三月和九月之间", "2019-03-01", "2019-10-01"),
    ("给我8月至2月的数据", "8月至2月", "2019-08-01", "2020-03-01"),
    ("10月和5月间", "10月和5月间", "2019-10-01", "2020-06-01"),
    ("从3月份到6月份", "从3月份到6月份", "2019-03-01", "2019-07-01"),
    # 和 joins a range when 之间 / 间 follows
    ("2015年和2018年之间的销售额", "2015年和2018年之间", "2015-01-01", "2019-01-01"),
    ("1月15号4点和2月3号9点之间", "1月15号4点和2月3号9点之间", "2019-01-15T04:00",
     "2019-02-03T10:00"),
    # a part of the day after a date
    ("7月25日早间公告", "7月25日早间", "2019-07-25T08:00", "2019-07-25T12:00"),
    ("2018年3月1日晚上", "2018年3月1日晚上", "2018-03-01T18:00", "2018-03-02T00:00"),
    # a weekday in apposition belongs to the date
    ("10月12号，星期一", "10月12号，星期一", "2019-10-12", "2019-10-13"),
    # the last / N-th weekday of a month, and a range from it
    ("四月的最后一个星期一", "四月的最后一个星期一", "2019-04-29", "2019-04-30"),
    ("十月的第二个周五", "十月的第二个周五", "2019-10-11", "2019-10-12"),
    ("我从四月的最后一个星期一到十月一日不在", "从四月的最后一个星期一到十月一日",
     "2019-04-29", "2019-10-02"),
    # the half-year before / after the current one
    ("我上个半年都不在北京", "上个半年", "2019-01-01", "2019-07-01"),
    ("下一个半年", "下一个半年", "2020-01-01", "2020-07-01"),
    # offsets from now in clock units
    ("他10分钟之前刚走", "10分钟之前", "2019-09-03T09:50", "2019-09-03T09:51"),
    ("3个小时后出发", "3个小时后", "2019-09-03T13:00", "2019-09-03T13:01"),
    ("之后5分钟", "之后5分钟", "2019-09-03T10:00", "2019-09-03T10:05"),
    ("接下来两个小时内", "接下来两个小时内", "2019-09-03T10:00", "2019-09-03T12:00"),
    ("一个半小时后", "一个半小时后", "2019-09-03T11:30", "2019-09-03T11:31"),
    ("过去5分钟", "过去5分钟", "2019-09-03T09:55", "2019-09-03T10:00"),
    ("最近一小时", "最近一小时", "2019-09-03T09:00", "2019-09-03T10:00"),
    ("今后两小时", "今后两小时", "2019-09-03T10:00", "2019-09-03T12:00"),
    ("还剩5 分钟", "还剩5 分钟", "2019-09-03T10:00", "2019-09-03T10:05"),
    ("半年前", "半年前", "2019-03-01", "2019-04-01"),
    ("半个月后", "半个月后", "2019-09-18", "2019-09-19"),
    ("一年半前", "一年半前", "2018-03-01", "2018-04-01"),
    ("一个半月后", "一个半月后", "2019-10-18", "2019-10-19"),
    # a part of the day after a weekday
    ("下周五晚上", "下周五晚上", "2019-09-13T18:00", "2019-09-14T00:00"),
    ("周一上午", "周一上午", "2019-09-02T08:00", "2019-09-02T12:00"),
    ("今晚", "今晚", "2019-09-03T18:00", "2019-09-04T00:00"),
    ("明早出发", "明早", "2019-09-04T06:00", "2019-09-04T12:00"),
    ("今晚8点", "今晚8点", "2019-09-03T20:00", "2019-09-03T21:00"),
    # bare clocks joined by 和 … 之间
    ("在10点和11点之间", "在10点和11点之间", "2019-09-03T10:00", "2019-09-03T12:00"),
    # a clock time with seconds, and a range of them
    ("从17点55分23秒至18点33分02秒", "从17点55分23秒至18点33分02秒", "2019-09-03T17:55:23",
     "2019-09-03T18:33:03"),
    # a clock range on a date
    ("2016年12月15日晚上7:00到8:00的会议", "2016年12月15日晚上7:00到8:00",
     "2016-12-15T19:00", "2016-12-15T20:00"),
    # bare clock times and parts of the day
    ("9点", "9点", "2019-09-03T09:00", "2019-09-03T10:00"),
    ("零点", "零点", "2019-09-03T00:00", "2019-09-03T01:00"),
    ("在十二点之后", "在十二点之后", "2019-09-03T13:00", None),
    ("上午", "上午", "2019-09-03T08:00", "2019-09-03T12:00"),
    ("晚上", "晚上", "2019-09-03T18:00", "2019-09-04T00:00"),
    # the first / last N weeks of a year are whole ISO weeks; 前N周 ends before today
    ("今年的最後 3 週", "今年的最後 3 週", "2019-12-09", "2019-12-30"),
    ("今年的前2周", "今年的前2周", "2018-12-31", "2019-01-14"),
    ("前1周", "前1周", "2019-08-27", "2019-09-03"),
    ("之后的5分钟", "之后的5分钟", "2019-09-03T10:00", "2019-09-03T10:05"),
    ("八点半之前", "八点半之前", None, "2019-09-03T08:30"),
    ("三点一刻到四点", "三点一刻到四点", "2019-09-03T03:15", "2019-09-03T04:00"),
    # 初一 … 初十 are lunar days without 农历; a time of day joins them
    ("十月初一", "十月初一", "2019-10-28", "2019-10-29"),
    ("2015年十月初一早上九点二十", "2015年十月初一早上九点二十", "2015-11-12T09:20",
     "2015-11-12T09:21"),
    ("十月初", "十月初", "2019-10-01", "2019-10-11"),  # early October, not lunar
    # yy-mm-dd next to Chinese text
    ("你12-11-10有时间吗", "12-11-10", "2012-11-10", "2012-11-11"),
])
def test_zh_range_readings(text: str, span: str, start: str, end: str | None) -> None:
    assert _one(text) == (span, _at(start), _at(end))


@pytest.mark.parametrize("text", [
    "我有三点建议。",  # three points
    "快一点！",  # a little
    "第3点",
    "有2点。",
    "零点五",  # 0.5
    "这三点很重要",
    "电话010-12-34",
    "5月32日3点到4点",  # an impossible date is skipped whole
    "四月的第五个星期三",  # April 2019 has four Wednesdays
    "我有三点和四点两个建议",
])
def test_zh_range_non_times(text: str) -> None:
    assert [e for e in extract(text, now=NOW) if e.interval is not None] == []


def test_two_months_joined_by_and_alone_stay_apart() -> None:
    found = extract("3月和9月的数据", now=NOW)
    assert [e.text for e in found] == ["3月", "9月"]


@pytest.mark.parametrize(("text", "start"), [
    ("上半年", "2019-01-01"),  # the first half of this year, not the previous half-year
    ("下半年", "2019-07-01"),
])
def test_half_of_this_year_unchanged(text: str, start: str) -> None:
    assert _one(text)[1] == _at(start)


PIECES = st.sampled_from(["三月", "9月", "和", "与", "之间", "间", "至", "到", "-", "从", "在",
                          "早间", "晚上", "上午", "，", "星期一", "周", "最后一个", "第二个",
                          "的", "上个", "半年", "10", "分钟", "小时", "个半", "秒", "之后",
                          "之前", "过去", "最近", "今后", "点", "零", "十二", "9", "半", "一刻",
                          "初一", "十月", "闰", "12-11-10", "今晚", "明早", "年", "日", "号"])


@settings(max_examples=200, deadline=None)
@given(st.lists(PIECES, max_size=8).map("".join), st.text(max_size=4))
def test_range_pieces_never_crash(text: str, noise: str) -> None:
    for candidate in (text, noise + text, text + noise):
        for found in parse(candidate, now=NOW):
            assert candidate[found.start:found.end] == found.text
            if found.interval.start is not None and found.interval.end is not None:
                assert found.interval.start < found.interval.end
        for e in extract(candidate, now=NOW):
            assert candidate[e.start:e.end] == e.text
        sentence_mentions(candidate, [(0, len(candidate))])
