"""Durations and waits a sentence states (``answer.durations``); through the short answer
they are tested in ``test_shape``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.durations import duration, relative_wait


@pytest.mark.parametrize(("question", "sentence", "span"), [
    ("How long does a refund take?", "Refunds arrive within 10-14 business days.",
     "10-14 business days"),
    ("How long do you keep my data?", "We keep it for as long as your account is active.",
     "for as long as your account is active"),
    # A bound under a negation is a limit: its span without "more than".
    ("How long is my data retained?",
     "We do not retain personal data for more than 25 months.", "25 months"),
    ("How soon must I tell you?", "You must notify us immediately.", "immediately"),
    ("数据保留多久？", "我们会将数据保留30天。", "30天"),
    ("What is the longest retention period?",
     "Logs are kept for 30 days and backups for 90 days.", "90 days"),
])
def test_the_length_asked_for(question: str, sentence: str, span: str) -> None:
    assert duration(question, sentence) == span


def test_no_length_no_span() -> None:
    assert duration("How long does it take?", "We answer every request.") is None


@pytest.mark.parametrize(("sentence", "span"), [
    ("Your account may be deleted after 2 months of inactivity.", "after 2 months"),
    ("Changes take effect immediately.", "take effect immediately"),
    ("We reply 30 days before the renewal.", "30 days"),
    ("您的请求将在30天内处理。", "30天内"),
])
def test_a_when_said_as_a_wait(sentence: str, span: str) -> None:
    assert relative_wait("When is it deleted?", sentence) == span


def test_an_age_is_no_wait() -> None:
    assert relative_wait("When can I join?", "You must be 13 years of age.") is None


@given(st.text(max_size=80), st.text(max_size=200))
def test_any_text_is_survived(question: str, sentence: str) -> None:
    for found in (duration(question, sentence), relative_wait(question, sentence)):
        assert found is None or isinstance(found, str)
