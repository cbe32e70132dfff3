"""Who a question names: a word for "I" alone may be generic, a name never is."""

from __future__ import annotations

import pytest

from chronorag.people import Directory, Person
from chronorag.understand.entities import find_entities, only_the_asker

FAMILY = Directory((Person("mom", "王芳", ("妈妈", "Mom")), Person("me", "李明", ())), {})


@pytest.mark.parametrize(("question", "user", "expected"), [
    ("How many days do I have to return an item?", "me", True),
    ("上周二我几点吃的午饭？", "me", True),
    ("What did my mom eat?", "me", False),          # Mom is named
    ("妈妈上周四几点去的医院？", "me", False),
    ("李明上周二吃了什么？", "me", False),            # the asker by name, not by "I"
    ("How many days do I have to return an item?", None, False),  # no asker: no "I"
    ("What is the return window?", "me", False),     # nobody named
])
def test_only_the_asker(question: str, user: str | None, expected: bool) -> None:
    entities = find_entities(question, directory=FAMILY, user=user)
    assert only_the_asker(entities, user=user) is expected
