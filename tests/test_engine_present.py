"""Questions about the present over the demo corpus, with no model loaded.

"today" in a question about a rule asks exactly what the question without it asks (as_of
is now, the version in force answers, the upcoming version stays upcoming); in a question
about the day's records it keeps the day. See ``chronorag.understand.present``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from chronorag.demo import DEMO_NOW
from chronorag.engine import Engine

# DEMO_NOW (2026-11-25) lies between returns-2024 (in force) and returns-2026, approved
# and valid from 2026-12-01: an upcoming version exists.
PAIRS = [
    ("How long is the return window today?", "How long is the return window?"),
    ("Within how many days may customers return any unused item for a full refund today?",
     "Within how many days may customers return any unused item for a full refund?"),
    ("How many days do I have to return an item today?",
     "How many days do I have to return an item?"),
    ("今天的退货期限是多久？", "退货期限是多久？"),
    ("现行的退货政策是什么？", "退货政策是什么？"),
]
UPCOMING = "Within how many days may customers return any unused item for a full refund?"
# The evening of 2026-11-24, the day of the demo's record rec-003 (lunch at 12:05).
EVENING = datetime(2026, 11, 24, 20, 0, tzinfo=DEMO_NOW.tzinfo)
DAY_QUESTIONS = ["What did I eat today?", "今天我吃了什么？", "我今天几点吃的午饭？"]


def _ask(engine: Engine, question: str, *, now: datetime = DEMO_NOW) -> dict[str, Any]:
    return engine.ask(question, now=now, user="me").to_json()


def _without_wording(payload: dict[str, Any]) -> dict[str, Any]:
    """The answer JSON without what differs by wording alone."""
    understanding = {k: v for k, v in payload["understanding"].items()
                     if k not in ("content", "time_expressions")}
    return {k: v for k, v in payload.items() if k != "question"} | {
        "understanding": understanding}


@pytest.mark.parametrize(("today", "plain"), PAIRS)
def test_today_in_a_rule_question_is_the_present(demo_rules_engine: Engine, today: str,
                                                 plain: str) -> None:
    asked, bare = _ask(demo_rules_engine, today), _ask(demo_rules_engine, plain)
    assert _without_wording(asked) == _without_wording(bare)
    assert asked["as_of"] == DEMO_NOW.isoformat()
    assert asked["understanding"]["content"] == bare["understanding"]["content"]


def test_the_upcoming_version_stays_upcoming(demo_rules_engine: Engine) -> None:
    """The pair above has teeth: the upcoming version is listed, and the same question on
    the explicit day (what "today" used to mean) moves as_of to midnight."""
    bare = _ask(demo_rules_engine, UPCOMING)
    assert [u["doc_id"] for u in bare["upcoming"]] == ["returns-2026"]
    assert bare["evidence"][0]["doc_id"] == "returns-2024"
    on_the_day = _ask(demo_rules_engine, UPCOMING.replace("?", " on 25 November 2026?"))
    assert on_the_day["as_of"] == "2026-11-25T00:00:00+08:00"
    assert _without_wording(on_the_day) != _without_wording(bare)


@pytest.mark.parametrize("question", DAY_QUESTIONS)
def test_today_in_a_question_about_records_keeps_the_day(demo_rules_engine: Engine,
                                                         question: str) -> None:
    payload = _ask(demo_rules_engine, question, now=EVENING)
    midnight = EVENING.replace(hour=0)
    constraint = payload["understanding"]["constraint"]
    assert (constraint["relation"], constraint["start"], constraint["end"]) == (
        "in", midnight.isoformat(), (midnight + timedelta(days=1)).isoformat())
    assert payload["as_of"] == midnight.isoformat()
    for item in payload["evidence"]:
        if item["source_type"] == "record" and \
                not item["occurred_at"].startswith(midnight.date().isoformat()):
            assert "violates_time" in item["flags"], item["doc_id"]


def test_the_day_s_record_answers(demo_rules_engine: Engine) -> None:
    """The lunch of the day answers, not the one of a week before (rec-001)."""
    today = _ask(demo_rules_engine, "我今天几点吃的午饭？", now=EVENING)
    assert (today["status"], today["answer"]) == ("answered", "12:05")
    assert today["evidence"][0]["doc_id"] == "rec-003"
