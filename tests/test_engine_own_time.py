"""Every text read at its own time, through the engine with no model loaded.

A message's "yesterday", a diary's 上周五, a news story's "last Tuesday" are read against
when the text was said or written (``Document.reference_time``); a question's time judges
records by the times their texts state, never hides one said a day after its event, and a
"when" question answers the date with its phrase and its anchor.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import NO_MODEL_RULES, TEST_EMBEDDERS, HashEmbedder

from chronorag.engine import Engine
from chronorag.retrieve.embedders import EMBEDDERS

CORPUS = Path(__file__).parent / "cases" / "own_time" / "corpus.jsonl"
SHANGHAI = timezone(timedelta(hours=8))
CHAT_NOW = datetime(2023, 3, 1, tzinfo=SHANGHAI)
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    with pytest.MonkeyPatch.context() as patch:
        for name in TEST_EMBEDDERS:
            patch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))
        db = tmp_path_factory.mktemp("own_time") / "kb.db"
        with Engine(db, config=NO_MODEL_RULES, embedder="test-hash", judges=(),
                    tz=SHANGHAI) as built:
            built.ingest([CORPUS], now=NOW)
            yield built


def _ask(engine: Engine, question: str, now: datetime = NOW) -> dict[str, Any]:
    return engine.ask(question, now=now).to_json()


def test_a_when_question_answers_the_day_the_text_names_with_phrase_and_anchor(
        engine: Engine) -> None:
    answer = _ask(engine, "When did Jon lose his job as a banker?", CHAT_NOW)
    assert answer["status"] == "answered"
    assert answer["answer"] == '19 January 2023 ("yesterday", said on 20 January 2023)'
    time = answer["answer_time"]
    assert {k: time[k] for k in ("granularity", "source", "phrase", "doc_id", "chunk_id")} == {
        "granularity": "day", "source": "text", "phrase": "yesterday",
        "doc_id": "chat-1/D1:1", "chunk_id": "chat-1/D1:1#0"}
    assert _moment(time["start"]) == datetime(2023, 1, 19, tzinfo=SHANGHAI)
    assert _moment(time["end"]) == datetime(2023, 1, 20, tzinfo=SHANGHAI)
    assert _moment(time["anchor"]) == datetime(2023, 1, 20, 16, 4, tzinfo=SHANGHAI)
    first = answer["evidence"][0]
    assert first["doc_id"] == "chat-1/D1:1"
    assert [(t["text"], _moment(t["start"]), _moment(t["anchor"])) for t in first["times"]] == [
        ("yesterday", datetime(2023, 1, 19, tzinfo=SHANGHAI),
         datetime(2023, 1, 20, 16, 4, tzinfo=SHANGHAI))]


def _moment(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def test_a_record_said_the_day_after_its_event_answers_a_question_about_that_day(
        engine: Engine) -> None:
    answer = _ask(engine, "What happened to Jon's banking job on 19 January 2023?", CHAT_NOW)
    assert answer["status"] != "not_found"
    first = answer["evidence"][0]
    assert first["doc_id"] == "chat-1/D1:1" and "time_verified" in first["flags"]


def test_a_question_about_the_day_it_was_said_ranks_the_record_below_and_says_why(
        engine: Engine) -> None:
    # 20 January is when the turn was said, not when the job was lost: still reachable.
    answer = _ask(engine, "What happened to Jon's banking job on 20 January 2023?", CHAT_NOW)
    turn = next(e for e in answer["evidence"] if e["doc_id"] == "chat-1/D1:1")
    assert "violates_time" in turn["flags"]


@pytest.mark.parametrize(("question", "expected"), [
    ("When did Jon open his dance studio?",
     '27 January 2023 ("last Friday", said on 1 February 2023)'),
    ("我什么时候和妈妈去看的电影？", "2026年11月20日（“上周五”，记于2026年11月25日）"),
    ("When did the new Yangtze river bridge open?",
     '24 November 2026 ("last Tuesday", written on 26 November 2026)'),
    ("地铁十九号线是哪天开通的？", "2026年11月17日（“上周二”，写于2026年11月26日）"),
])
def test_relative_phrases_of_messages_diaries_and_news(engine: Engine, question: str,
                                                        expected: str) -> None:
    now = CHAT_NOW if "Jon" in question else NOW
    assert _ask(engine, question, now)["answer"] == expected


def test_a_record_whose_text_states_no_time_is_answered_from_its_date_and_says_so(
        engine: Engine) -> None:
    answer = _ask(engine, "When did I go bouldering with Tom?")
    assert answer["status"] == "answered"
    assert answer["answer"] == "10 November 2026 (the date it was recorded)"
    assert "time_from_metadata" in answer["flags"]
    assert answer["answer_time"]["source"] == "metadata"


def test_equally_good_records_that_disagree_on_the_day_are_uncertain(engine: Engine) -> None:
    answer = _ask(engine, "When did we adopt the puppy named Max?")
    assert answer["status"] == "uncertain"
    assert "times_disagree" in answer["flags"]
    assert {e["doc_id"] for e in answer["evidence"][:2]} == {"pets-1", "pets-2"}


def test_a_clock_question_still_answers_a_time_of_day(engine: Engine) -> None:
    answer = _ask(engine, "今天中午几点吃的饺子？", datetime(2026, 11, 24, 21, tzinfo=SHANGHAI))
    assert "answer_time" not in answer
    assert answer["evidence"][0]["doc_id"] == "diary-zh-2"


def test_review_names_relative_phrases_that_have_no_time_to_be_read_against(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chronorag.review import review

    for name in TEST_EMBEDDERS:
        monkeypatch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(
        '{"id": "museum", "text": "Yesterday the harbour museum reopened."}\n'
        '{"id": "news", "text": "Yesterday the bridge opened.", "published_at": "2026-11-26"}\n'
        '{"id": "plain", "text": "The museum opened on 3 May 2001."}\n', encoding="utf-8")
    with Engine(tmp_path / "kb.db", config=NO_MODEL_RULES, embedder="test-hash",
                judges=()) as built:
        built.ingest([corpus], now=NOW)
        report = review(built.store, as_of=NOW)
        [museum] = built.store.chunks(["museum#0"])
    assert [i.doc_ids for i in report.unanchored] == [("museum",)]
    assert "'Yesterday'" in report.unanchored[0].reason
    assert "unanchored" in report.to_json()
    # Its "yesterday" names no day: only absolute phrases are stored for it.
    assert [m for s in museum.sentences for m in s.mentions] == []


def test_the_turn_that_says_when_answers_beside_the_turn_that_says_what(
        engine: Engine) -> None:
    answer = _ask(engine, "When did Maria get in a car accident?",
                  datetime(2023, 8, 1, tzinfo=SHANGHAI))
    assert answer["answer"] == '2 July 2023 ("yesterday", said on 3 July 2023)'
    assert answer["answer_time"]["doc_id"] == "chat-2/D1:1"
    assert "time_from_related_record" in answer["flags"]
    # The record that says what happened, passed over for the date, is cited beside it.
    assert [e["doc_id"] for e in answer["evidence"][:2]] == ["chat-2/D1:1", "chat-2/D1:3"]


def test_a_period_counted_back_answers_when_it_began(engine: Engine) -> None:
    answer = _ask(engine, "When did Tim start playing the violin?",
                  datetime(2024, 1, 1, tzinfo=SHANGHAI))
    assert answer["answer"] == 'August 2023 ("for about four months", said on 6 December 2023)'
    assert answer["answer_time"]["source"] == "counted"
    assert "time_from_duration" in answer["flags"]


def test_a_record_said_days_after_the_asked_day_is_gathered_among_many_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Sixty alike turns on other days and one said the day after the asked day: with
    # room for only ten candidates, the question's words alone do not gather it; the
    # records said in the asked day or soon after (retrieve.scope.told_window) do.
    from dataclasses import replace

    for name in TEST_EMBEDDERS:
        monkeypatch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))
    lines = [json.dumps({"id": f"sam/{i}", "text": f"Sam: Doing fine, a quiet day number {i}.",
                         "occurred_at": f"2023-{9 + i // 28:02d}-{1 + i % 28:02d}T20:00",
                         "source_type": "message"}) for i in range(60)]
    lines.append(json.dumps({"id": "sam/meeting", "text": "Sam: I attended a Weight Watchers "
                             "meeting yesterday.", "occurred_at": "2023-12-05T20:16",
                             "source_type": "message"}))
    corpus = tmp_path / "sam.jsonl"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = replace(NO_MODEL_RULES, candidates=10)
    with Engine(tmp_path / "kb.db", config=config, embedder="test-hash", judges=()) as built:
        built.ingest([corpus], now=NOW)
        answer = built.ask("What was Sam doing on December 4, 2023?",
                           now=datetime(2024, 1, 1, tzinfo=SHANGHAI)).to_json()
    first = answer["evidence"][0]
    assert first["doc_id"] == "sam/meeting" and "time_verified" in first["flags"]
