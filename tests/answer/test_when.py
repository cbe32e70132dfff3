"""Date answers: formatting at the phrase's granularity, the text before the metadata,
and the checks that a date is not contradicted by its own evidence."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from chronorag.answer import check, when
from chronorag.flags import Flag
from chronorag.model import Evidence, Granularity, Interval, Mention

SAID = datetime(2023, 1, 20, 16, 4, tzinfo=UTC)


def _day(y: int, m: int, d: int) -> Interval:
    start = datetime(y, m, d, tzinfo=UTC)
    return Interval(start, start + timedelta(days=1), Granularity.DAY)


def _item(*times: Mention, occurred: datetime | None = SAID,
          source_type: str = "message") -> Evidence:
    return Evidence("d", "d#0", "", "Jon: Lost my job yesterday.", 0, 27, source_type, None,
                    None, None, occurred, True, (), 0.9, {"semantic": 0.9}, times=times)


YESTERDAY = Mention("yesterday", 15, 24, _day(2023, 1, 19), anchor=SAID)


@pytest.mark.parametrize(("interval", "zh", "expected"), [
    (_day(2023, 1, 19), False, "19 January 2023"),
    (_day(2023, 1, 19), True, "2023年1月19日"),
    (Interval(datetime(2023, 1, 1, tzinfo=UTC), datetime(2023, 2, 1, tzinfo=UTC),
              Granularity.MONTH), False, "January 2023"),
    (Interval(datetime(2022, 1, 1, tzinfo=UTC), datetime(2023, 1, 1, tzinfo=UTC),
              Granularity.YEAR), True, "2022年"),
    (Interval(datetime(2023, 1, 16, tzinfo=UTC), datetime(2023, 1, 23, tzinfo=UTC),
              Granularity.WEEK), False, "2023-01-16 – 2023-01-22"),
])
def test_a_period_is_written_at_its_own_granularity(interval: Interval, zh: bool,
                                                    expected: str) -> None:
    assert when.format_interval(interval, tz=UTC, zh=zh) == expected


def test_the_text_answers_before_the_metadata_with_phrase_and_anchor() -> None:
    time = when.answer_time(_item(YESTERDAY), tz=UTC)
    assert time is not None and (time.source, time.phrase, time.anchor) == (
        "text", "yesterday", SAID)
    assert when.format_answer(time, question="When did Jon lose his job?", tz=UTC,
                              source_type="message") == \
        '19 January 2023 ("yesterday", said on 20 January 2023)'


def test_without_a_stated_time_the_recorded_day_answers_in_the_readers_zone() -> None:
    shanghai = timezone(timedelta(hours=8))
    time = when.answer_time(_item(occurred=datetime(2023, 1, 20, 20, tzinfo=UTC)), tz=shanghai)
    assert time is not None and time.source == "metadata"
    assert when.format_answer(time, question="他哪天丢的工作？", tz=shanghai) == \
        "2023年1月21日（记录日期）"
    assert when.answer_time(_item(occurred=None), tz=UTC) is None


def test_a_date_the_text_contradicts_is_rejected() -> None:
    item = _item(YESTERDAY)
    assert check.check_date([_day(2023, 1, 20)], item) == [Flag.DATE_CONTRADICTED_BY_TEXT]
    assert check.check_date([_day(2023, 1, 19)], item) == []
    # One agreeing date is enough: an answer may also name the day it was said.
    assert check.check_date([_day(2023, 1, 20), _day(2023, 1, 19)], item) == []
    # A text that states no date cannot contradict.
    assert check.check_date([_day(2023, 1, 20)], _item()) == []


def test_the_event_window_is_judged_by_the_text_first() -> None:
    window = _day(2023, 1, 19)
    assert check.check_window([_item(YESTERDAY)], window) == []
    assert check.check_window([_item()], window) == [Flag.EVIDENCE_OUTSIDE_INTERVAL]


def test_times_disagree_when_an_equal_record_names_another_day() -> None:
    best = when.answer_time(_item(YESTERDAY), tz=UTC)
    week = Mention("last week", 15, 24, Interval(datetime(2023, 1, 9, tzinfo=UTC),
                                                 datetime(2023, 1, 16, tzinfo=UTC),
                                                 Granularity.WEEK), anchor=SAID)
    other = when.answer_time(_item(week), tz=UTC)
    assert best is not None and other is not None
    assert when.disagreeing(best, [other])
    assert not when.disagreeing(best, [best])


def test_a_record_that_states_no_time_is_a_bound_not_a_date() -> None:
    # Recorded the day after: it spoke of an event that had happened. Recorded the day
    # before the event, it cannot have: that disagrees. For a plan it is the other way.
    best = when.answer_time(_item(YESTERDAY), tz=UTC)
    after = when.answer_time(_item(), tz=UTC)
    before = when.answer_time(_item(occurred=datetime(2023, 1, 18, 9, tzinfo=UTC)), tz=UTC)
    assert best is not None and after is not None and before is not None
    assert not when.disagreeing(best, [after], tense=-1)
    assert when.disagreeing(best, [before], tense=-1)
    assert when.disagreeing(best, [after], tense=1)
    assert not when.disagreeing(best, [before], tense=1)


def test_a_text_that_counts_back_answers_where_the_period_began() -> None:
    item = Evidence("t", "t#0", "", "Tim: I've been playing the violin for about four "
                    "months now.", 0, 60, "message", None, None, None,
                    datetime(2023, 12, 6, 17, 34, tzinfo=UTC), True, (), 0.9,
                    {"semantic": 0.9})
    time = when.answer_time(item, tz=UTC, tense=-1)
    assert time is not None and (time.source, time.phrase) == ("counted",
                                                               "for about four months")
    assert when.format_answer(time, question="When did Tim start playing the violin?",
                              tz=UTC, source_type="message") == \
        'August 2023 ("for about four months", said on 6 December 2023)'
    # A question about what is still to come is not answered by where a period began.
    future = when.answer_time(item, tz=UTC, tense=1)
    assert future is not None and future.source == "metadata"


@pytest.mark.parametrize(("question", "expected"), [
    ("When did Jon lose his job?", -1), ("When was the bridge opened?", -1),
    ("When will John start his new job?", 1), ("When is Melanie planning to go camping?", 1),
    ("When is the talent show?", 0), ("他什么时候去了北京？", -1),
    ("她打算什么时候去露营？", 1), ("会议是哪天？", 0),
])
def test_the_tense_of_a_question(question: str, expected: int) -> None:
    assert when.question_tense(question) == expected


@pytest.mark.parametrize(("question", "clock"), [
    ("What time did I have lunch?", True), ("我几点吃的午饭？", True),
    ("When did Jon lose his job?", False), ("他哪天丢的工作？", False),
])
def test_clock_questions_are_told_apart(question: str, clock: bool) -> None:
    assert when.asks_clock(question) is clock


def test_a_written_answer_naming_the_day_said_instead_of_the_day_meant_is_rejected() -> None:
    from chronorag.answer.written import DATE, check_written

    item = _item(YESTERDAY)
    asked = dict(evidence=[item], question="When did Jon lose his job?", now=SAID,
                 as_of=SAID, tz=UTC)
    wrong = check_written("Jon lost his job on 20 January 2023 [d].", **asked)  # type: ignore[arg-type]
    assert DATE in {p.rule for p in wrong.problems}
    right = check_written("Jon lost his job on 19 January 2023 [d].", **asked)  # type: ignore[arg-type]
    assert right.accepted
    both = check_written("On 20 January 2023 Jon said he lost his job the day before, "
                         "19 January 2023 [d].", **asked)  # type: ignore[arg-type]
    assert both.accepted


def test_an_absolute_phrase_read_by_a_relative_rule_names_no_anchor() -> None:
    # 下午 makes "2023年3月5日下午" a rule that may read yearless dates against the text's
    # time, but this phrase has its year: it needs no anchor, and the answer says none.
    said = datetime(2023, 3, 5, 20, tzinfo=UTC)
    afternoon = Mention("2023年3月5日下午", 0, 12, Interval(
        datetime(2023, 3, 5, 12, tzinfo=UTC), datetime(2023, 3, 5, 18, tzinfo=UTC),
        Granularity.HOUR), anchor=said)
    item = Evidence("n", "n#0", "", "2023年3月5日下午，代表团审议。", 0, 17, "news", None, None,
                    None, said, True, (), 0.9, {"semantic": 0.9}, times=(afternoon,))
    time = when.answer_time(item, tz=UTC)
    assert time is not None and (time.source, time.anchor) == ("text", None)
    # An absolute phrase is answered in the text's own words when asked in its language.
    assert when.format_answer(time, question="什么时间审议？", tz=UTC) == "2023年3月5日下午"
    assert when.format_answer(time, question="When was it reviewed?", tz=UTC) == \
        "5 March 2023"


def test_a_news_story_neither_takes_nor_gives_a_date() -> None:
    assert not when.tells_part(_item(source_type="news"))
    assert when.tells_part(_item(source_type="message"))
    assert when.tells_part(_item(source_type=None))  # type: ignore[arg-type]


def _year(y: int) -> Interval:
    return Interval(datetime(y, 1, 1, tzinfo=UTC), datetime(y + 1, 1, 1, tzinfo=UTC),
                    Granularity.YEAR)


AUG_3 = datetime(2023, 8, 3, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(("phrase", "question", "expected"), [
    ("a year ago", "When did Maria start volunteering?",
     'about August 2022 ("a year ago", said on 3 August 2023)'),
    ("two years earlier", "When did Maria start volunteering?",
     'about August 2021 ("two years earlier", said on 3 August 2023)'),
    ("一年前", "她什么时候开始做志愿者的？", "约2022年8月（“一年前”，说于2023年8月3日）"),
])
def test_a_count_of_years_back_lands_near_the_anchors_month(phrase: str, question: str,
                                                            expected: str) -> None:
    back = int(phrase.startswith("two")) + 1
    mention = Mention(phrase, 0, len(phrase), _year(2023 - back), anchor=AUG_3)
    time = when.answer_time(_item(mention, occurred=AUG_3), tz=UTC)
    assert time is not None and time.approximate
    assert time.interval.granularity is Granularity.MONTH
    assert time.to_json()["approximate"] is True
    assert when.format_answer(time, question=question, tz=UTC,
                              source_type="message") == expected


@pytest.mark.parametrize("phrase", ["last year", "去年", "2022"])
def test_a_calendar_year_named_relative_to_the_anchor_stays_that_year(phrase: str) -> None:
    mention = Mention(phrase, 0, len(phrase), _year(2022), anchor=AUG_3)
    time = when.answer_time(_item(mention, occurred=AUG_3), tz=UTC)
    assert time is not None and not time.approximate
    assert time.interval == _year(2022)


@given(st.datetimes(timezones=st.just(UTC)), st.integers(0, 3000),
       st.sampled_from(["years ago", "年前", "year earlier"]))
def test_years_back_at_any_anchor_lands_in_the_year_it_names(anchor: datetime, back: int,
                                                             words: str) -> None:
    # The mention's year needs a next year for its end: datetime stops at 9999.
    assume(1 <= anchor.year - back <= 9998)
    mention = Mention(f"{back} {words}", 0, 9, _year(anchor.year - back), anchor=anchor)
    landed = when.years_back(mention, anchor=anchor, tz=UTC)
    assert landed is not None and landed.start is not None
    assert (landed.start.year, landed.start.month) == (anchor.year - back, anchor.month)
