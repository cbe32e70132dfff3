"""``Engine.ask(question, Asking(...))``: who asks, when, about when and in which zone
travel as one value, and give the same answer as the keywords they replace."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from chronorag.demo import DEMO_NOW
from chronorag.engine import Engine
from chronorag.model import Asking

RETURNS = "How many days do I have to return an item?"
TOKYO = ZoneInfo("Asia/Tokyo")


def test_asking_gives_the_answer_the_keywords_give(demo_rules_engine: Engine) -> None:
    by_keywords = demo_rules_engine.ask(RETURNS, now=DEMO_NOW, user="alice", k=3)
    by_value = demo_rules_engine.ask(RETURNS, Asking(user="alice", now=DEMO_NOW, k=3))
    assert by_value.to_json() == by_keywords.to_json()


def test_the_query_and_the_answer_carry_the_zone(demo_rules_engine: Engine) -> None:
    asked = Asking(now=datetime(2025, 11, 20, 9, 0), tz=TOKYO)  # naive: read in Tokyo
    query = demo_rules_engine.query(RETURNS, asked)
    assert query.tz is TOKYO
    assert query.now.utcoffset() == timedelta(hours=9)
    answer = demo_rules_engine.ask(RETURNS, asked)
    assert answer.tz is TOKYO
    assert answer.now == query.now


def test_without_a_zone_the_engines_is_used(demo_rules_engine: Engine) -> None:
    query = demo_rules_engine.query(RETURNS, Asking(now=DEMO_NOW))
    assert query.tz == demo_rules_engine.tz


def test_as_of_in_the_question_or_in_asking(demo_rules_engine: Engine) -> None:
    about = datetime(2024, 3, 1, tzinfo=UTC)
    query = demo_rules_engine.query(RETURNS, Asking(now=DEMO_NOW, as_of=about))
    assert query.as_of == about
    assert demo_rules_engine.query(RETURNS, Asking(now=DEMO_NOW)).as_of == DEMO_NOW


@pytest.mark.parametrize("keyword", [{"user": "alice"}, {"k": 3}, {"admin": True},
                                     {"now": DEMO_NOW}, {"tz": TOKYO}])
def test_asking_and_keywords_together_are_refused(demo_rules_engine: Engine,
                                                  keyword: dict[str, object]) -> None:
    with pytest.raises(TypeError, match="not both"):
        demo_rules_engine.ask(RETURNS, Asking(now=DEMO_NOW), **keyword)
