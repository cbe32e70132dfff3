"""Names and aliases in questions -> person ids."""

from __future__ import annotations

import pytest

from chronorag.people import Directory, Person, find_people

FAMILY = Directory((
    Person("dad", "李强", ("爸爸", "Dad")),
    Person("mom", "王芳", ("妈妈", "Mom", "老婆")),
    Person("kid", "李小雨", ("女儿", "小雨", "Amy")),
    Person("aunt", "小雨妈妈", ()),
))


def _ids(question: str, user: str | None = "me") -> list[tuple[str, str]]:
    return [(e.text, e.id) for e in find_people(question, FAMILY, user=user)]


@pytest.mark.parametrize(("question", "expected"), [
    ("上周二我几点吃的午饭？", [("我", "me")]),
    ("妈妈上周三去了医院吗", [("妈妈", "mom")]),
    ("What did ＭＯＭ eat?", [("ＭＯＭ", "mom")]),
    ("When did I call amy?", [("I", "me"), ("amy", "kid")]),
    ("小雨妈妈来了吗", [("小雨妈妈", "aunt")]),  # longest name first
    ("我们去哪儿了", []),  # 我们 is "we", not the user
    ("Annual report for my dad", [("my", "me"), ("dad", "dad")]),
])
def test_resolution(question: str, expected: list[tuple[str, str]]) -> None:
    assert _ids(question) == expected


def test_self_words_need_a_user() -> None:
    assert _ids("我几点吃的午饭", user=None) == []
