"""Questions about a document's own date, answered from its ``valid_from`` or
``modified_at``: as the text writes the date when the field came from the text."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.asks_date import asked_field
from chronorag.answer.decide import Decision
from chronorag.answer.own_date import own_date
from chronorag.model import AnswerStatus, Document, Evidence, Granularity, Interval, Status

DAY = Interval(datetime(2025, 6, 10, tzinfo=UTC), datetime(2025, 6, 11, tzinfo=UTC),
               Granularity.DAY)
STATED = {"_from_text": {"valid_from": {
    "value": "2025-06-10", "sentence": "Effective June 10, 2025", "start": 22, "end": 45,
    "by": "ingest --dates-from-text"}}}


@pytest.mark.parametrize(("question", "field"), [
    ("When did the current Firefox Terms of Use take effect?", "valid_from"),
    ("What was the effective date of the Marketplace terms in force in 2021?", "valid_from"),
    ("Which Privacy Notice applied on 1 February 2026? Give its effective date.",
     "valid_from"),
    ("As of March 2020, which version of the Terms of Service was in effect?", "valid_from"),
    ("When was the privacy notice for job candidates last updated?", "modified_at"),
    ("现行的 Firefox 使用条款是哪天生效的？", "valid_from"),
    ("这份隐私政策是什么时候更新的？", "modified_at"),
    ("When did Jon lose his job as a banker?", None),
    # The time it is asked at is no date it asks for.
    ("According to the cookie list in force in February 2022, when did the _octo cookie "
     "expire?", None),
    ("Which terms were in effect on 1 May 2024, and when were they last updated?",
     "modified_at"),
    ("How long is the return window?", None),
    ("Is the return policy in effect?", None),  # not a when-question
    ("上周二我几点吃的午饭？", None),
    # Applying from a date is taking effect; when a policy applies is a condition.
    ("From what date do the Focus Terms of Use apply?", "valid_from"),
    ("Since when has the current Privacy Statement applied?", "valid_from"),
    ("本政策从哪天起适用？", "valid_from"),
    ("When does the refund policy apply?", None),
    ("Which terms apply to me?", None),
])
def test_which_date_a_question_asks_for(question: str, field: str | None) -> None:
    assert asked_field(question) == field


def _decision(doc_id: str = "tou") -> Decision:
    text = "Mozilla grants you a licence."
    item = Evidence(doc_id, f"{doc_id}#3", doc_id, text, 0, len(text), "policy",
                    Status.APPROVED, datetime(2025, 6, 10, tzinfo=UTC), None, None, True, (),
                    0.9, {"semantic": 0.9})
    return Decision(AnswerStatus.ANSWERED, "a licence", (item,), (), ())


def test_a_date_the_text_states_is_answered_as_written_with_its_sentence() -> None:
    doc = Document(id="tou", text="", valid_from=DAY, metadata=STATED)
    got = own_date(_decision(), question="When did the Terms of Use take effect?",
                   documents={"tou": doc}, tz=UTC)
    assert got is not None and got.answer == "June 10, 2025"
    assert got.time is not None and got.time.source == "text"
    assert got.time.to_json()["sentence"] == "Effective June 10, 2025"
    assert got.status is AnswerStatus.ANSWERED


def test_the_day_is_compared_in_each_dates_own_zone() -> None:
    shanghai = timezone(timedelta(hours=8))
    local = Interval(datetime(2025, 6, 10, tzinfo=shanghai),
                     datetime(2025, 6, 11, tzinfo=shanghai), Granularity.DAY)
    doc = Document(id="tou", text="", valid_from=local, metadata=STATED)
    got = own_date(_decision(), question="When did it take effect?", documents={"tou": doc},
                   tz=UTC)
    assert got is not None and got.answer == "June 10, 2025"


def test_a_front_matter_date_is_answered_at_its_granularity() -> None:
    doc = Document(id="tou", text="", valid_from=DAY)
    got = own_date(_decision(), question="现行条款是哪天生效的？", documents={"tou": doc}, tz=UTC)
    assert got is not None and got.answer == "2025年6月10日" and got.time is not None
    assert got.time.source == "metadata" and got.time.phrase is None


@pytest.mark.parametrize("case", ["no field", "other question", "not found", "two views"])
def test_otherwise_the_decision_is_left_to_the_other_rules(case: str) -> None:
    doc = Document(id="tou", text="", valid_from=None if case == "no field" else DAY,
                   metadata=STATED)
    decision = _decision()
    if case == "not found":
        decision = Decision(AnswerStatus.NOT_FOUND, None, decision.deciding, (), ())
    if case == "two views":
        decision = Decision(AnswerStatus.ANSWERED, "x", decision.deciding * 2, (), ())
    question = "How long?" if case == "other question" else "When did it take effect?"
    assert own_date(decision, question=question, documents={"tou": doc}, tz=UTC) is None


@given(st.text(max_size=200))
def test_any_question_and_any_stored_sentence_are_survived(text: str) -> None:
    asked_field(text)
    metadata = {"_from_text": {"valid_from": {"sentence": text}}}
    doc = Document(id="tou", text="", valid_from=DAY, metadata=metadata)
    question = "When did it take effect? " + text
    got = own_date(_decision(), question=question, documents={"tou": doc}, tz=UTC)
    # Whatever the stored sentence says, the answer is the document's date.
    assert asked_field(question) != "valid_from" or (got is not None and bool(got.answer))


def test_a_numbered_part_the_sentence_dates_is_left_to_the_sentence() -> None:
    doc = Document(id="tou", text="", valid_from=DAY, metadata=STATED)
    sentence = "Version 2.1 of these Terms took effect on March 17, 2026."
    item = replace(_decision().deciding[0], sentence=sentence)
    decision = Decision(AnswerStatus.ANSWERED, sentence, (item,), (), ())
    asked = "When did version 2.1 of the Terms take effect?"
    assert own_date(decision, question=asked, documents={"tou": doc}, tz=UTC) is None
    # A year in the question is its time, not a part of the document.
    got = own_date(decision, question="Which Terms were in effect in 2026? When did they "
                   "take effect?", documents={"tou": doc}, tz=UTC)
    assert got is not None and got.answer == "June 10, 2025"


def test_a_sentence_saying_its_subject_takes_effect_now_answers_for_it() -> None:
    doc = Document(id="tou", text="", valid_from=DAY, metadata=STATED)
    sentence = ("We may suspend or terminate your access at any time, with or without notice, "
                "effective immediately.")
    item = replace(_decision().deciding[0], sentence=sentence)
    decision = Decision(AnswerStatus.ANSWERED, sentence, (item,), (), ())
    asked = "When the company suspends my access, from when does that take effect?"
    assert own_date(decision, question=asked, documents={"tou": doc}, tz=UTC) is None
    # A question that names the document asks for the document's own date.
    got = own_date(decision, question="When did the Terms take effect?",
                   documents={"tou": doc}, tz=UTC)
    assert got is not None and got.answer == "June 10, 2025"
