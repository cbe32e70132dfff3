"""A time named by an event: the opening clause that says when (``understand.event``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import Granularity
from chronorag.understand import understand
from chronorag.understand.event import named_time

NOW = datetime(2024, 8, 30, tzinfo=UTC)


@pytest.mark.parametrize(("question", "event", "unit"), [
    ("博鳌亚洲论坛2019年年会当天，开始实施了什么处置方案？", "博鳌亚洲论坛2019年年会",
     Granularity.DAY),
    ("在中美元首会晤当日，发生了什么？", "中美元首会晤", Granularity.DAY),
    ("杭州亚运会延期当月，孙颖的案件在哪个法院公开审理？", "杭州亚运会延期",
     Granularity.MONTH),
    ("全国一体化政务服务平台试运行当年，上半年A股的‘亏损王’是谁？", "全国一体化政务服务平台试运行",
     Granularity.YEAR),
    ("On the day Apple released iOS 13.2, what did Huawei announce?",
     "Apple released iOS 13.2", Granularity.DAY),
    ("In the month when the store opened, how many visitors came?", "the store opened",
     Granularity.MONTH),
])
def test_an_opening_clause_names_the_time(question: str, event: str, unit: Granularity) -> None:
    found = named_time(question)
    assert found is not None
    named, (start, end), (word_start, word_end) = found
    assert (named.event, named.unit) == (event, unit)
    assert start == 0 and start <= word_start < word_end <= end
    assert event in question[start:end]


@pytest.mark.parametrize("question", [
    # This month's minutes: no clause ends at the word.
    "Firefox Relay 的电话号码别名当月的通话时长用完以后，再来的电话会怎么样？",
    "当天，发生了什么？",  # no event before it
    "博鳌亚洲论坛年会当天，？",  # nothing asked after it
    "On the day of the launch, who spoke?",
    "In the year 2019, who won the league?",
    "What did the mayor say on the day of the first launch?",
])
def test_no_event_names_the_time(question: str) -> None:
    assert named_time(question) is None


def test_the_clause_leaves_the_content_and_its_unit_word_sets_no_time() -> None:
    u = understand("杭州亚运会延期当月，孙颖的案件在哪个法院公开审理？", now=NOW)
    assert u.content == "孙颖的案件在哪个法院公开审理？"
    # "当月" is the month of the event, not August 2024.
    assert u.constraint.interval is None
    assert u.event is not None and u.to_json()["event"] == {"event": "杭州亚运会延期",
                                                            "unit": "month"}


def test_a_time_inside_the_clause_still_constrains() -> None:
    u = understand("博鳌亚洲论坛2019年年会当天，开始实施了什么处置方案？", now=NOW)
    assert u.content == "开始实施了什么处置方案？"
    assert u.constraint.interval is not None and u.constraint.interval.start is not None
    assert u.constraint.interval.start.year == 2019


def test_a_time_without_its_year_after_the_clause_sets_no_time() -> None:
    # "至10日" is the 10th of the event's month, which is not known, not August 2024's.
    u = understand("福建舰首次航行试验当天，至10日审核结果的公示时间是什么？", now=NOW)
    assert u.constraint.interval is None and u.content == "审核结果的公示时间是什么？"
    # Without the clause the same time is read in now's month, with its doubt.
    u = understand("至10日审核结果的公示时间是什么？", now=NOW)
    assert u.constraint.interval is not None and [d.value for d in u.constraint.doubts] == [
        "from_now"]


@given(st.text(max_size=120))
def test_any_text(question: str) -> None:
    found = named_time(question)
    if found is not None:
        named, (start, end), (word_start, word_end) = found
        assert named.event and named.event in question[start:end]
        assert 0 <= start <= word_start < word_end <= end <= len(question)
    understand(question, now=NOW)


@given(st.text(max_size=40), st.sampled_from(["当天，", "当月,", "当年 ，", "那一天，"]),
       st.text(max_size=40))
def test_steered_text(event: str, word: str, rest: str) -> None:
    question = event + word + rest
    found = named_time(question)
    if found is not None:
        assert found[0].event.strip() == found[0].event
    u = understand(question, now=NOW)
    assert (u.event is None) == (found is None)
