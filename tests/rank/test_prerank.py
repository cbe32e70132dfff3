"""The time pre-rank: the reranker's pool by time tier, retrieval's best kept first."""

from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import (
    Chunk,
    Constraint,
    Hit,
    Interval,
    Mention,
    Query,
    Relation,
    Sentence,
    Understanding,
)
from chronorag.rank.prerank import TimePrerank

from .test_temporal import NOW, year


def hit(cid: str, dense: float, said: int | None) -> Hit:
    """A passage of its own document whose one sentence states the year ``said``."""
    mentions = () if said is None else (Mention(str(said), 3, 7, year(said)),)
    sentence = Sentence(cid, 0, 0, 20, f"In {said} it happened.", mentions)
    return Hit(Chunk(cid, cid, 0, 0, 20, sentence.text, (sentence,)), dense,
               {"dense_relevance": dense})


def query(interval: Interval | None) -> Query:
    relation = Relation.NONE if interval is None else Relation.IN
    u = Understanding("q", "q", constraint=Constraint(relation, None, interval))
    return Query("q", NOW, NOW, u)


def ids(hits: list[Hit]) -> list[str]:
    return [h.chunk.id for h in hits]


def test_retrievals_best_stays_first_when_its_level_is_below_the_gate() -> None:
    # First by fusion, it states the asked year, but its dense level is a quarter of the
    # best one's: the tiers alone would put it behind every passage above the gate.
    hits = [hit("fused-first", 0.1, 2023), hit("wrong-year", 0.4, 2019),
            hit("no-year", 0.35, None), hit("asked-year", 0.3, 2023)]
    out = TimePrerank().rerank(query(year(2023)), hits)
    assert ids(out) == ["fused-first", "asked-year", "no-year", "wrong-year"]


def test_behind_it_the_tiers_order_the_rest() -> None:
    hits = [hit("a", 0.4, 2019), hit("b", 0.35, 2023), hit("c", 0.3, None)]
    out = TimePrerank().rerank(query(year(2023)), hits)
    assert ids(out) == ["a", "b", "c"]
    hits = [hit("a", 0.4, 2023), hit("b", 0.35, 2019), hit("c", 0.3, None)]
    assert ids(TimePrerank().rerank(query(year(2023)), hits)) == ["a", "c", "b"]


def test_no_time_in_the_question_leaves_the_pool_as_it_is() -> None:
    hits = [hit("a", 0.1, 2019), hit("b", 0.4, 2023)]
    assert ids(TimePrerank().rerank(query(None), hits)) == ["a", "b"]
    assert TimePrerank().rerank(query(year(2023)), []) == []


@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.sampled_from([None, 2019, 2023])),
                min_size=1, max_size=12))
def test_a_permutation_with_the_first_kept(levels: list[tuple[float, int | None]]) -> None:
    hits = [hit(f"h{i}", dense, said) for i, (dense, said) in enumerate(levels)]
    out = TimePrerank().rerank(query(year(2023)), hits)
    assert sorted(ids(out)) == sorted(ids(hits))
    assert out[0].chunk.id == "h0"
