"""The BM25 core scores exactly as bm25s does, and an updated index as a fresh one."""

from __future__ import annotations

import os

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.model import Chunk
from chronorag.retrieve.bm25 import Postings, TermTable, score_matrix
from chronorag.retrieve.index import top_rows
from chronorag.retrieve.keyword import Bm25Index, document_terms, query_terms
from chronorag.retrieve.keyword_index import KeywordIndex

EXAMPLES = int(os.environ.get("CHRONORAG_PROPERTY_EXAMPLES", "60"))
WORDS = ["merkel", "chancellor", "germany", "2005", "2021", "scholz", "bread", "退货",
         "政策", "天内", "上周二", "午饭", "linjiang", "临江", "river", "the"]
texts = st.lists(st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join),
                 min_size=1, max_size=25)
queries = st.lists(st.sampled_from([*WORDS, "unknown"]), min_size=1, max_size=6).map(" ".join)


def _reference(corpus: list[str], query: str) -> np.ndarray:
    chunks = [Chunk(f"c{i}", f"d{i}", 0, 0, len(t), t) for i, t in enumerate(corpus)]
    if not any(document_terms(t) for t in corpus):  # bm25s cannot index no terms at all
        return np.zeros(len(corpus), np.float32)
    index = Bm25Index.build(chunks)
    model = index.model
    ids = model.get_tokens_ids(query_terms(query))  # type: ignore[attr-defined]
    if not ids:
        return np.zeros(len(corpus), np.float32)
    return np.asarray(model.get_scores_from_ids(ids))  # type: ignore[attr-defined]


def _scores(index: KeywordIndex, query: str, n: int) -> np.ndarray:
    ids = [i for i in (index.terms.lookup(t) for t in query_terms(query)) if i is not None]
    return index.matrix.score(ids, n_rows=n)


@settings(max_examples=EXAMPLES, deadline=None)
@given(texts, queries)
def test_scores_equal_bm25s_bit_for_bit(corpus: list[str], query: str) -> None:
    index = KeywordIndex.build(corpus, None, None)
    assert np.array_equal(_scores(index, query, len(corpus)), _reference(corpus, query))


@settings(max_examples=EXAMPLES, deadline=None)
@given(texts, texts, st.data(), queries)
def test_an_updated_index_scores_as_one_built_afresh(first: list[str], added: list[str],
                                                     data: st.DataObject, query: str) -> None:
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(first),
                                       max_size=len(first))), bool)
    updated = KeywordIndex.build(added, KeywordIndex.build(first, None, None), keep)
    remaining = [t for t, k in zip(first, keep, strict=True) if k] + added
    fresh = KeywordIndex.build(remaining, None, None)
    n = len(remaining)
    assert np.array_equal(_scores(updated, query, n), _scores(fresh, query, n))
    assert np.array_equal(_scores(updated, query, n), _reference(remaining, query))


def test_bulk_and_batched_updates_score_as_a_fresh_index(monkeypatch) -> None:
    import chronorag.retrieve.keyword_index as module

    first = ["apple pie", "pear tart", "plum jam 2021", "临江 大学"]
    added = ["apple juice", "汉山 大学 2020", "kiwi", "", "pear pear pear"]
    expected = KeywordIndex.build(first[1:] + added, None, None)
    monkeypatch.setattr(module, "_BULK", 1)
    monkeypatch.setattr(module, "_BATCH", 2)
    keep = np.array([False, True, True, True])
    updated = KeywordIndex.build(added, KeywordIndex.build(first, None, None), keep)
    assert updated.terms.tolist() == sorted(updated.terms.tolist())
    for query in ("apple", "pear 2021", "大学", "kiwi plum", "汉山"):
        assert np.array_equal(_scores(updated, query, 8), _scores(expected, query, 8))


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.text(), max_size=40), st.text())
def test_term_table_finds_exactly_its_terms(terms: list[str], probe: str) -> None:
    table = TermTable.from_list(sorted(set(terms)))
    for i, term in enumerate(sorted(set(terms))):
        assert table.lookup(term) == i and table[i] == term
    assert (table.lookup(probe) is not None) == (probe in set(terms))
    merged, mapping, ids = table.merged([probe])
    assert merged.tolist() == sorted({*terms, probe})
    assert [merged[int(m)] for m in mapping] == table.tolist()
    assert all(merged[i] == t for t, i in ids.items())


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.text(), min_size=1, max_size=8))
def test_any_text_indexes_and_searches(corpus: list[str]) -> None:
    index = KeywordIndex.build(corpus, None, None)
    rank = np.arange(len(corpus))
    for text in corpus:
        found = index.search(text, limit=3, mask=None, rank=rank)
        assert all(score > 0 for _, score in found)
        if document_terms(text):
            assert found


def test_masked_rows_are_never_returned_nor_counted() -> None:
    corpus = ["apple pie", "apple tart", "apple juice"]
    index = KeywordIndex.build(corpus, None, None)
    mask = np.array([False, True, False])
    found = index.search("apple", limit=3, mask=mask, rank=np.arange(3))
    assert [row for row, _ in found] == [1]


def test_ties_follow_rank_not_row_order() -> None:
    scores = np.array([1.0, 2.0, 1.0, 1.0], np.float32)
    assert top_rows(scores, 2, np.array([3, 0, 2, 1])).tolist() == [1, 3]
    assert top_rows(scores, 10, np.arange(4)).tolist() == [1, 0, 2, 3]
    assert top_rows(scores, 0, np.arange(4)).tolist() == []


def test_postings_select_renumber_concat() -> None:
    postings = Postings.from_token_ids([[0, 1, 1], [], [2]])
    assert postings.lengths.tolist() == [3, 0, 1]
    assert postings.terms.tolist() == [0, 1, 2] and postings.counts.tolist() == [1, 2, 1]
    kept = postings.select(np.array([True, False, True]))
    assert kept.ptr.tolist() == [0, 2, 3] and kept.lengths.tolist() == [3, 1]
    both = kept.renumbered(np.array([5, 6, 7])).concat(Postings.from_token_ids([[0]]))
    assert both.terms.tolist() == [5, 6, 7, 0] and both.ptr.tolist() == [0, 2, 3, 4]
    assert score_matrix(Postings.empty(), vocabulary=3).rows.size == 0
