import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import Chunk, Hit
from chronorag.retrieve.fusion import rrf_fuse

IDS = [f"c{i}" for i in range(12)]


def hit(chunk_id: str, name: str, value: float) -> Hit:
    chunk = Chunk(id=chunk_id, doc_id=chunk_id, index=0, start=0, end=1, text=chunk_id)
    return Hit(chunk=chunk, score=value, scores={name: value})


def ranking(ids: list[str], name: str) -> list[Hit]:
    return [hit(i, name, 1.0 / (r + 1)) for r, i in enumerate(ids)]


rankings_st = st.lists(
    st.lists(st.sampled_from(IDS), unique=True, max_size=len(IDS)), min_size=1, max_size=4
).map(lambda lists: [ranking(ids, f"r{n}") for n, ids in enumerate(lists)])


def summary(hits: list[Hit]) -> list[tuple[str, float, dict]]:
    return [(h.chunk.id, h.score, dict(h.scores)) for h in hits]


@given(rankings_st, st.randoms(use_true_random=False))
def test_permutation_of_rankings_does_not_change_the_result(rankings, rnd):
    shuffled = list(rankings)
    rnd.shuffle(shuffled)
    assert summary(rrf_fuse(rankings, limit=20)) == summary(rrf_fuse(shuffled, limit=20))


@given(rankings_st, st.sampled_from(IDS))
def test_an_item_first_everywhere_ranks_first(rankings, top):
    lifted = [[hit(top, f"r{n}", 9.0)] + [h for h in r if h.chunk.id != top]
              for n, r in enumerate(rankings)]
    assert rrf_fuse(lifted, limit=5)[0].chunk.id == top


@given(st.lists(st.sampled_from(IDS), unique=True, min_size=1), st.integers(0, 100))
def test_scores_fall_strictly_with_rank_in_a_single_ranking(ids, k):
    fused = rrf_fuse([ranking(ids, "bm25")], k=k, limit=len(ids))
    assert [h.chunk.id for h in fused] == ids
    scores = [h.score for h in fused]
    assert all(a > b for a, b in itertools.pairwise(scores))


@given(rankings_st, st.integers(0, 15))
def test_output_sorted_limited_unique(rankings, limit):
    fused = rrf_fuse(rankings, limit=limit)
    assert len(fused) <= limit
    assert len({h.chunk.id for h in fused}) == len(fused)
    assert [h.score for h in fused] == sorted((h.score for h in fused), reverse=True)


def test_merged_scores_keep_every_retriever_score_and_add_rrf():
    bm25 = [hit("a", "bm25", 7.0), hit("b", "bm25", 3.0)]
    dense = [hit("b", "dense", 0.8), hit("c", "dense", 0.5)]
    fused = {h.chunk.id: h for h in rrf_fuse([bm25, dense], k=60, limit=10)}
    assert dict(fused["b"].scores) == {"bm25": 3.0, "dense": 0.8,
                                       "rrf": pytest.approx(1 / 61 + 1 / 62)}
    assert fused["b"].score == fused["b"].scores["rrf"]
    assert dict(fused["a"].scores) == {"bm25": 7.0, "rrf": 1 / 61}
    assert list(fused) == ["b", "a", "c"]


def test_weights_let_one_ranking_dominate():
    a = ranking(["x", "y"], "bm25")
    b = ranking(["y", "x"], "dense")
    assert rrf_fuse([a, b], limit=2, weights=[0.5, 1.0])[0].chunk.id == "y"
    assert rrf_fuse([a, b], limit=2, weights=[1.0, 0.5])[0].chunk.id == "x"
    with pytest.raises(ValueError):
        rrf_fuse([a, b], limit=2, weights=[1.0])
