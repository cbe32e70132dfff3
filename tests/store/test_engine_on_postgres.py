"""The engine over PostgreSQL answers exactly as over SQLite (``Engine(db)`` picks the
backend from ``db``), with the test embedder: the store is under test, not the models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronorag.demo import DEMO_NOW, QUESTIONS, demo_corpus, demo_people
from chronorag.engine import Engine
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

    assert cli.main([*command, "--db", pg_uri]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("crk_") if command[0] == "keys" else "undated" in out
