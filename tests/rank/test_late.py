"""Late interaction: MaxSim, and the pool ordered by it before the cross-encoder reads."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from chronorag.model import Chunk, Hit
from chronorag.rank.late import LateOrder, maxsim, normalised
from chronorag.rank.rerank_none import fallback_semantics


class _Words:
    """One one-hot row per distinct word: MaxSim counts the question's words found."""

    name = "words"

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}
        self.calls = 0

    def encode(self, texts: Sequence[str], *, kind: str) -> list[np.ndarray]:
        self.calls += 1
        out = []
        for text in texts:
            words = text.lower().replace("?", "").split() or [""]
            rows = np.zeros((len(words), 64), dtype=np.float32)
            for i, w in enumerate(words):
                rows[i, self.vocab.setdefault(w, len(self.vocab) % 64)] = 1.0
            out.append(rows)
        return out


class _Stored:
    def __init__(self, encoder: _Words, hits: Sequence[Hit], *, missing: Sequence[str] = ()
                 ) -> None:
        self.matrices = {h.chunk.id: encoder.encode([h.chunk.text], kind="passage")[0]
                         for h in hits if h.chunk.id not in missing}
        self.asked: list[str] = []

    def token_vectors(self, ids: Sequence[str], model: str) -> dict[str, np.ndarray]:
        assert model == "words"
        self.asked.extend(ids)
        return {i: self.matrices[i] for i in ids if i in self.matrices}


def _hit(i: int, text: str, dense: float) -> Hit:
    chunk = Chunk(f"d{i}#0", f"d{i}", 0, 0, len(text), text, ())
    return Hit(chunk=chunk, score=dense, scores={"dense": dense})


def _hits() -> list[Hit]:
    return [_hit(0, "the weather was sunny all week", 0.9),
            _hit(1, "she adopted a dog named rex", 0.8),
            _hit(2, "rex the dog was adopted in may", 0.7),
            _hit(3, "lunch was pasta again", 0.6)]


def test_maxsim_sums_each_query_tokens_best_match() -> None:
    q = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    p = np.array([[1.0, 0.0], [0.6, 0.8]], dtype=np.float32)
    assert maxsim(q, p) == pytest.approx(1.0 + 0.8)
    assert maxsim(q, np.zeros((0, 2), dtype=np.float32)) == 0.0


def test_normalised_rows_are_unit_and_zero_rows_stay_zero() -> None:
    rows = normalised(np.array([[3.0, 4.0], [0.0, 0.0]]))
    np.testing.assert_allclose(rows, [[0.6, 0.8], [0.0, 0.0]])


def test_the_pool_is_ordered_by_maxsim_on_the_pools_own_levels() -> None:
    encoder, hits = _Words(), _hits()
    order = LateOrder(encoder=encoder, vectors=_Stored(encoder, hits))
    out = order.order("when was rex the dog adopted?", hits)
    assert [h.chunk.doc_id for h in out][:2] == ["d2", "d1"]
    # The levels retrieval gave the pool are dealt out in the new order, best first.
    assert sorted((h.scores["late_relevance"] for h in out), reverse=True) == \
        [h.scores["late_relevance"] for h in out] == sorted(fallback_semantics(hits),
                                                            reverse=True)
    assert fallback_semantics(out) == [h.scores["late_relevance"] for h in out]
    assert all("late" in h.scores for h in out)
    assert [h.score for h in out] == [h.score for h in hits]  # each place keeps its score


def test_hits_past_the_pool_and_passages_without_vectors_keep_their_place() -> None:
    encoder, hits = _Words(), _hits()
    stored = _Stored(encoder, hits, missing=["d0#0"])
    out = LateOrder(encoder=encoder, vectors=stored, pool=3).order("rex adopted in may", hits)
    assert out[0] == hits[0]  # no token vectors stored (a store not reindexed yet)
    assert out[3] == hits[3]  # past the pool: not read at all
    assert "d3#0" not in stored.asked
    assert [h.chunk.doc_id for h in out[1:3]] == ["d2", "d1"]


def test_chinese_is_left_where_it_is() -> None:
    encoder = _Words()
    hits = [*_hits()[:2], _hit(5, "他在五月领养了一只狗", 0.5)]
    stored = _Stored(encoder, hits)
    order = LateOrder(encoder=encoder, vectors=stored)
    assert order.order("他什么时候领养了狗？", hits) == hits
    assert encoder.calls == len(hits)  # the question was never encoded
    out = order.order("she adopted a dog", hits)
    assert out[2] == hits[2]  # a Chinese passage keeps its slot among English ones
    assert [h.chunk.doc_id for h in out[:2]] == ["d1", "d0"]


def test_nothing_to_order() -> None:
    encoder = _Words()
    order = LateOrder(encoder=encoder, vectors=_Stored(encoder, []))
    assert order.order("anything", []) == []
    one = _hits()[:1]
    assert order.order("anything", one) == one
