"""The name a text gives a thing, for "what is it called" (``answer.called``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.called import asks_called, called_span
from chronorag.answer.nearby import answer_near
from chronorag.answer.shape import Want, wanted

NOW = datetime(2026, 6, 1, tzinfo=UTC)
STATE = ("In mid-2023, the privacy statement described a state in which GitHub holds data "
         "it cannot link to a person. What did it call that state?")


@pytest.mark.parametrize("question", [
    STATE,
    "On GitHub's site, what is the footer link called that lets me opt out?",
    "What name did the notice say the New Tab page goes by on mobile?",
    "What do the terms call a person who uses the service?",
    "What other name did it give for flash cookies?",
    "这个功能叫什么？",
    "该条款的名称是什么？",
])
def test_questions_asking_what_a_thing_is_called(question: str) -> None:
    assert asks_called(question)
    assert wanted(question) is Want.NAME


@pytest.mark.parametrize("question", [
    "What phone number can I call to get the JAMS rules?",
    "Does Mozilla record the phone calls I make through a phone mask?",
    "What happens to my data when I delete my account?",
])
def test_questions_that_do_not(question: str) -> None:
    assert not asks_called(question)


@pytest.mark.parametrize(("question", "sentence", "name"), [
    (STATE, "GitHub may process data in a state called Not in a Position to Identify Data "
     "(NPI) or de-identified data.", "Not in a Position to Identify Data"),
    ("What is the footer link called that lets me opt out of sharing?",
     'You can click on the "Do Not Share My Personal Information" link on the footer or use '
     'the Global Privacy Control ("GPC") if available.', "Do Not Share My Personal Information"),
    ("What name does the New Tab page go by on mobile?",
     "We serve content on New Tab (referred to as home page on mobile).", "home page"),
    ("What is the program known as?", "The program, known as Sponsors, pays developers.",
     "Sponsors"),
    ("The statement says GitHub may use \"flash cookies\". What other name did it give for "
     "them?", "We may also use so-called “flash cookies” (also known as “Local Shared "
     "Objects” or “LSOs”) to collect and store information.", "Local Shared Objects"),
    ("这个功能叫什么？", "该功能称为“密码管理器”，可保存密码。", "密码管理器"),
    ("印度教中的精神导师的名称是什么？", "印度教中的精神导师被称为 古鲁(guru) ，在许多传统中普遍。",
     "古鲁(guru)"),
])
def test_the_name_after_called_or_the_one_quoted(question: str, sentence: str,
                                                  name: str) -> None:
    assert called_span(question, sentence) == name


@pytest.mark.parametrize(("question", "sentence"), [
    # Two quoted names, neither beside a noun of the question.
    ("What is it called?", 'Either "Alpha" or "Beta" may apply.'),
    # The name is the question's own.
    ("What is Firefox Relay called?", 'The service called "Firefox Relay" masks emails.'),
    ("What is it called?", "Nothing here names it."),
    # One quotation beside no noun of the question: a title, not the name asked for.
    ("路德将弥撒不称为牺牲而称为什么？", "在《关于废除私人弥撒》一书中，他认为弥撒是一种礼物。"),
])
def test_no_name_when_none_or_several_fit(question: str, sentence: str) -> None:
    assert called_span(question, sentence) is None


def test_the_naming_sentence_beside_the_best_one_gives_the_name() -> None:
    text = ("Not in a Position to Identify Data. In some situations GitHub may process data "
            "in a state called Not in a Position to Identify Data (NPI) or de-identified "
            "data. Data is in this state when we are not able to link data to an individual "
            "without taking additional steps.")
    best = ("Data is in this state when we are not able to link data to an individual "
            "without taking additional steps.")
    assert answer_near(STATE, best, text, now=NOW) == "Not in a Position to Identify Data"


PIECES = st.sampled_from(["called ", "known as ", "称为", "“", "”", '"', "「", "」", "《",
                          "》", " on mobile", " link", "(", ")", "or ", "叫什么"])


@given(question=st.text(max_size=60), parts=st.lists(st.one_of(PIECES, st.text(max_size=12)),
                                                      max_size=12))
def test_any_text_gives_a_span_of_the_sentence_or_none(question: str,
                                                       parts: list[str]) -> None:
    sentence = "".join(parts)
    asks_called(question)
    found = called_span(question, sentence)
    assert found is None or (found and found in sentence)
