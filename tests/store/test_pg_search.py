"""Search inside PostgreSQL: parity with the in-memory indexes, the scope in SQL, and the
term postings kept right through replace, delete and concurrent indexing.

The references are chronorag's own: ``Bm25Index`` (``bm25s``) for BM25, a float32 dot
product for vectors, ``Scope.admits`` for the scope.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronorag.model import Chunk, Document, Interval
from chronorag.retrieve.in_store import complete_search, index_terms
from chronorag.retrieve.keyword import Bm25Index, query_terms
from chronorag.store import PostgresStore, PreparedDocument, pg_search
from chronorag.store.pg_search import index_name, vector_text
from chronorag.store.scope import Scope

WORDS = ["return", "refund", "policy", "days", "window", "store", "item", "receipt",
         "退货", "政策", "天数", "收据", "商品", "门店", "2021", "thirty"]
SUBJECTS = [None, "me", "mom", "dad"]


def _day(y: int, m: int = 1, d: int = 1) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


def _corpus(n: int, *, seed: int = 0, dim: int = 8) -> list[PreparedDocument]:
    rng = np.random.default_rng(seed)
    docs = []
    for i in range(n):
        words = rng.choice(WORDS, size=int(rng.integers(3, 14)))
        text = " ".join(words)
        occurred = None if i % 3 else Interval(_day(2019 + i % 5), _day(2020 + i % 5))
        doc = Document(id=f"d{i:03d}", text=text, subject=SUBJECTS[i % 4], occurred_at=occurred)
        chunk = Chunk(f"d{i:03d}#0", doc.id, 0, 0, len(text), text)
        vector = rng.standard_normal((1, dim)).astype(np.float32)
        vector /= np.linalg.norm(vector)
        docs.append(PreparedDocument(doc, doc.content_hash(), (chunk,), {"e": vector}))
    return docs


@pytest.fixture(scope="module")
def searched(pg_server: object) -> Iterator[tuple[PostgresStore, list[PreparedDocument]]]:
    """60 one-chunk documents with terms; the exact-search size lowered to 40 vectors,
    so the store builds the HNSW index once past it, not before."""
    server = pg_server
    database = server.new_database()  # type: ignore[attr-defined]
    corpus = _corpus(60)
    exact_up_to = pg_search.EXACT_UP_TO
    pg_search.EXACT_UP_TO = 40
    try:
        with PostgresStore(server.uri(database)) as store:  # type: ignore[attr-defined]
            store.write(corpus[:30])
            assert store.build_indexes() == [] and not _has_index(store)
            store.write(corpus[30:])
            assert not _has_index(store)  # writes never build it: a bulk load stays fast
            assert complete_search(store) == 60
            assert _has_index(store) and store.build_indexes() == []
            yield store, corpus
    finally:
        pg_search.EXACT_UP_TO = exact_up_to
        server.drop(database)  # type: ignore[attr-defined]


def _has_index(store: PostgresStore) -> bool:
    with store._s.reading() as conn:  # the store's own connection sees its schema
        row = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s",
                           (index_name("e"),)).fetchone()
    return row is not None and "hnsw" in row[0] and "vector(8)" in row[0]


def _chunks(corpus: list[PreparedDocument]) -> list[Chunk]:
    return [c for p in corpus for c in p.chunks]


# -- BM25 -----------------------------------------------------------------------------------

@pytest.mark.parametrize("question", ["return policy", "退货 政策 days", "receipt receipt item",
                                      "2021 thirty", "nothing matches this"])
def test_bm25_in_sql_scores_as_bm25s(searched: tuple[PostgresStore, list[PreparedDocument]],
                                     question: str) -> None:
    store, corpus = searched
    reference = Bm25Index.build(_chunks(corpus)).search(question, limit=100)
    found = store.search_terms(Counter(query_terms(question)), limit=100)
    assert [c for c, _ in found] == [c.id for c, _ in reference]
    assert np.allclose([s for _, s in found], [s for _, s in reference], rtol=1e-6)


def test_bm25_counts_a_repeated_question_term_each_time(
        searched: tuple[PostgresStore, list[PreparedDocument]]) -> None:
    store, _ = searched
    once = dict(store.search_terms({"receipt": 1}, limit=100))
    twice = dict(store.search_terms({"receipt": 2}, limit=100))
    assert once and all(twice[c] == pytest.approx(2 * s) for c, s in once.items())


# -- vectors --------------------------------------------------------------------------------

def test_exact_vector_search_is_the_dot_product_order(
        searched: tuple[PostgresStore, list[PreparedDocument]]) -> None:
    store, corpus = searched
    query = corpus[7].vectors["e"][0]
    found = store.search_vectors("e", query, limit=10, exact=True)
    ids = [p.document.id + "#0" for p in corpus]
    scores = np.stack([p.vectors["e"][0] for p in corpus]) @ query
    best = np.argsort(-scores, kind="stable")[:10]
    assert [c for c, _ in found] == [ids[i] for i in best]
    assert np.allclose([s for _, s in found], scores[best], atol=1e-6)
    assert found[0] == (ids[7], pytest.approx(1.0, abs=1e-6))


def test_the_hnsw_index_answers_like_the_exact_search(
        searched: tuple[PostgresStore, list[PreparedDocument]]) -> None:
    store, corpus = searched
    query = corpus[3].vectors["e"][0]
    exact = store.search_vectors("e", query, limit=10, exact=True)
    approximate = store.search_vectors("e", query, limit=10, exact=False)
    assert len({c for c, _ in exact} & {c for c, _ in approximate}) >= 9
    assert approximate[0][0] == exact[0][0]


def test_an_embedder_gets_its_hnsw_index_past_the_exact_size(
        searched: tuple[PostgresStore, list[PreparedDocument]]) -> None:
    store, corpus = searched
    assert _has_index(store)
    query = corpus[11].vectors["e"][0]
    with store._s.reading(snapshot=True) as conn:
        conn.execute("SELECT set_config('enable_seqscan', 'off', true)")
        plan = "\n".join(r[0] for r in conn.execute(
            "EXPLAIN SELECT chunk_id FROM vectors WHERE embedder = 'e' ORDER BY "
            "embedding::vector(8) <=> %s::vector(8) LIMIT 5", (vector_text(query),)))
    assert index_name("e") in plan
    # Past the size, the store picks the index by itself.
    assert store.search_vectors("e", query, limit=3)[0][0] == "d011#0"


# -- the scope, in SQL ------------------------------------------------------------------------

_scopes = st.builds(
    Scope,
    readable=st.none() | st.frozensets(st.sampled_from(["me", "mom", "dad", "x"])),
    about=st.none() | st.frozensets(st.sampled_from(["me", "mom", "dad", "x"])),
    window=st.none() | st.builds(
        lambda a, n, open_start, open_end: Interval(None if open_start else _day(a),
                                                    None if open_end else _day(a + n)),
        st.integers(2017, 2025), st.integers(1, 3), st.booleans(), st.booleans()),
    public=st.booleans())


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scope=_scopes)
def test_both_searches_return_exactly_what_the_scope_admits(
        searched: tuple[PostgresStore, list[PreparedDocument]], scope: Scope) -> None:
    store, corpus = searched
    admitted = {p.document.id + "#0" for p in corpus if scope.admits(p.document)}
    vectors = store.search_vectors("e", corpus[0].vectors["e"][0], limit=1000, scope=scope,
                                   exact=True)
    assert {c for c, _ in vectors} == admitted
    # Every chunk has at least three of WORDS, so a question of all of them matches all.
    terms = Counter(t for w in WORDS for t in query_terms(w))
    assert {c for c, _ in store.search_terms(terms, limit=1000, scope=scope)} == admitted
    approximate = store.search_vectors("e", corpus[0].vectors["e"][0], limit=5, scope=scope,
                                       exact=False)
    assert {c for c, _ in approximate} <= admitted


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scope=_scopes, limit=st.integers(1, 12), question=st.sampled_from(WORDS))
def test_bm25_judging_the_best_matches_first_returns_the_scoped_top(
        searched: tuple[PostgresStore, list[PreparedDocument]], scope: Scope, limit: int,
        question: str) -> None:
    store, corpus = searched
    terms = Counter(query_terms(question))
    admitted = {p.document.id + "#0" for p in corpus if scope.admits(p.document)}
    everything = [f for f in store.search_terms(terms, limit=1000) if f[0] in admitted]
    # Judge one match per wanted chunk first and grow by 2: several rounds, every cut.
    first, growth = pg_search._FIRST_READ, pg_search._GROWTH
    pg_search._FIRST_READ, pg_search._GROWTH = 1, 2
    try:
        found = store.search_terms(terms, limit=limit, scope=scope)
    finally:
        pg_search._FIRST_READ, pg_search._GROWTH = first, growth
    assert found == everything[:limit]


# -- terms kept right -----------------------------------------------------------------------

def _totals(store: PostgresStore) -> tuple[int, int]:
    with store._s.reading() as conn:
        chunks, total = conn.execute(
            "SELECT count(terms_length), coalesce(sum(terms_length), 0) FROM chunks").fetchone()
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    assert (meta["terms_chunks"], meta["terms_total"]) == (chunks, total)
    return int(chunks), int(total)


def test_replace_and_delete_keep_the_bm25_totals(pg_uri: str) -> None:
    corpus = _corpus(12, seed=3)
    with PostgresStore(pg_uri) as store:
        store.write(corpus)
        assert _totals(store) == (0, 0)  # stored, not yet indexed: found by vector only
        assert store.search_terms({"return": 1}, limit=10) == []
        index_terms(store)
        assert _totals(store)[0] == 12
        changed = dataclasses.replace(corpus[0].document, text="receipt only")
        chunk = Chunk(changed.id + "#0", changed.id, 0, 0, 12, "receipt only")
        store.write([PreparedDocument(changed, changed.content_hash(), (chunk,),
                                      corpus[0].vectors)])
        store.delete(["d001", "d002"])
        assert _totals(store)[0] == 9
        index_terms(store)
        assert _totals(store)[0] == 10
        reference = Bm25Index.build(store.chunks()).search("receipt", limit=20)
        found = store.search_terms({"receipt": 1}, limit=20)
        assert [c for c, _ in found] == [c.id for c, _ in reference]


def test_indexing_twice_or_from_two_stores_at_once_adds_each_chunk_once(pg_uri: str) -> None:
    import threading

    with PostgresStore(pg_uri) as one, PostgresStore(pg_uri) as two:
        one.write(_corpus(40, seed=5))
        done: list[int] = []
        workers = [threading.Thread(target=lambda s=s: done.append(index_terms(s, batch=7)))
                   for s in (one, two)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert sum(done) == 40 and index_terms(one) == 0
        assert _totals(one)[0] == 40
        with one._s.reading() as conn:
            dupes = conn.execute("SELECT count(*) FROM (SELECT term, seq FROM chunk_terms "
                                 "GROUP BY term, seq HAVING count(*) > 1) x").fetchone()
        assert dupes == (0,)


def test_a_chunk_with_no_terms_is_indexed_and_never_found(pg_uri: str) -> None:
    doc = Document(id="empty", text="the of and")  # stop words only
    chunk = Chunk("empty#0", "empty", 0, 0, 10, "the of and")
    vector = np.ones((1, 4), np.float32) / 2
    with PostgresStore(pg_uri) as store:
        store.write([PreparedDocument(doc, doc.content_hash(), (chunk,), {"e": vector})])
        assert index_terms(store) == 1 and index_terms(store) == 0
        assert store.search_terms({"the": 1}, limit=5) == []
        assert store.search_vectors("e", vector[0], limit=5) == [("empty#0",
                                                                 pytest.approx(1.0))]




def test_a_store_made_before_search_gets_its_vectors_and_scope_copied(pg_uri: str) -> None:
    import psycopg

    from chronorag.store.pg_migrations import migrate

    vector = np.array([0.6, 0.8, 0.0, 0.0], dtype="<f4")
    with psycopg.connect(pg_uri, autocommit=True) as conn:
        migrate(conn, upto="pg004_api_keys")
        conn.execute(
            "INSERT INTO documents (id, title, text, subject, occurred_at_start, "
            "occurred_at_end, occurred_at_gran, supersedes, derived_from, metadata, source, "
            "content_hash) VALUES ('old', '', 'receipt policy', 'me', "
            "'2020-01-01T00:00:00.000000+00:00', NULL, '', '[]', '[]', '{}', '', 'h')")
        conn.execute("INSERT INTO chunks (id, doc_id, idx, start, \"end\", text, seq) "
                     "VALUES ('old#0', 'old', 0, 0, 14, 'receipt policy', 1)")
        conn.execute("INSERT INTO vectors (chunk_id, embedder, dim, blob) "
                     "VALUES ('old#0', 'e', 4, %s)", (vector.tobytes(),))
    with PostgresStore(pg_uri) as store:
        assert store.search_vectors("e", vector, limit=3) == [("old#0", pytest.approx(1.0))]
        mine = Scope(readable=frozenset({"me"}), window=Interval(_day(2021), None))
        assert store.search_vectors("e", vector, limit=3, scope=mine) == [
            ("old#0", pytest.approx(1.0))]
        assert store.search_vectors("e", vector, limit=3, scope=Scope(
            readable=frozenset())) == []
        assert index_terms(store) == 1
        assert [c for c, _ in store.search_terms({"receipt": 1}, limit=3)] == ["old#0"]
