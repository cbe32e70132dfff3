""""What changed" through ``Engine.ask``: from the version chain of the deciding document,
only the versions the asker may see; a document without versions answers as any question."""

from __future__ import annotations

import pytest

from chronorag.engine import Engine
from chronorag.flags import Flag
from chronorag.model import AnswerStatus
from chronorag.people import Directory
from chronorag.pipeline.chain import visible_versions

from .conftest import VERSIONS_NOW as NOW


@pytest.fixture
def engine(versions_engine: Engine) -> Engine:
    return versions_engine


def test_what_changed_lists_the_changes_with_their_versions(engine: Engine) -> None:
    answer = engine.ask("What changed in the return policy?", now=NOW).to_json()
    assert answer["understanding"]["intent"] == "change"
    assert answer["status"] == "answered" and answer["flags"] == []
    pairs = [(c["from"]["doc_id"], c["to"]["doc_id"]) for c in answer["changes"]]
    assert pairs == [("returns-2022", "returns-2024"), ("returns-2024", "returns-2027")]
    assert "within 60 days. → Customers may return any unused item within 45 days." in \
        answer["answer"]


def test_a_period_without_a_new_version_is_uncertain(engine: Engine) -> None:
    answer = engine.ask("What changed in the return policy in 2025?", now=NOW)
    assert answer.status is AnswerStatus.UNCERTAIN
    assert Flag.NO_VERSION_IN_PERIOD in answer.flags


def test_records_of_someone_else_are_no_versions_of_yours(engine: Engine) -> None:
    engine.store.replace_people(Directory())
    assert visible_versions(engine.store, "notes-2025", user="stranger", admin=False) == []
    seen = visible_versions(engine.store, "notes-2025", user=None, admin=True)
    assert [d.id for d in seen] == ["notes-2024", "notes-2025"]
    assert [d.id for d in visible_versions(engine.store, "returns-2024", user="stranger",
                                           admin=False)] == [
        "returns-2022", "returns-2024", "returns-2027"]
