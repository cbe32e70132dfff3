"""Bad transcripts: a file with any invalid turn is rejected whole, each problem as
``path:line: field: reason``; and any text in a turn loads or is named as a problem."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronorag.errors import ValidationError
from chronorag.ingest import load_paths

T0 = "2023-05-08T13:56"
GOOD = {"conversation": "c", "session": 1, "speaker": "Jon", "time": T0, "text": "hi"}


def _write(tmp_path: Path, *lines: dict[str, Any] | str, name: str = "a.chat.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x, ensure_ascii=False))
                            + "\n" for x in lines), encoding="utf-8")
    return path


def _errors(*paths: Path) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        load_paths(list(paths))
    assert caught.value.exit_code == 2
    return [str(e) for e in caught.value.errors]


def _turn(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in {**GOOD, **fields}.items() if v is not ...}


def test_required_fields(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD, {"session": 1, "time": T0})
    assert _errors(path) == [f"{path}:2: conversation: is required",
                             f"{path}:2: speaker: is required",
                             f"{path}:2: text: is required"]


@pytest.mark.parametrize(("fields", "problem"), [
    ({"conversation": " "}, "conversation: is empty"),
    ({"speaker": 7}, "speaker: must be a string, got a number"),
    ({"text": ""}, "text: is empty"),
    ({"text": ["hi"]}, "text: must be a string, got a list"),
    ({"session": 1.5}, "session: must be a string or a whole number, got a number"),
    ({"session": True}, "session: must be a string or a whole number, got a boolean"),
    ({"session": ""}, "session: is empty (leave it out for a conversation of one session)"),
    ({"turn": ""}, "turn: is empty"),
    ({"private": "yes"}, "private: must be true or false, got a string"),
    ({"image_caption": {"url": "x"}}, "image_caption: must be a string, got an object"),
    ({"time": "May 8"}, "time: 'May 8' is not a valid ISO 8601 date; use e.g. "
                        '"2021", "2021-05", "2021-05-06", "2021-05-06T12:30:00Z"'),
    ({"time": "2023-02-30"}, "time: '2023-02-30' is not a valid ISO 8601 date"),
])
def test_field_problems(tmp_path: Path, fields: dict[str, Any], problem: str) -> None:
    path = _write(tmp_path, GOOD, _turn(**{"session": 2, **fields}))
    assert _errors(path) == [f"{path}:2: {problem}"]


@pytest.mark.parametrize(("key", "reason"), [
    ("id", 'is "conversation/turn"; name the turn with "turn"'),
    ("subject", 'is the speaker of a private turn; use "private": true'),
    ("occurred_at", 'is the turn\'s "time"; use "time"'),
    ("title", "is written from the conversation, the session, the speaker and the turn "
              "replied to; remove it"),
    ("source_type", 'is "message" for every turn; remove it'),
    ("valid_from", 'is a document field a turn does not take; remove it (see '
                   '"Conversations" in the README)'),
    ("ingested_at", 'is a document field a turn does not take; remove it (see '
                    '"Conversations" in the README)'),
    ("next", "is written from the conversation; rename it"),
    ("position", "is written from the conversation; rename it"),
])
def test_fields_a_turn_does_not_take(tmp_path: Path, key: str, reason: str) -> None:
    path = _write(tmp_path, _turn(**{key: "x"}))
    assert _errors(path) == [f"{path}:1: {key}: {reason}"]


def test_a_first_turn_needs_a_time(tmp_path: Path) -> None:
    path = _write(tmp_path, _turn(time=...), _turn(session=2), _turn(session=2, time=...),
                  _turn(session=3, time=None))
    reason = ("time: is required on the first turn of a session (later turns without one "
              "take the time of the turn before them)")
    assert _errors(path) == [f"{path}:1: {reason}", f"{path}:4: {reason}"]


def test_problems_of_one_turn_cause_none_on_the_next(tmp_path: Path) -> None:
    # Line 1's bad time and missing speaker are reported once: line 2, with no time of its
    # own, is not told it needs one; and line 1 still counts as the session's first turn,
    # so line 2 is "s1:2".
    path = _write(tmp_path, _turn(time="soon", speaker=...), _turn(time=...),
                  _turn(time=..., turn="s1:2"))
    assert _errors(path) == [
        f"{path}:1: speaker: is required",
        f"{path}:1: time: 'soon' is not a valid ISO 8601 date; use e.g. "
        '"2021", "2021-05", "2021-05-06", "2021-05-06T12:30:00Z"',
        f"{path}:3: turn: duplicate turn id 'c/s1:2'; first used at line 2"]


def test_a_default_id_taken_by_a_named_turn(tmp_path: Path) -> None:
    path = _write(tmp_path, _turn(turn="s1:2"), _turn(time=...))
    assert _errors(path) == [
        f"{path}:2: turn: duplicate turn id 'c/s1:2' (a turn without \"turn\" is numbered "
        "by its position in its session); first used at line 1"]


def test_duplicate_turn_ids(tmp_path: Path) -> None:
    path = _write(tmp_path, _turn(turn="x"), _turn(turn="x", time=...),
                  _turn(session="1", time=...), _turn(session=" 1", time=..., turn="s1:3"))
    # Sessions 1, "1" and " 1" are one session: line 3 is its third turn, "s1:3".
    assert _errors(path) == [
        f"{path}:2: turn: duplicate turn id 'c/x'; first used at line 1",
        f"{path}:4: turn: duplicate turn id 'c/s1:3'; first used at line 3"]


def test_the_same_turn_in_two_files_is_a_duplicate_id(tmp_path: Path) -> None:
    first = _write(tmp_path, GOOD, name="a.chat.jsonl")
    second = _write(tmp_path, GOOD, name="b.chat.jsonl")
    assert _errors(first, second) == [
        f"{second}:1: id: duplicate id 'c/s1:1'; first used at {first}:1"]


def test_lines_that_are_not_turns(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD, "[1, 2]", '{"conversation": ', _turn(time=..., x=float("nan")))
    assert _errors(path) == [
        f"{path}:2: json: must be a JSON object, got list",
        f"{path}:3: json: not valid JSON (Expecting value at column 18)",
        f"{path}:4: x: must hold JSON values (string, number, bool, list, object)"]


def test_given_metadata_must_be_an_object(tmp_path: Path) -> None:
    path = _write(tmp_path, _turn(metadata="notes"))
    assert _errors(path) == [f"{path}:1: metadata: must be an object, got a string"]


def test_an_empty_transcript(tmp_path: Path) -> None:
    path = _write(tmp_path, "  ")
    assert _errors(path) == [f"{path}:0: path: no documents (the file is empty)"]


def test_one_bad_turn_rejects_every_file_of_the_call(tmp_path: Path) -> None:
    good = _write(tmp_path, GOOD, name="good.chat.jsonl")
    bad = _write(tmp_path, _turn(conversation="d"), _turn(conversation="d", time=..., speaker=""),
                 name="bad.chat.jsonl")
    assert _errors(good, bad) == [f"{bad}:2: speaker: is empty"]


# -- any text ---------------------------------------------------------------------------

ANY = st.characters(exclude_categories=("Cs",))  # every code point UTF-8 can encode
STEERING = st.sampled_from(list(" \n\t\r\u2028\u3000/:“”—·…上周五昨天{}[]\"'\\"))
TEXT = st.lists(st.one_of(ANY, STEERING), max_size=80).map("".join)
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
FIELDS = {"conversation", "speaker", "text", "turn", "session", "time", "id"}


@FUZZ
@given(turns=st.lists(st.fixed_dictionaries(
    {"conversation": TEXT, "speaker": TEXT, "text": TEXT},
    optional={"turn": TEXT, "session": st.one_of(TEXT, st.integers()),
              "time": st.one_of(st.just(T0), TEXT)}), min_size=1, max_size=4))
def test_any_text_in_a_turn_loads_or_names_each_problem(
        tmp_path_factory: pytest.TempPathFactory, turns: list[dict[str, Any]]) -> None:
    path = tmp_path_factory.mktemp("chat") / "a.chat.jsonl"
    path.write_text("".join(json.dumps({"time": T0, **t}, ensure_ascii=False) + "\n"
                            for t in turns), encoding="utf-8")
    try:
        files = load_paths([path])
    except ValidationError as exc:
        for error in exc.errors:
            assert error.path == str(path) and 1 <= error.line <= len(turns)
            assert error.field in FIELDS, error
            assert error.reason and "\n" not in error.reason
        return
    docs = [d for f in files for d in f.documents]
    assert len(docs) == len(turns)
    for doc in docs:
        speaker = doc.metadata["speaker"]
        assert doc.text.startswith(f"{speaker}: ") and doc.text.strip()
        assert doc.id.startswith(f"{doc.metadata['conversation']}/")
        assert doc.occurred_at is not None and doc.occurred_at.start is not None
