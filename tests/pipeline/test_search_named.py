"""The search gathers passages in another script for the Latin names of a Chinese question
that no candidate spells, inside the asker's privacy scope, and reads first the document a
question names by its title in another script (``pipeline.named``), in every backend."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests.conftest import NO_MODEL_RULES, TEST_EMBEDDERS, HashEmbedder

from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.flags import Flag
from chronorag.model import Asking
from chronorag.retrieve.embedders import EMBEDDERS

NOW = datetime(2026, 6, 1, tzinfo=UTC)
ASKED = "GitHub 的用户名是按照什么规则分配的？"
# Chinese passages that share the question's words, enough to fill every candidate place.
CHINESE = [f"第{i}条：用户名按照什么规则分配？帐户用户名的规则由本网站分配。" for i in range(8)]
RECORDS = [
    *({"id": f"zh-{i}", "title": "帐户规则", "text": text} for i, text in enumerate(CHINESE)),
    {"id": "github-usernames", "title": "Username Policy",
     "text": "GitHub account names are available on a first-come, first-served basis."},
    {"id": "someone-elses-note", "title": "Note", "subject": "bob",
     "text": "Bob's GitHub username is bob-the-builder."},
]


def open_engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                records: list[dict[str, str]]) -> Iterator[Engine]:
    """A store of ``records`` in the backend ``request.param``: PostgreSQL reads the dense
    list inside the database."""
    folder = tmp_path_factory.mktemp("named")
    corpus = folder / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                      encoding="utf-8")
    if request.param == "postgres":
        server = request.getfixturevalue("pg_server")
        database = server.new_database()
        db: str | Path = server.uri(database)
    else:
        db = folder / "kb.db"
    config = replace(NO_MODEL_RULES, candidates=4)
    with pytest.MonkeyPatch.context() as patch:
        for name in TEST_EMBEDDERS:
            patch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))
        with Engine(db, config=config, embedder="test-hash", judges=()) as opened:
            opened.ingest([Path(corpus)], now=NOW)
            yield opened
    if request.param == "postgres":
        server.drop(database)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    yield from open_engine(request, tmp_path_factory, RECORDS)


def test_the_named_source_is_gathered_and_read_first(engine: Engine) -> None:
    query = engine.query(ASKED, Asking(now=NOW, k=20))
    plain = engine.retrieve(query, config=replace(engine.config, names_depth=0))
    assert "github-usernames" not in {h.chunk.doc_id for h in plain.hits}
    ranked = engine.retrieve(query)
    assert ranked.hits[0].chunk.doc_id == "github-usernames"
    assert all(Flag.NAMES_ABSENT in h.flags for h in ranked.hits[1:])
    assert get_preset("default").names_depth > 0


def test_a_passage_outside_the_askers_scope_is_never_gathered(engine: Engine) -> None:
    for user, admin in [(None, False), ("alice", False)]:
        query = engine.query(ASKED, Asking(now=NOW, k=20, user=user, admin=admin))
        assert "someone-elses-note" not in {h.chunk.doc_id for h in engine.retrieve(query).hits}
    query = engine.query(ASKED, Asking(now=NOW, k=20, user="bob"))
    assert "someone-elses-note" in {h.chunk.doc_id for h in engine.retrieve(query).hits}


TITLE_ASKED = "如果有人违反了可接受使用政策，会受到什么处理？"
# Chinese passages that mention the policy, enough to fill every candidate place.
MENTIONS = [f"第{i}条：您对本服务的使用将遵守可接受使用政策，违反的处理见第{i + 1}条。"
            for i in range(8)]
TITLED = [
    *({"id": f"tos-{i}", "title": "服务条款", "text": text} for i, text in enumerate(MENTIONS)),
    {"id": "aup", "title": "Acceptable Use Policy",
     "text": "Mozilla reserves the right to remove any content or suspend any users."},
]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def titled(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    yield from open_engine(request, tmp_path_factory, TITLED)


def test_the_document_named_by_its_title_elsewhere_is_read_first(titled: Engine) -> None:
    query = titled.query(TITLE_ASKED, Asking(now=NOW, k=20))
    plain = titled.retrieve(query, config=replace(titled.config, names_depth=0))
    assert "aup" not in {h.chunk.doc_id for h in plain.hits}
    ranked = titled.retrieve(query)
    assert ranked.hits[0].chunk.doc_id == "aup"
    assert Flag.TITLE_NAMED in ranked.hits[0].flags
    assert all(Flag.NAMES_ABSENT in h.flags for h in ranked.hits[1:])
    assert titled.ask(TITLE_ASKED, Asking(now=NOW, k=5)).evidence[0].doc_id == "aup"


def test_a_new_title_in_the_questions_script_is_read_at_once(titled: Engine,
                                                             tmp_path: Path) -> None:
    extra = tmp_path / "more.jsonl"
    extra.write_text(json.dumps({"id": "aup-zh", "title": "可接受使用政策",
                                 "text": "违反本政策的内容将被删除。"}, ensure_ascii=False) + "\n",
                     encoding="utf-8")
    titled.ingest([extra], now=NOW)
    try:
        # A document in the question's own script has the title now: nothing is moved.
        ranked = titled.retrieve(titled.query(TITLE_ASKED, Asking(now=NOW, k=20)))
        assert not any(Flag.TITLE_NAMED in h.flags for h in ranked.hits)
    finally:
        titled.delete(["aup-zh"])
