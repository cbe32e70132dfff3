"""Privacy as a rule in the store query (SQLiteStore.visible_doc_ids)."""

from __future__ import annotations

import pytest

from chronorag.model import Document
from chronorag.people import Directory, Person
from chronorag.store.base import PreparedDocument
from chronorag.store.sqlite import SQLiteStore


@pytest.fixture
def store() -> SQLiteStore:
    store = SQLiteStore(":memory:")
    docs = [Document("pub", "public"), Document("a1", "a's", subject="a"),
            Document("b1", "b's", subject="b"), Document("c1", "c's", subject="c")]
    store.write([PreparedDocument(d, d.content_hash(), ()) for d in docs])
    store.replace_people(Directory((Person("a", "A"), Person("b", "B"), Person("c", "C")),
                                   {"a": ("b",)}))
    return store


def test_visibility(store: SQLiteStore) -> None:
    assert store.visible_doc_ids(None) == {"pub"}  # no user: public only
    assert store.visible_doc_ids("a") == {"pub", "a1", "b1"}  # own + granted
    assert store.visible_doc_ids("b") == {"pub", "b1"}  # grants are one-way
    assert store.visible_doc_ids("stranger") == {"pub"}
    assert store.visible_doc_ids(None, admin=True) is None  # everything


def test_subject_filter(store: SQLiteStore) -> None:
    assert store.visible_doc_ids("a", subjects=["b"]) == {"b1"}
    assert store.visible_doc_ids("a", subjects=["c"]) == frozenset()
    assert store.visible_doc_ids(None, admin=True, subjects=["c"]) == {"c1"}


def test_people_round_trip_and_replace(store: SQLiteStore) -> None:
    assert store.people().access == {"a": ("b",)}
    store.replace_people(Directory((Person("z", "Z", ("zed",)),)))
    assert store.people() == Directory((Person("z", "Z", ("zed",)),), {})
    assert "m004_people" in store.applied_migrations()


def test_no_subject_documents_means_no_restriction() -> None:
    store = SQLiteStore(":memory:")
    doc = Document("pub", "public")
    store.write([PreparedDocument(doc, doc.content_hash(), ())])
    assert store.visible_doc_ids(None) is None
