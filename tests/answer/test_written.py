"""Checks of a written answer against its evidence (no model, no HTTP)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.answer.written import (
    DATE,
    EMPTY,
    NO_CITATION,
    NOT_APPLICABLE,
    NUMBER,
    UNKNOWN_CITATION,
    check_written,
    citations,
    numbers,
)
from chronorag.model import Evidence

from .test_decide import ev

NOW = datetime(2026, 11, 5, 9, 0, tzinfo=UTC)
Q = "How many days do I have to return an item?"
NEW = ev("policy-2026", "Customers may return items within 30 days of delivery.",
         valid_from="2026-11-01T00:00:00+00:00", title="Return policy 2026")
OLD = ev("policy-2025", "Customers may return items within 45 days.", applicable=False,
         flags=("superseded",), valid_from="2025-01-01T00:00:00+00:00")
SOON = ev("policy-2027", "From 2027 the window is 60 days.", applicable=False,
          flags=("not_yet_valid",), valid_from="2027-01-01T00:00:00+00:00")
EVIDENCE = (NEW, OLD, SOON)


def rules(text: str, *, evidence: tuple[Evidence, ...] = EVIDENCE, question: str = Q,
          tz: timezone = UTC) -> list[str]:
    verdict = check_written(text, evidence=evidence, question=question, now=NOW, as_of=NOW,
                            tz=tz)
    return [p.rule for p in verdict.problems]


def test_an_answer_from_applicable_evidence_is_accepted() -> None:
    assert rules("You have 30 days from delivery [policy-2026].") == []
    assert rules("30 days [policy-2026#0].") == []  # the chunk id cites too
    assert rules("Since 1 November 2026 the window is 30 days [policy-2026].") == []
    assert rules("As of 5 November 2026: thirty days [policy-2026].") == []


@pytest.mark.parametrize(("text", "rule"), [
    ("You have 30 days [policy-2031].", UNKNOWN_CITATION),
    ("You have 45 days [policy-2025].", NOT_APPLICABLE),
    ("From 2027 you have 60 days [policy-2027].", NOT_APPLICABLE),
    ("You have 30 days.", NO_CITATION),
    ("You have 31 days [policy-2026].", NUMBER),
    ("You have thirty-one days [policy-2026].", NUMBER),
    ("Since 2 November 2026 you have 30 days [policy-2026].", DATE),
    ("  ", EMPTY),
])
def test_each_rule(text: str, rule: str) -> None:
    assert rule in rules(text)


def test_a_number_of_an_uncited_item_is_not_supported() -> None:
    # 45 is in the evidence, but only in the superseded version, which is not cited.
    assert rules("You have 45 days [policy-2026].") == [NUMBER]


def test_a_date_may_be_coarser_than_stated_never_finer() -> None:
    assert rules("In November 2026 the window is 30 days [policy-2026].") == []
    item = ev("pm", "Boris Johnson was prime minister from July 2019 to September 2022.",
              source_type="wiki")
    question = "Who was prime minister on 6 May 2021?"
    assert rules("On 6 May 2021 it was Boris Johnson [pm].", evidence=(item,),
                 question=question) == []
    assert rules("From July 2019 to September 2022: Boris Johnson [pm].", evidence=(item,),
                 question=question) == []
    assert DATE in rules("Boris Johnson, from 3 July 2019 [pm].", evidence=(item,),
                         question=question)


def test_a_record_time_is_supported_by_its_occurred_at_in_the_asked_zone() -> None:
    shanghai = timezone(timedelta(hours=8))
    lunch = ev("rec-1", "和同事在公司楼下吃了午饭。", occurred_at="2026-11-17T04:30:00+00:00",
               source_type="record")
    assert rules("你在12:30吃的午饭 [rec-1]。", evidence=(lunch,), question="我几点吃的午饭？",
                 tz=shanghai) == []
    assert DATE in rules("你在13:30吃的午饭 [rec-1]。", evidence=(lunch,),
                         question="我几点吃的午饭？", tz=shanghai)


def test_chinese_numbers() -> None:
    item = ev("zh", "顾客可在收货后三十天内退货。")
    assert rules("三十天 [zh]。", evidence=(item,), question="退货期限多久？") == []
    assert rules("30天 [zh]。", evidence=(item,), question="退货期限多久？") == []
    assert NUMBER in rules("四十五天 [zh]。", evidence=(item,), question="退货期限多久？")
    # 一 alone is a word as often as a number: not judged.
    assert rules("一起看：三十天 [zh]。", evidence=(item,), question="退货期限多久？") == []


def test_citations_are_read_in_order_once() -> None:
    assert citations("a [x] b [y, x] c [x]") == ["x", "y"]
    assert citations("no brackets") == []
    assert numbers("1,000.5 and 二十一 and twenty") >= {1000.5, 21, 20}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_judged_without_crashing(text: str) -> None:
    verdict = check_written(text, evidence=EVIDENCE, question=Q, now=NOW, as_of=NOW, tz=UTC)
    assert verdict.accepted is (not verdict.problems)
    assert set(verdict.cited) <= set(citations(text))


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_any_text_citing_a_superseded_version_is_rejected(text: str) -> None:
    verdict = check_written(f"{text} [policy-2025]", evidence=EVIDENCE, question=Q, now=NOW,
                            as_of=NOW, tz=UTC)
    assert not verdict.accepted


def test_a_range_is_stated_with_its_ends_at_their_own_precision() -> None:
    item = ev("pm", "Boris Johnson was prime minister from July 2019 to September 2022.",
              source_type="wiki")
    question = "Who was prime minister in 2021?"
    for said in ("in 2019", "in September 2022", "from 2019 to 2022", "until 2022"):
        assert rules(f"Boris Johnson, {said} [pm].", evidence=(item,), question=question) \
            == [], said
    for said in ("in 2018", "from 2019 to 2023", "in August 2022", "between 1900 and 2100",
                 "from 2020 to 2022"):
        assert DATE in rules(f"Boris Johnson, {said} [pm].", evidence=(item,),
                             question=question), said


def test_an_id_with_a_comma_is_one_citation() -> None:
    item = ev("/wiki/Washington,_D.C.", "The city was founded in 1790.", source_type="wiki")
    assert rules("In 1790 [/wiki/Washington,_D.C.].", evidence=(item,),
                 question="When was Washington founded?") == []
    assert citations("[a, b]", ids={"a", "b"}) == ["a", "b"]


def test_a_bracket_quoted_from_the_evidence_is_not_a_citation() -> None:
    item = ev("school", "The act recognises two kinds of school[clarification needed].")
    quote = "The act recognises two kinds of school[clarification needed]. [school]"
    assert rules(quote, evidence=(item,), question="Which schools?") == []
    assert rules("Public and independent [clarification needed].", evidence=(item,),
                 question="Which schools?") == [NO_CITATION]


def test_list_numbers_state_nothing() -> None:
    listed = "1. You have 30 days [policy-2026].\n2) Since 1 November 2026 [policy-2026]."
    assert rules(listed) == []
    assert NUMBER in rules("1. You have 31 days [policy-2026].")
    assert NUMBER in rules("You have 30 days, 2. [policy-2026]")  # not at a line's start


def test_a_copied_prompt_or_a_loop_is_no_answer() -> None:
    echo = "[policy-2026] Return policy 2026\ndoc_id: policy-2026\napplicable: yes\n30 days"
    assert "echoes_the_prompt" in rules(echo)
    loop = "The answer is 30 days [policy-2026]. " * 3
    assert "repeats_itself" in rules(loop)
    twice = "The answer is 30 days [policy-2026]. " * 2
    assert rules(twice) == []
    assert rules("Customers may return items within 30 days; that is what applies now "
                 "[policy-2026].") == []
