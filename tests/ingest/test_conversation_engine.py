"""Transcripts through an Engine and the CLI: re-ingest is a no-op, an edited turn
replaces itself and the turn that quotes it, private turns follow the privacy rules, and
what a question that names a speaker sees. The hashed test embedder stands in for the
models, except in the one ``slow`` test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from chronorag import cli
from chronorag.engine import Engine
from chronorag.store.sqlite import SQLiteStore

from ..conftest import NO_MODEL_RULES

CASES = Path(__file__).parents[1] / "cases" / "conversation"
EXAMPLE = CASES / "example.chat.jsonl"
PEOPLE = CASES / "people.json"
NOW = datetime(2023, 6, 20, 12, 0, tzinfo=UTC)
JOB = "hike-club/s2:1"  # Jon's private turn: "I start a new job on Monday."


@pytest.fixture
def engine(tmp_path: Path, test_embedders: tuple[str, ...]) -> Iterator[Engine]:
    with Engine(tmp_path / "kb.db", config=NO_MODEL_RULES, embedder="test-hash", judges=(),
                tz=UTC) as opened:
        opened.ingest([EXAMPLE], now=NOW)
        yield opened


def _ask(engine: Engine, question: str, **options: Any) -> dict[str, Any]:
    return engine.ask(question, now=NOW, k=5, **options).to_json()


def _ids(answer: dict[str, Any]) -> list[str]:
    return [e["doc_id"] for e in answer["evidence"]]


def test_reingesting_a_transcript_is_a_no_op(engine: Engine) -> None:
    before = engine.store.generation()
    report = engine.ingest([EXAMPLE], now=NOW)
    assert (report.added, report.replaced, len(report.unchanged)) == ((), (), 9)
    assert engine.store.generation() == before


def test_an_edited_turn_replaces_itself_and_the_turn_that_quotes_it(
        engine: Engine, tmp_path: Path) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    turn = json.loads(lines[0])
    lines[0] = json.dumps({**turn, "text": "Did you go hiking on Sunday?"}, ensure_ascii=False)
    edited = tmp_path / "example.chat.jsonl"
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # The edit is a copy in another folder: replacing the stored turns is asked for.
    report = engine.ingest([edited], now=NOW, replace=True)
    assert sorted(report.replaced) == ["hike-club/s1:1", "hike-club/s1:2"]
    assert len(report.unchanged) == 7 and report.added == ()
    [reply] = engine.store.documents(["hike-club/s1:2"])
    assert reply.title.endswith("replying to Gina: “Did you go hiking on Sunday?”")


def test_a_reply_is_found_by_the_question_it_answers(
        tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    # "Yes, last Friday!" never says "kayaking"; its title quotes the question.
    lines = [{"speaker": "Gina", "text": "Did you go kayaking on the lake?",
              "time": "2023-05-08T13:56"}, {"speaker": "Jon", "text": "Yes, last Friday!"},
             {"speaker": "Gina", "text": "We cooked pasta for dinner."},
             {"speaker": "Jon", "text": "Sounds tasty."}]
    path = tmp_path / "talk.chat.jsonl"
    path.write_text("".join(json.dumps({"conversation": "c", **line}) + "\n"
                            for line in lines), encoding="utf-8")
    with Engine(tmp_path / "kb.db", config=NO_MODEL_RULES, embedder="test-hash", judges=(),
                tz=UTC) as opened:
        opened.ingest([path], now=NOW)
        assert sorted(_ids(_ask(opened, "Who went kayaking?"))[:2]) == ["c/1", "c/2"]


def test_a_question_about_a_day_finds_the_turn_that_said_it_later(engine: Engine) -> None:
    # Said on 8 May: "Yes, last Friday too! We climbed Mount Tam." Friday is 5 May.
    answer = _ask(engine, "Who climbed Mount Tam on 5 May 2023?")
    [top] = [e for e in answer["evidence"] if e["doc_id"] == "hike-club/s1:2"]
    assert "time_verified" in top["flags"] and answer["evidence"][0] is top


def test_a_private_turn_is_seen_by_its_speaker_those_granted_and_admins(
        engine: Engine) -> None:
    question = "When does Jon start the new job?"
    assert JOB not in _ids(_ask(engine, question))
    assert JOB not in _ids(_ask(engine, question, user="Gina"))
    assert JOB in _ids(_ask(engine, question, user="Jon"))
    assert JOB in _ids(_ask(engine, question, admin=True))
    engine.load_people(PEOPLE)  # grants Gina access to Jon's records
    assert _ids(_ask(engine, question, user="Gina")) == [JOB]


def test_without_a_people_file_a_named_speaker_is_words_like_any_other(
        engine: Engine) -> None:
    answer = _ask(engine, "What did Gina say about hiking?")
    assert answer["understanding"]["entities"] == []
    assert answer["status"] == "answered"
    assert "hike-club/s1:1" in _ids(answer)


def test_with_a_people_file_a_named_speaker_keeps_only_their_private_turns(
        engine: Engine) -> None:
    engine.load_people(PEOPLE)
    # A question naming a person keeps only records about them: public turns have no
    # subject, so none of them is left.
    answer = _ask(engine, "What did Gina say about hiking?")
    assert answer["understanding"]["entities"] == [{"text": "Gina", "id": "Gina"}]
    assert (answer["status"], answer["evidence"]) == ("not_found", [])
    assert _ask(engine, "吉娜说了什么？", user="Gina")["evidence"] == []
    # Jon named by Gina (granted): only Jon's private turn.
    assert _ids(_ask(engine, "What did Jonathan say about his job?", user="Gina")) == [JOB]
    # A question naming only its asker, by "I", keeps the asker's records and the public
    # turns.
    answer = _ask(engine, "Did I climb Mount Tam?", user="Jon")
    assert answer["understanding"]["entities"] == [{"text": "I", "id": "Jon"}]
    assert "hike-club/s1:2" in _ids(answer)


# -- the command line ---------------------------------------------------------------------


def _store(tmp_path: Path) -> Path:
    db = tmp_path / "kb.db"
    with SQLiteStore(db) as store:  # the test embedder, no judges: no model to load
        store.set_setting("embedder", "test-hash")
        store.set_setting("judges", "")
    return db


def _state(db: Path) -> tuple[Any, ...]:
    with SQLiteStore(db) as store:
        return store.documents(), store.count(), store.generation()


def test_cli_ingests_a_transcript_once(tmp_path: Path, test_embedders: tuple[str, ...],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = _store(tmp_path)
    assert cli.main(["ingest", str(EXAMPLE), "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["added"] == 9
    assert cli.main(["ingest", str(EXAMPLE), "--db", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["added"], report["replaced"], report["unchanged"]) == (0, 0, 9)


def test_cli_rejects_a_bad_transcript_whole(tmp_path: Path, test_embedders: tuple[str, ...],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = _store(tmp_path)
    assert cli.main(["ingest", str(EXAMPLE), "--db", str(db)]) == 0
    before = _state(db)
    bad = tmp_path / "bad.chat.jsonl"
    bad.write_text(
        '{"conversation": "new", "speaker": "Ann", "time": "2023-07-01", "text": "fine"}\n'
        '{"conversation": "new", "speaker": "Ann", "text": "also fine"}\n'
        '{"conversation": "new", "session": 2, "speaker": "Ann", "text": "when?", '
        '"subject": "Ann"}\n', encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["ingest", str(bad), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3: time: is required on the first turn of a session" in err
    assert f'{bad}:3: subject: is the speaker of a private turn; use "private": true' in err
    assert _state(db) == before


@pytest.mark.slow  # e5-small and the cross-encoder
def test_real_models_find_the_turns(tmp_path: Path) -> None:
    expected = {"Who climbed Mount Tam?": "hike-club/s1:2",
                "Did Jon go hiking?": "hike-club/s1:2",  # "Yes, ...": found by its question
                "Which trail did Jon take?": "hike-club/s1:4",
                "小雨复查的结果怎么样？": "家庭群/xiaoyu-reply"}
    with Engine(tmp_path / "kb.db", tz=UTC) as real:
        real.ingest([EXAMPLE], now=NOW)
        got = {q: _ids(real.ask(q, now=NOW, k=3).to_json())[0] for q in expected}
    assert got == expected
