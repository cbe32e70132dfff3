"""How sure a question's time is read: the doubts, and comparisons lose their order word."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.model import Doubt, Relation
from chronorag.understand import understand
from chronorag.understand.doubt import compares

NOW = datetime(2024, 8, 30, 12, tzinfo=UTC)

_TIMES = ["2021年", "2022年6月15日", "2月", "5日", "去年10月", "上周", "in 2019", "on 6 May 2021",
          "after Aug 2008", "三年前", "2017年8月至11月"]
_EVENTS = ["湖人队获胜", "苹果停产iPhone 6", "the merger", "the election", "公众咨询开始"]
_JOINS = ["和", "与", "、", " and ", "，"]
_ENDS = ["哪个事件更早发生？", "是在同一个月吗？", "分别是什么？", "最早发生的是哪个？",
         "which happened first?", "in the same month?", "谁是总理？", "who won?", "是什么？"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TIMES + _EVENTS + _JOINS), max_size=6),
       st.sampled_from(_ENDS), st.text(max_size=20))
def test_doubts_are_well_formed_over_composed_and_arbitrary_text(parts, end, noise):
    for question in ("".join(parts) + end, noise + "".join(parts) + noise):
        constraint = understand(question, now=NOW).constraint
        assert len(set(constraint.doubts)) == len(constraint.doubts)
        assert all(isinstance(d, Doubt) for d in constraint.doubts)
        if constraint.interval is None:
            assert constraint.doubts == ()
        assert constraint.sure is (not constraint.doubts)
        if compares(question):
            assert constraint.order is None
            if constraint.interval is not None:
                assert Doubt.COMPARISON in constraint.doubts
        assert constraint.to_json()["confidence"] == ("sure" if constraint.sure else "unsure")


@settings(max_examples=100, deadline=None)
@given(st.integers(1950, 2030), st.integers(1, 12), st.integers(1, 28),
       st.sampled_from(["{y}年{m}月{d}日谁是德国总理？",
                        "Who led the party on {y}-{m:02d}-{d:02d}?",
                        "{y}年{m}月发生了什么？", "What happened in {y}?"]))
def test_one_full_time_in_a_plain_question_is_sure(y, m, d, template):
    constraint = understand(template.format(y=y, m=m, d=d), now=NOW).constraint
    assert constraint.relation is Relation.IN
    assert constraint.sure, constraint.doubts


def test_a_yearless_month_is_sure_once_its_sentence_gives_the_year():
    assert understand("2月谁是榜首？", now=NOW).constraint.doubts == (Doubt.FROM_NOW,)
    assert understand("2017年8月至11月谁是榜首？", now=NOW).constraint.sure


def test_the_first_of_a_kind_keeps_its_order_and_a_comparison_does_not():
    assert understand("第一次登月是哪一年？", now=NOW).constraint.order is not None
    assert understand("A和B哪个最早发生？", now=NOW).constraint.order is None
