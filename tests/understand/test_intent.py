"""Question intent, and a leading condition clause that asks nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import Intent
from chronorag.understand.intent import detect_intent


@pytest.mark.parametrize(("question", "intent"), [
    ("When did Jon lose his job?", Intent.TIME),
    ("When someone pays for a Mozilla subscription, how much of their card number is kept?",
     Intent.CONTENT),
    ("When the return window closes, can I still send it back?", Intent.CONTENT),
    ("If I cancel today, when do I get my refund?", Intent.TIME),
    ("Once the order ships, how many times will I be emailed?", Intent.COUNT),
    ("When was the bridge opened, and by whom?", Intent.TIME),
    ("When the shop opened, the owner said so.", Intent.TIME),
    ("他什么时候去的北京？", Intent.TIME),
    ("What changed in the privacy statement in 2020?", Intent.CHANGE),
    ("What has changed in the refund policy?", Intent.CHANGE),
    ("What are the changes to the terms?", Intent.CHANGE),
    ("新版退货政策改了什么？", Intent.CHANGE),
    ("隐私政策有哪些变化？", Intent.CHANGE),
    ("When did the refund policy change?", Intent.TIME),
    ("What is new in your life?", Intent.CONTENT),
])
def test_intent_is_read_from_the_main_clause(question: str, intent: Intent) -> None:
    assert detect_intent(question) is intent


@given(st.text(max_size=200))
def test_any_text_has_an_intent(text: str) -> None:
    assert detect_intent(text) in set(Intent)
