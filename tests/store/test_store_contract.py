"""Behaviour every Store backend must have (runs once per backend in BACKENDS)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from chronorag.errors import StoreError
from chronorag.model import Chunk, Document
from chronorag.store import PreparedDocument, Store, WriteReport
from chronorag.store.base import ApiKey

Make = Callable[..., PreparedDocument]


def _prepared(doc: Document, make: Make) -> PreparedDocument:
    base = make(doc.id)
    return PreparedDocument(doc, doc.content_hash(), base.chunks, base.vectors)


def _snapshot(store: Store) -> tuple[object, ...]:
    ids, matrix = store.vectors("e5")
    return (store.documents(), store.chunks(), ids, matrix.tolist(), store.links(),
            store.count(), store.generation())


def test_empty_store(store: Store) -> None:
    assert store.documents() == []
    assert store.chunks() == []
    ids, matrix = store.vectors("e5")
    assert ids == [] and matrix.shape == (0, 0) and matrix.dtype == np.float32
    assert store.count() == dict.fromkeys(
        ("documents", "chunks", "sentences", "vectors", "links"), 0)
    assert store.fingerprints(["x"]) == {}


def test_round_trip_every_field(store: Store, make: Make, full_doc: Callable[..., Document]
                                ) -> None:
    doc = full_doc()
    prepared = _prepared(doc, make)
    assert store.write([prepared]) == WriteReport(added=(doc.id,))
    [back] = store.documents([doc.id])
    assert back == doc
    for f in dataclasses.fields(Document):
        assert getattr(back, f.name) == getattr(doc, f.name), f.name
    assert back.valid_to is not None and back.valid_to.end is not None
    assert back.valid_to.end.tzinfo == UTC
    assert back.occurred_at is not None and back.occurred_at.granularity is None
    assert back.modified_at is None
    assert store.chunks() == list(prepared.chunks)
    assert store.fingerprints([doc.id, "nope"]) == {doc.id: (doc.content_hash(), "")}
    ids, matrix = store.vectors("e5")
    assert ids == [c.id for c in prepared.chunks]
    assert matrix.dtype == np.float32 and matrix.flags.writeable
    np.testing.assert_array_equal(matrix, prepared.vectors["e5"])


def test_minimal_document_round_trip(store: Store, make: Make) -> None:
    prepared = make("bare", n_chunks=0, embedders=())
    store.write([prepared])
    assert store.documents() == [prepared.document]
    assert store.chunks() == []


def test_links_both_kinds(store: Store, make: Make, full_doc: Callable[..., Document]) -> None:
    store.write([_prepared(full_doc(), make)])
    assert store.links() == [("policy-2", "handbook", "derived_from"),
                             ("policy-2", "policy-0", "supersedes"),
                             ("policy-2", "policy-1", "supersedes")]
    assert store.links("derived_from") == [("policy-2", "handbook", "derived_from")]
    with pytest.raises(StoreError):
        store.links("cites")


def test_reads_by_id_and_order(store: Store, make: Make) -> None:
    store.write([make("b", seed=1), make("a", seed=2), make("c", n_chunks=3)])
    assert [d.id for d in store.documents()] == ["a", "b", "c"]
    assert [d.id for d in store.documents(["c", "a", "zzz"])] == ["a", "c"]
    assert [c.id for c in store.chunks(["c#2", "a#1", "c#0"])] == ["a#1", "c#0", "c#2"]
    assert [c.id for c in store.chunks()] == ["a#0", "a#1", "b#0", "b#1", "c#0", "c#1", "c#2"]
    ids, matrix = store.vectors("e5")
    assert ids == [c.id for c in store.chunks()] and matrix.shape == (7, 4)
    assert store.count() == {"documents": 3, "chunks": 7, "sentences": 14, "vectors": 7,
                             "links": 0}


def test_ids_sort_by_code_point(store: Store, make: Make) -> None:
    ids = ["b", "B", "a-1", "a_1", "a1", "Z", "华东", "é", "a"]
    store.write([make(i, n_chunks=1) for i in ids])
    assert store.document_ids() == sorted(ids)
    assert [d.id for d in store.documents()] == sorted(ids)
    assert [c.doc_id for c in store.chunks()] == sorted(ids)


def test_unchanged_rewrite_is_noop(store: Store, make: Make) -> None:
    first = make("a")
    store.write([first])
    gen = store.generation()
    later = dataclasses.replace(first.document, ingested_at=first.document.ingested_at)
    again = PreparedDocument(later, first.content_hash, first.chunks[:1], {})
    assert store.write([again]) == WriteReport(unchanged=("a",))
    assert store.generation() == gen
    assert store.count()["chunks"] == 2


def test_unchanged_keeps_ingested_at(store: Store, make: Make) -> None:
    from datetime import datetime
    t1, t2 = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)
    store.write([make("a", ingested_at=t1)])
    store.write([make("a", ingested_at=t2)])
    assert store.documents()[0].ingested_at == t1


def test_changed_document_replaces_atomically(store: Store, make: Make) -> None:
    store.write([make("a", n_chunks=3, supersedes=("old",))])
    gen = store.generation()
    new = make("a", "new text", n_chunks=1, seed=9, embedders=("bm",))
    report = store.write([new, make("b")])
    assert report == WriteReport(added=("b",), replaced=("a",))
    assert store.generation() > gen
    assert store.documents(["a"])[0].text == "new text"
    assert [c.id for c in store.chunks() if c.doc_id == "a"] == ["a#0"]
    assert store.vectors("e5")[0] == ["b#0", "b#1"]
    assert store.vectors("bm")[0] == ["a#0"]
    assert store.links() == []


def test_force_rewrites_unchanged(store: Store, make: Make) -> None:
    store.write([make("a")])
    gen = store.generation()
    assert store.write([make("a", embedders=("e5", "bm"))], force=True).replaced == ("a",)
    assert store.generation() > gen
    assert len(store.vectors("bm")[0]) == 2


def _bad_chunk(make: Make) -> PreparedDocument:
    ok = make("bad")
    broken = dataclasses.replace(ok.chunks[1], start=9, end=3)
    return dataclasses.replace(ok, chunks=(ok.chunks[0], broken))


def _duplicate_chunk_id(make: Make) -> PreparedDocument:
    ok = make("bad")
    clash = dataclasses.replace(ok.chunks[0], id="a#0")
    return dataclasses.replace(ok, chunks=(clash, ok.chunks[1]))


def _wrong_rows(make: Make) -> PreparedDocument:
    ok = make("bad")
    return dataclasses.replace(ok, vectors={"e5": np.zeros((3, 4), np.float32)})


def _nan_vector(make: Make) -> PreparedDocument:
    ok = make("bad")
    return dataclasses.replace(ok, vectors={"e5": np.full((2, 4), np.nan, np.float32)})


def _wrong_dim(make: Make) -> PreparedDocument:
    return make("bad", dim=8)


def _foreign_chunk(make: Make) -> PreparedDocument:
    ok = make("bad")
    return dataclasses.replace(ok, chunks=(make("other").chunks[0], ok.chunks[1]))


def _bad_metadata(make: Make) -> PreparedDocument:
    return make("bad", metadata={"when": object()})


@pytest.mark.parametrize("bad", [_bad_chunk, _duplicate_chunk_id, _wrong_rows, _nan_vector,
                                 _wrong_dim, _foreign_chunk, _bad_metadata])
def test_failed_batch_leaves_store_unchanged(store: Store, make: Make,
                                             bad: Callable[[Make], PreparedDocument]) -> None:
    store.write([make("a"), make("z", supersedes=("a",))])
    before = _snapshot(store)
    changed_a = make("a", "changed", n_chunks=1)
    with pytest.raises(StoreError):
        store.write([changed_a, make("new"), bad(make), make("later")])
    assert _snapshot(store) == before


def test_duplicate_ids_in_batch_rejected(store: Store, make: Make) -> None:
    with pytest.raises(StoreError, match="twice"):
        store.write([make("a"), make("a", "other")])
    assert store.count()["documents"] == 0


def test_delete(store: Store, make: Make) -> None:
    store.write([make("a"), make("b", supersedes=("a",)), make("c", derived_from=("b",))])
    gen = store.generation()
    assert store.delete(["b", "missing"]) == ("b",)
    assert store.generation() > gen
    assert [d.id for d in store.documents()] == ["a", "c"]
    assert store.links() == [("c", "b", "derived_from")]
    assert store.count() == {"documents": 2, "chunks": 4, "sentences": 8, "vectors": 4,
                             "links": 1}
    gen = store.generation()
    assert store.delete(["missing"]) == ()
    assert store.generation() == gen


def test_a_delete_inside_a_failed_block_is_taken_back(store: Store, make: Make) -> None:
    store.write([make("a"), make("b")])
    before = _snapshot(store)
    with pytest.raises(RuntimeError), store.atomic():
        assert store.delete(["a"]) == ("a",)
        raise RuntimeError("a later check failed")
    assert _snapshot(store) == before


def test_chunk_counts(store: Store, make: Make) -> None:
    store.write([make("a", n_chunks=3), make("b"), make("bare", n_chunks=0, embedders=())])
    assert store.chunk_counts() == {"a": 3, "b": 2, "bare": 0}
    assert store.chunk_counts(["bare", "a", "missing"]) == {"a": 3, "bare": 0}
    assert store.chunk_counts([]) == {}


def test_ids_by_source(store: Store, make: Make) -> None:
    store.write([make("x", source="/kb/x.md"), make("b", source="/kb/facts.jsonl:1"),
                 make("a", source="/kb/shared.md"), make("c", source="/kb/shared.md"),
                 make("unsourced")])
    assert store.ids_by_source(["/kb/x.md", "/kb/shared.md", "/kb/facts.jsonl",
                                "missing.md"]) == {"/kb/x.md": "x", "/kb/shared.md": "a"}
    assert store.ids_by_source([]) == {}


def test_chunk_without_sentences(store: Store, make: Make) -> None:
    ok = make("a")
    bare = dataclasses.replace(ok, chunks=tuple(
        Chunk(c.id, c.doc_id, c.index, c.start, c.end, c.text) for c in ok.chunks))
    store.write([bare])
    assert store.chunks() == list(bare.chunks)


def test_closed_store_raises(store: Store) -> None:
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.documents()


def test_fingerprints_hold_hash_and_derivation(store: Store, make: Make) -> None:
    doc = make("a")
    stamped = dataclasses.replace(doc, derivation="chunker=2;embedders=e5")
    store.write([stamped])
    assert store.fingerprints(["a", "nope"]) == {
        "a": (doc.content_hash, "chunker=2;embedders=e5")}
    assert store.document_ids() == ["a"]
    # Same text, other derivation: replaced, not unchanged.
    report = store.write([dataclasses.replace(doc, derivation="chunker=3;embedders=e5")])
    assert report.replaced == ("a",)
    again = store.write([dataclasses.replace(doc, derivation="chunker=3;embedders=e5")])
    assert again.unchanged == ("a",)


def test_atomic_commits_all_or_nothing(store: Store, make: Make) -> None:
    with store.atomic():
        store.write([make("a")])
        store.write([make("b")])
        store.set_setting("embedder", "e5")
    assert store.document_ids() == ["a", "b"] and store.setting("embedder") == "e5"
    snapshot = _snapshot(store)
    with pytest.raises(RuntimeError, match="boom"), store.atomic():
        store.write([make("c")])
        store.delete(["a"])
        store.set_setting("embedder", "other")
        raise RuntimeError("boom")
    assert _snapshot(store) == snapshot and store.setting("embedder") == "e5"


def test_settings_and_vector_counts(store: Store, make: Make) -> None:
    assert store.setting("embedder") is None
    store.set_setting("embedder", "e5")
    store.set_setting("embedder", "use-m3")
    assert store.setting("embedder") == "use-m3"
    store.write([make("a", n_chunks=3, embedders=("e5", "m3")), make("b", n_chunks=1)])
    assert store.vector_counts() == {"e5": 4, "m3": 3}


def test_chunk_vectors_by_id(store: Store, make: Make, full_doc: Callable[..., Document]
                             ) -> None:
    prepared = _prepared(full_doc(), make)
    store.write([prepared])
    ids = [c.id for c in prepared.chunks]
    got = store.chunk_vectors([*ids, "missing#0"], "e5")
    assert sorted(got) == sorted(ids)
    for row, chunk_id in enumerate(ids):
        np.testing.assert_array_equal(got[chunk_id], prepared.vectors["e5"][row])
    assert store.chunk_vectors(ids, "other-embedder") == {}
    assert store.chunk_vectors([], "e5") == {}


def _with_sentence_vectors(prepared: PreparedDocument, *, dim: int = 3, seed: int = 0
                           ) -> PreparedDocument:
    rows = sum(len(c.sentences) for c in prepared.chunks)
    matrix = np.random.default_rng(seed).standard_normal((rows, dim)).astype(np.float32)
    return dataclasses.replace(prepared, sentence_vectors={"use": matrix})


def test_sentence_vectors_round_trip_per_chunk_in_sentence_order(store: Store,
                                                                 make: Make) -> None:
    prepared = _with_sentence_vectors(make("a", n_chunks=2))
    store.write([prepared])
    ids = [c.id for c in prepared.chunks]
    back = store.sentence_vectors([*ids, "nope"], "use")
    assert set(back) == set(ids)
    whole = prepared.sentence_vectors["use"]
    np.testing.assert_array_equal(back["a#0"], whole[:2])
    np.testing.assert_array_equal(back["a#1"], whole[2:])
    assert back["a#0"].dtype == np.float32
    assert store.sentence_vectors(ids, "e5") == {}


def test_sentence_vectors_go_with_their_document(store: Store, make: Make) -> None:
    store.write([_with_sentence_vectors(make("a"))])
    store.write([make("a", text="Replaced without sentence vectors.")])
    assert store.sentence_vectors(["a#0", "a#1"], "use") == {}
    store.write([_with_sentence_vectors(make("b"))])
    store.delete(["b"])
    assert store.sentence_vectors(["b#0"], "use") == {}


def test_sentence_vectors_of_the_wrong_shape_are_refused_and_nothing_changes(
        store: Store, make: Make) -> None:
    store.write([make("a")])
    before = _snapshot(store)
    good = _with_sentence_vectors(make("b"))
    short = dataclasses.replace(good, sentence_vectors={"use": good.sentence_vectors["use"][:3]})
    with pytest.raises(StoreError, match="sentence"):
        store.write([make("c"), short])
    nan = good.sentence_vectors["use"].copy()
    nan[0, 0] = np.nan
    with pytest.raises(StoreError, match="finite"):
        store.write([dataclasses.replace(good, sentence_vectors={"use": nan})])
    assert _snapshot(store) == before


def _with_tokens(prepared: PreparedDocument, *, seed: int = 0) -> PreparedDocument:
    rng = np.random.default_rng(seed)
    matrices = []
    for rows in range(3, 3 + len(prepared.chunks)):  # a different token count per chunk
        m = rng.standard_normal((rows, 6)).astype(np.float32)
        matrices.append(m / np.linalg.norm(m, axis=1, keepdims=True))
    return dataclasses.replace(prepared, token_vectors={"colbert-small": tuple(matrices)})


def test_token_vectors_round_trip_per_chunk(store: Store, make: Make) -> None:
    prepared = _with_tokens(make("a", n_chunks=2))
    store.write([prepared])
    ids = [c.id for c in prepared.chunks]
    back = store.token_vectors([*ids, "nope"], "colbert-small")
    assert set(back) == set(ids)
    for chunk_id, written in zip(ids, prepared.token_vectors["colbert-small"], strict=True):
        assert back[chunk_id].shape == written.shape
        assert back[chunk_id].dtype == np.float32
        # Stored as int8 with a scale per token: within half a step of each value.
        assert np.abs(back[chunk_id] - written).max() <= 0.5 / 127 + 1e-6
    assert store.token_vectors(ids, "other") == {}


def test_token_vectors_go_with_their_document(store: Store, make: Make) -> None:
    store.write([_with_tokens(make("a"))])
    store.write([make("a", text="Replaced without token vectors.")])
    assert store.token_vectors(["a#0", "a#1"], "colbert-small") == {}
    store.write([_with_tokens(make("b"))])
    store.delete(["b"])
    assert store.token_vectors(["b#0"], "colbert-small") == {}


def test_token_vectors_of_the_wrong_shape_are_refused_and_nothing_changes(
        store: Store, make: Make) -> None:
    store.write([make("a")])
    before = _snapshot(store)
    good = _with_tokens(make("b"))
    one = dataclasses.replace(good, token_vectors={
        "colbert-small": good.token_vectors["colbert-small"][:1]})
    with pytest.raises(StoreError, match="token matrices"):
        store.write([make("c"), one])
    nan = [m.copy() for m in good.token_vectors["colbert-small"]]
    nan[1][0, 0] = np.inf
    with pytest.raises(StoreError, match="finite"):
        store.write([dataclasses.replace(good, token_vectors={"colbert-small": tuple(nan)})])
    assert _snapshot(store) == before


def test_chunks_are_numbered_for_the_indexes(store: Store, make: Make) -> None:
    store.write([make("a", n_chunks=2), make("b", n_chunks=1, subject="mom")])
    seqs = store.chunk_seqs()
    assert seqs.dtype == np.int64 and len(seqs) == 3 and list(seqs) == sorted(seqs)
    assert store.chunk_summary() == (3, int(seqs.sum()), int(seqs.max()))
    rows = store.chunk_rows([int(s) for s in seqs[::-1]] + [10**9])
    assert [r.seq for r in rows] == list(seqs)  # seq order; unknown numbers skipped
    assert [r.doc_id for r in rows] == ["a", "a", "b"] and rows[2].subject == "mom"
    assert rows[0].text == store.chunks([rows[0].id])[0].text
    store.write([make("a", text="A new text.", n_chunks=1)])  # replaced: new numbers
    after = store.chunk_seqs()
    assert len(after) == 2 and seqs[2] in after and after.max() > seqs.max()
    store.delete(["a", "b"])
    assert store.chunk_summary() == (0, 0, 0) and len(store.chunk_seqs()) == 0


def test_documents_without_text(store: Store, make: Make) -> None:
    store.write([make("a", title="T")])
    [light] = store.documents(text=False)
    [full] = store.documents()
    assert light.text == "" and full.text and light.title == "T"
    assert dataclasses.replace(light, text=full.text) == full


def test_visibility_among_given_ids(store: Store, make: Make) -> None:
    store.write([make("pub"), make("mine", subject="me"), make("theirs", subject="them")])
    assert store.visible_doc_ids("me", among=["mine", "theirs", "missing"]) == {"mine"}
    assert store.visible_doc_ids(None, among=["pub", "mine"]) == {"pub"}
    assert store.visible_doc_ids(None, admin=True, among=["mine"]) == {"mine"}
    assert store.visible_doc_ids("me", subjects=["them"], among=["theirs"]) == frozenset()


def test_api_keys_round_trip_and_revoke(store: Store) -> None:
    made = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
    store.add_api_key(ApiKey("k1", "me", True, made), digest="d1")
    store.add_api_key(ApiKey("k2", "mom", False, made + timedelta(seconds=1)), digest="d2")
    assert store.api_key("d1") == ApiKey("k1", "me", True, made)
    assert store.api_key("nope") is None
    assert [k.id for k in store.api_keys()] == ["k1", "k2"]
    assert store.revoke_api_key("k2", at=made + timedelta(hours=1))
    assert not store.revoke_api_key("k2", at=made + timedelta(hours=2))  # already revoked
    assert not store.revoke_api_key("missing", at=made)
    assert store.api_key("d2") == ApiKey("k2", "mom", False, made + timedelta(seconds=1),
                                         made + timedelta(hours=1))
    with pytest.raises(StoreError):
        store.add_api_key(ApiKey("k3", "me", False, made), digest="d1")  # same key twice


def test_api_key_digests_by_id(store: Store) -> None:
    assert store.api_key_digests() == {}
    made = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
    store.add_api_key(ApiKey("k2", "mom", False, made), digest="d2")
    store.add_api_key(ApiKey("k1", "me", True, made), digest="d1")
    store.revoke_api_key("k2", at=made + timedelta(hours=1))
    assert store.api_key_digests() == {"k1": "d1", "k2": "d2"}  # revoked keys included


def test_people_keep_their_attributes(store: Store) -> None:
    from chronorag.people.model import Directory, Person

    directory = Directory((Person("ann", "Ann", ("安",), {"region": "EU", "地区": "华东"}),
                           Person("bo", "Bo")), {"ann": ("bo",)})
    store.replace_people(directory)
    assert store.people() == directory
    assert store.people().person("bo").attributes == {}
