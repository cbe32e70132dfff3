"""Search indexes saved beside the store: built once, updated with what changed, masked
by the same privacy rule the store applies in SQL."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronorag.model import Chunk, Document, Granularity, Interval
from chronorag.people import Directory, Person
from chronorag.retrieve.scope import Scope
from chronorag.retrieve.snapshot import Indexes, index_folder
from chronorag.store.base import PreparedDocument
from chronorag.store.sqlite import SQLiteStore

EXAMPLES = int(os.environ.get("CHRONORAG_PROPERTY_EXAMPLES", "40"))
DIM = 8


def _prepared(doc_id: str, texts: list[str], **fields: object) -> PreparedDocument:
    doc = Document(doc_id, " ".join(texts), **fields)  # type: ignore[arg-type]
    chunks, at = [], 0
    for i, text in enumerate(texts):
        chunks.append(Chunk(f"{doc_id}#{i}", doc_id, i, at, at + len(text), text))
        at += len(text) + 1
    rng = np.random.default_rng(abs(hash(doc_id)) % 2**32)
    matrix = rng.normal(size=(len(chunks), DIM)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return PreparedDocument(doc, doc.content_hash(), tuple(chunks), vectors={"v": matrix})


def _store(path: Path) -> SQLiteStore:
    store = SQLiteStore(path)
    store.write([_prepared("apples", ["apples are red", "apples grow on trees"]),
                 _prepared("pears", ["pears are green"])])
    return store


def _found(indexes: Indexes, text: str) -> list[str]:
    rows = indexes.rows()
    hits = rows.keyword.search(text, limit=10, mask=None, rank=rows.catalog.rank)
    return [rows.catalog.ids[r] for r, _ in hits]


def test_a_new_process_maps_the_saved_index_without_reading_chunks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(tmp_path / "kb.db")
    Indexes(store).refresh([("v", DIM)])
    assert index_folder(store) == tmp_path / "kb.db.index"
    assert sorted(p.name.split("-", 1)[1] for p in (tmp_path / "kb.db.index").iterdir()) == [
        "rows", "vectors-v"]
    fresh = Indexes(store)

    def fail(*_: object) -> None:
        raise AssertionError("the saved index should have been used")

    monkeypatch.setattr(store, "chunk_rows", fail)
    monkeypatch.setattr(store, "chunk_vectors", fail)
    assert _found(fresh, "apples") == ["apples#0", "apples#1"]
    assert fresh.vectors("v", dim=DIM).present.all()


def test_an_update_reads_only_the_chunks_added(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(tmp_path / "kb.db")
    Indexes(store).refresh([("v", DIM)])
    store.write([_prepared("plums", ["plums are purple"])])
    store.delete(["pears"])
    asked: list[int] = []
    original = store.chunk_rows
    monkeypatch.setattr(store, "chunk_rows", lambda seqs: asked.extend(seqs) or original(seqs))
    indexes = Indexes(store)
    assert _found(indexes, "purple") == ["plums#0"] and _found(indexes, "pears") == []
    assert len(asked) == 1  # the one new chunk, not the three
    vectors = indexes.vectors("v", dim=DIM)
    assert len(vectors.seqs) == 3 and vectors.present.all()
    expected = store.chunk_vectors(["plums#0"], "v")["plums#0"]
    row = int(np.flatnonzero(indexes.rows().catalog.seqs == vectors.seqs.max())[0])
    assert np.array_equal(vectors.matrix[row], expected)


def test_a_damaged_or_foreign_index_is_rebuilt(tmp_path: Path) -> None:
    store = _store(tmp_path / "kb.db")
    Indexes(store).refresh()
    folder = next((tmp_path / "kb.db.index").iterdir())
    (folder / "matrix.scores.npy").write_bytes(b"garbage")
    assert _found(Indexes(store), "apples") == ["apples#0", "apples#1"]
    other = _store(tmp_path / "other.db")  # same generation, other chunks
    other.write([_prepared("figs", ["figs are sweet"])])
    other.delete(["figs"])
    os.rename(tmp_path / "kb.db.index", tmp_path / "other.db.index")
    assert _found(Indexes(other), "apples") == ["apples#0", "apples#1"]


def test_an_in_memory_store_keeps_its_indexes_in_the_process() -> None:
    store = SQLiteStore(":memory:")
    store.write([_prepared("apples", ["apples are red"])])
    indexes = Indexes(store)
    assert indexes.folder is None and _found(indexes, "red") == ["apples#0"]
    store.write([_prepared("cherries", ["cherries are red"])])
    assert sorted(_found(indexes, "red")) == ["apples#0", "cherries#0"]


def test_the_index_sees_every_committed_change(tmp_path: Path) -> None:
    store = _store(tmp_path / "kb.db")
    indexes = Indexes(store)
    assert _found(indexes, "green") == ["pears#0"]
    store.write([_prepared("pears", ["pears are yellow"])])  # replaced: new seqs
    assert _found(indexes, "green") == [] and _found(indexes, "yellow") == ["pears#0"]


SUBJECTS = [None, "mom", "dad", "kid"]
DAY = st.integers(min_value=0, max_value=20).map(lambda d: datetime(2026, 11, 1 + d, tzinfo=UTC))
documents = st.lists(st.tuples(st.sampled_from(SUBJECTS), st.none() | DAY), min_size=1,
                     max_size=12)
grants = st.dictionaries(st.sampled_from(SUBJECTS[1:]), st.lists(
    st.sampled_from(SUBJECTS[1:]), max_size=2, unique=True).map(tuple))


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents, grants, st.sampled_from([None, *SUBJECTS[1:], "stranger"]), st.booleans(),
       st.none() | st.sampled_from(SUBJECTS[1:]), st.none() | DAY, st.booleans())
def test_masks_admit_exactly_what_the_store_query_admits(
        docs: list[tuple[str | None, datetime | None]], access: dict[str, tuple[str, ...]],
        user: str | None, admin: bool, about: str | None, start: datetime | None,
        public: bool) -> None:
    store = SQLiteStore(":memory:")
    store.write([_prepared(f"d{i}", [f"record {i}"], subject=subject, occurred_at=None if day
                           is None else Interval(day, day.replace(hour=1), Granularity.HOUR))
                 for i, (subject, day) in enumerate(docs)])
    store.replace_people(Directory(tuple(Person(p, p) for p in SUBJECTS[1:]), access))
    readable = None if admin else (frozenset() if user is None else frozenset(
        {user, *access.get(user, ())}))
    window = None if start is None else Interval(start, None)
    scope = Scope(readable, None if about is None else frozenset({about}), window,
                  public=public)
    catalog = Indexes(store).rows().catalog
    mask = catalog.mask(scope)
    admitted = {catalog.doc_ids[r] for r in range(len(catalog)) if mask is None or mask[r]}
    visible = store.visible_doc_ids(user, admin=admin, subjects=None if about is None
                                    else [about])
    # public: documents without a subject pass the "about" rule (not the privacy one).
    readable_ids = store.visible_doc_ids(user, admin=admin)
    by_id = {d.id: d for d in store.documents()}
    if public and about is not None:
        visible = frozenset(i for i, d in by_id.items() if (
            readable_ids is None or i in readable_ids) and d.subject in (None, about))
    expected = {i for i in by_id if (visible is None or i in visible)
                and (window is None or by_id[i].occurred_at is None
                     or by_id[i].occurred_at.overlaps(window))}
    assert admitted == expected
    assert {i for i, d in by_id.items() if scope.admits(d)} == admitted


def test_vectors_take_the_size_the_store_holds(tmp_path: Path) -> None:
    store = _store(tmp_path / "kb.db")
    vectors = Indexes(store).vectors("v", dim=3)  # the caller's guess is wrong
    assert vectors.dim == DIM and vectors.present.all()
    assert Indexes(store).vectors("none", dim=5).present.sum() == 0  # no such vectors


def test_rows_read_while_the_store_churned_get_their_own_vectors(tmp_path: Path) -> None:
    # Rows read while every attempt met a newer generation carry no generation (-1);
    # vectors made for one such read must not serve the next, which holds other chunks.
    store = _store(tmp_path / "kb.db")
    indexes = Indexes(store)
    first = indexes._build_rows(-1, None, check=False)
    assert first is not None
    assert len(indexes.vectors("v", dim=DIM, rows=first).present) == 3
    store.write([_prepared("plums", ["plums are purple", "plums are sweet"])])
    second = indexes._build_rows(-1, None, check=False)
    assert second is not None
    vectors = indexes.vectors("v", dim=DIM, rows=second)
    assert np.array_equal(vectors.seqs, second.catalog.seqs) and vectors.present.all()


def test_the_graph_is_saved_mapped_and_updated(tmp_path: Path) -> None:
    store = _store(tmp_path / "kb.db")
    first = Indexes(store, ann_threshold=2).vectors("v", dim=DIM)
    assert first.ann is not None and len(first.ann) == 3
    store.write([_prepared("plums", ["plums are purple", "plums are sweet"])])
    store.delete(["pears"])
    again = Indexes(store, ann_threshold=2)
    updated = again.vectors("v", dim=DIM)
    assert len(updated.ann) == 4 and set(updated.ann.keys) == set(updated.seqs.tolist())
    rows = again.rows()
    query = store.chunk_vectors(["plums#1"], "v")["plums#1"]
    [(row, score)] = updated.search(query, limit=1, mask=None, rank=rows.catalog.rank)
    assert rows.catalog.ids[row] == "plums#1" and score == pytest.approx(1.0, abs=1e-5)
    assert Indexes(store).vectors("v", dim=DIM).ann is None  # under the default threshold
