"""The engine over PostgreSQL answers exactly as over SQLite (``Engine(db)`` picks the
backend from ``db``), with the test embedder: the store is under test, not the models."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from chronorag.config import get_preset
from chronorag.demo import DEMO_NOW, QUESTIONS, demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.errors import ConfigError
from chronorag.retrieve.snapshot import Indexes
from chronorag.store import PostgresStore, SQLiteStore, Store
from chronorag.store.opening_uri import open_store

CASES = Path(__file__).parents[1] / "cases"


def _prepared(store: Store) -> Store:
    store.set_setting("embedder", "test-hash")
    store.set_setting("judges", "")
    return store


def _answers(db: str) -> list[dict[str, object]]:
    with Engine(db, config="hybrid", tz=DEMO_NOW.tzinfo) as engine:  # type: ignore[arg-type]
        engine.ingest([demo_corpus(), CASES / "semantic" / "retail.yaml"], now=DEMO_NOW)
        engine.load_people(demo_people())
        return [json.loads(json.dumps(engine.ask(q, now=DEMO_NOW, user=user, k=3).to_json(),
                                      ensure_ascii=False)) for q, user in QUESTIONS]


def test_the_same_answers_on_both_backends(tmp_path: Path, pg_uri: str,
                                           test_embedders: tuple[str, ...]) -> None:
    sqlite_db = str(tmp_path / "kb.db")
    for store in (SQLiteStore(sqlite_db), PostgresStore(pg_uri)):
        _prepared(store).close()
    on_sqlite, on_postgres = _answers(sqlite_db), _answers(pg_uri)
    assert on_postgres == on_sqlite
    assert [a["status"] for a in on_postgres].count("answered") >= 3


def test_open_store_is_what_engine_opens(pg_uri: str) -> None:
    with Engine(pg_uri) as engine:
        assert isinstance(engine.store, PostgresStore)
    store = open_store(pg_uri)
    try:
        assert store.count()["documents"] == 0
    finally:
        store.close()


@pytest.mark.parametrize("command", [["keys", "add", "--user", "me"], ["review", "--json"]])
def test_cli_commands_take_a_postgres_uri(pg_uri: str, command: list[str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from chronorag import cli

    if command[0] == "review":  # a reader: the database must hold a store already
        assert cli.main([*command, "--db", pg_uri]) == 1
        assert "no store at" in capsys.readouterr().err
        PostgresStore(pg_uri).close()
    assert cli.main([*command, "--db", pg_uri]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("crk_") if command[0] == "keys" else "undated" in out


def test_a_new_engine_on_postgres_searches_the_database_not_a_local_index(
        pg_uri: str, test_embedders: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    _prepared(PostgresStore(pg_uri)).close()
    expected = _answers(pg_uri)

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("a local index was built")

    monkeypatch.setattr(Indexes, "rows", refuse)
    monkeypatch.setattr(Indexes, "vectors", refuse)
    with Engine(pg_uri, config="hybrid", tz=DEMO_NOW.tzinfo) as engine:  # type: ignore[arg-type]
        again = [json.loads(json.dumps(engine.ask(q, now=DEMO_NOW, user=user, k=3).to_json(),
                                       ensure_ascii=False)) for q, user in QUESTIONS]
    assert again == expected


def test_local_indexes_on_postgres_answer_alike(pg_uri: str,
                                                test_embedders: tuple[str, ...]) -> None:
    _prepared(PostgresStore(pg_uri)).close()
    in_database = _answers(pg_uri)
    local = replace(get_preset("hybrid"), index="local")
    with Engine(pg_uri, config=local, tz=DEMO_NOW.tzinfo) as engine:  # type: ignore[arg-type]
        assert not engine.components.in_store(engine.config)
        answers = [json.loads(json.dumps(engine.ask(q, now=DEMO_NOW, user=user, k=3).to_json(),
                                         ensure_ascii=False)) for q, user in QUESTIONS]
    assert answers == in_database


def test_a_sqlite_store_cannot_be_told_to_search_itself(tmp_path: Path) -> None:
    config = replace(get_preset("hybrid"), index="store")
    with Engine(tmp_path / "kb.db", config=config) as engine, pytest.raises(
            ConfigError, match="cannot search itself"):
        engine.ask("anything", now=DEMO_NOW)
    # An index that does not exist is refused when the configuration is made.
    with pytest.raises(ConfigError, match="unknown index 'nowhere'; choose one of: auto"):
        replace(config, index="nowhere")
