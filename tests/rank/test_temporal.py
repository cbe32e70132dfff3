"""Temporal scoring: interval logic against the question's constraint."""

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import (
    Chunk,
    Constraint,
    Doubt,
    Granularity,
    Hit,
    Interval,
    Mention,
    Order,
    Query,
    Relation,
    Sentence,
    Understanding,
)
from chronorag.rank.gate import near_best
from chronorag.rank.mrag import MragTemporal, year_score
from chronorag.rank.temporal import ChronoTemporal, chunk_fit, mention_fit

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def year(y: int, end: int | None = None) -> Interval:
    return Interval(datetime(y, 1, 1, tzinfo=UTC), datetime((end or y) + 1, 1, 1, tzinfo=UTC),
                    Granularity.YEAR)


def hit(cid: str, semantic: float, *spans: tuple[int, int | None], doc: str = "d") -> Hit:
    sentences = tuple(
        Sentence(doc, i, i * 10, i * 10 + 9, f"In {a} it happened.",
                 (Mention(str(a), i * 10, i * 10 + 4, year(a, b)),))
        for i, (a, b) in enumerate(spans)
    )
    chunk = Chunk(cid, doc, 0, 0, 100, "text", sentences)
    return Hit(chunk, semantic, {"semantic": semantic})


def query(relation: Relation, interval: Interval | None, order: Order | None = None) -> Query:
    u = Understanding("q", "q", constraint=Constraint(relation, order, interval))
    return Query("q", NOW, NOW, u)


def test_no_constraint_keeps_semantic_order() -> None:
    hits = [hit("a", 0.9, (1990, None)), hit("b", 0.8, (2005, None))]
    out = ChronoTemporal().rerank(query(Relation.NONE, None), hits)
    assert [h.chunk.id for h in out] == ["a", "b"]
    assert all(h.scores["temporal"] == 1.0 for h in out)


def test_violating_passage_is_pushed_below_satisfying_one() -> None:
    hits = [hit("wrong", 0.95, (1990, 1995)), hit("right", 0.7, (2004, 2009))]
    out = ChronoTemporal().rerank(query(Relation.IN, year(2006)), hits)
    assert [h.chunk.id for h in out] == ["right", "wrong"]
    assert "violates_time" in out[1].flags and "time_verified" in out[0].flags


def test_inside_a_tier_relevance_decides_not_the_precision_of_the_date() -> None:
    # Both satisfy "in 2006": a twenty-year tenure (less specific) and a dated event.
    hits = [hit("tenure", 0.9, (1990, 2010)), hit("event", 0.85, (2006, None), doc="e")]
    q = query(Relation.IN, year(2006))
    out = ChronoTemporal(doc_weight=0.0).rerank(q, hits)
    assert [h.chunk.id for h in out] == ["tenure", "event"]
    assert out[0].scores["temporal"] < out[1].scores["temporal"]
    # fit_weight=1 is the product inside the tier (the windows' pre-rank uses it).
    out = ChronoTemporal(doc_weight=0.0, fit_weight=1.0).rerank(q, hits)
    assert [h.chunk.id for h in out] == ["event", "tenure"]


def test_irrelevant_passage_never_wins_on_dates_alone() -> None:
    hits = [hit("about", 0.9, (1990, 1995)), hit("offtopic", 0.05, (2006, None), doc="e")]
    out = ChronoTemporal(doc_weight=0.0).rerank(query(Relation.IN, year(2006)), hits)
    assert out[0].chunk.id == "about"


def test_state_extends_to_next_event() -> None:
    # "In 2004 he joined A. In 2007 he moved to B." -> A holds in 2005.
    h = hit("c", 0.9, (2004, None), (2007, None))
    fit = chunk_fit(h, Constraint(Relation.IN, None, year(2005)))
    assert fit.tier == 2 and fit.sentence_index == 0


def test_before_and_after_use_the_open_side() -> None:
    before = Constraint(Relation.BEFORE, None, Interval(None, datetime(2000, 1, 1, tzinfo=UTC)))
    assert chunk_fit(hit("x", 1, (1995, None)), before).tier == 2
    assert chunk_fit(hit("x", 1, (2003, None)), before).tier == 0
    after = Constraint(Relation.AFTER, None, Interval(datetime(2000, 1, 1, tzinfo=UTC), None))
    assert chunk_fit(hit("x", 1, (2003, None)), after).tier == 2
    # "After December 1999" starts on 1 January 2000: a fact of 1999 only touches it.
    assert chunk_fit(hit("x", 1, (1999, None)), after).tier == 0
    assert chunk_fit(hit("x", 1, (2000, None)), before).tier == 0


def test_last_order_prefers_latest_satisfying_time() -> None:
    interval = Interval(None, datetime(2022, 1, 1, tzinfo=UTC))
    hits = [hit("early", 0.9, (2015, None)), hit("late", 0.85, (2021, None))]
    out = ChronoTemporal().rerank(query(Relation.BEFORE, interval, Order.LAST), hits)
    assert out[0].chunk.id == "late"
    out = ChronoTemporal().rerank(query(Relation.BEFORE, interval, Order.FIRST), hits)
    assert out[0].chunk.id == "early"


_TARGETS = st.sampled_from(["in", "before", "after", "between"])


@given(_TARGETS, st.integers(1900, 2000), st.integers(0, 30), st.integers(1900, 2050),
       st.integers(0, 80), st.sampled_from([1.0, 0.85, 0.8 * 0.85]))
def test_satisfying_and_violating_fits_never_meet(kind: str, t0: int, tlen: int, m0: int,
                                                   mlen: int, weight: float) -> None:
    """Whatever the specificity and weight, a mention overlapping the target scores at
    least 0.5 and one missing it scores below: the tiers rest on this."""
    full = year(t0, t0 + tlen)
    target = {"in": full, "between": full, "before": Interval(None, full.end),
              "after": Interval(full.start, None)}[kind]
    mention = Mention("m", 0, 1, year(m0, m0 + mlen))
    fit = mention_fit(mention, target, inherited_weight=weight)
    assert (fit >= 0.5) == mention.interval.overlaps(target)


@given(st.integers(1900, 2100), st.integers(0, 60), st.integers(1, 30))
def test_fit_never_rises_with_distance(target_year: int, gap: int, extra: int) -> None:
    target = year(target_year)
    near = Mention("m", 0, 1, year(target_year + 1 + gap))
    far = Mention("m", 0, 1, year(target_year + 1 + gap + extra))
    assert mention_fit(far, target, inherited_weight=0.85) <= mention_fit(
        near, target, inherited_weight=0.85)


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_more_relevant_never_ranks_lower_at_equal_fit(a: float, b: float) -> None:
    hits = [hit("a", a, (2006, None)), hit("b", b, (2006, None), doc="e")]
    out = ChronoTemporal(doc_weight=0.0).rerank(query(Relation.IN, year(2006)), hits)
    if a > b:
        assert out[0].chunk.id == "a"
    elif b > a:
        assert out[0].chunk.id == "b"


def test_mrag_curve_matches_the_paper() -> None:
    assert year_score(2021, relation=Relation.BEFORE, lo=None, hi=2021) == 1.0
    assert abs(year_score(1971, relation=Relation.BEFORE, lo=None, hi=2021) - 0.6) < 1e-9
    assert year_score(2023, relation=Relation.BEFORE, lo=None, hi=2021) == 0.5
    assert year_score(2005, relation=Relation.BETWEEN, lo=2004, hi=2006) == 1.0
    hits = [hit("a", 0.9, (1990, None)), hit("b", 0.8, (2006, None))]
    out = MragTemporal().rerank(query(Relation.IN, year(2006)), hits)
    assert out[0].chunk.id == "b"


def test_shift_of_everything_keeps_ranking() -> None:
    hits = [hit("a", 0.9, (1990, None)), hit("b", 0.8, (2006, None))]
    base = [h.chunk.id for h in ChronoTemporal().rerank(query(Relation.IN, year(2006)), hits)]
    shifted = [hit("a", 0.9, (2000, None)), hit("b", 0.8, (2016, None))]
    moved = [h.chunk.id for h in ChronoTemporal().rerank(query(Relation.IN, year(2016)), shifted)]
    assert base == moved
    assert timedelta(days=1)  # keep import used


def test_a_doubted_constraint_orders_only_what_relevance_cannot_tell_apart() -> None:
    """An unsure reading of the question's time ("哪个更早" names two events; the time may
    be one event's) reorders near-ties only; the sure one pushes a violating passage down."""
    def doubted(interval: Interval) -> Query:
        constraint = Constraint(Relation.IN, None, interval, doubts=(Doubt.COMPARISON,))
        return Query("q", NOW, NOW, Understanding("q", "q", constraint=constraint))

    def ranked(q: Query, hits: list[Hit]) -> list[str]:
        return [h.chunk.id for h in ChronoTemporal(doc_weight=0.0).rerank(q, hits)]

    apart = [hit("wrong", 0.95, (1990, 1995), doc="w"), hit("right", 0.7, (2004, 2009))]
    assert ranked(query(Relation.IN, year(2006)), apart) == ["right", "wrong"]
    assert ranked(doubted(year(2006)), apart) == ["wrong", "right"]
    tied = [hit("wrong", 0.95, (1990, 1995), doc="w"), hit("right", 0.93, (2004, 2009))]
    assert ranked(doubted(year(2006)), tied) == ["right", "wrong"]


def test_when_nothing_is_relevant_the_tiers_still_order_every_candidate() -> None:
    """"2023年谁是德国总理？" over English pages: relevance 0.006 against 0.000 is noise;
    the passage whose time fits comes first, the violating one last."""
    hits = [hit("wrong", 0.006, (1990, 1995), doc="w"), hit("right", 0.0, (2020, 2024), doc="r"),
            hit("undated", 0.003, doc="u")]
    out = ChronoTemporal(doc_weight=0.0).rerank(query(Relation.IN, year(2023)), hits)
    assert [h.chunk.id for h in out] == ["right", "undated", "wrong"]
    assert "violates_time" in out[-1].flags
    nothing = [hit("wrong", 0.0, (1990, 1995), doc="w"), hit("right", 0.0, (2020, 2024))]
    out = ChronoTemporal(doc_weight=0.0).rerank(query(Relation.IN, year(2023)), nothing)
    assert [h.chunk.id for h in out] == ["right", "wrong"]  # every relevance exactly 0
    relevant = [hit("wrong", 0.06, (1990, 1995), doc="w"), hit("right", 0.0, (2020, 2024))]
    out = ChronoTemporal(doc_weight=0.0).rerank(query(Relation.IN, year(2023)), relevant)
    assert [h.chunk.id for h in out] == ["wrong", "right"]  # 0.06 is relevant, 0.0 is not


def _judged(doc: str, semantic: float, dense: float, model: str) -> Hit:
    chunk = Chunk(f"{doc}#0", doc, 0, 0, 1, "x", ())
    return Hit(chunk=chunk, score=semantic,
               scores={"semantic": semantic, "dense_relevance": dense, model: 1.0})


def test_passages_of_two_judges_meet_the_gate_on_the_scale_they_share() -> None:
    chinese = _judged("zh", 0.36, 0.36, "judge")        # the multilingual judge's level
    english = _judged("en", 0.19, 0.11, "rerank")       # the cross-encoder's sigmoid
    english_close = _judged("en2", 0.05, 0.30, "rerank")
    hits = [chinese, english, english_close]
    # Against the judge's best, a cross-encoder score is read on dense relevance.
    assert near_best(hits, [0.36, 0.19, 0.05], gate=0.5) == [True, False, True]
    # One judge only: its own scale.
    same = [_judged("a", 0.36, 0.36, "rerank"), _judged("b", 0.19, 0.01, "rerank")]
    assert near_best(same, [0.36, 0.19], gate=0.5) == [True, True]
    # No dense relevance to share: the relevance itself.
    bare = Hit(chunk=english.chunk, score=0.19, scores={"semantic": 0.19, "rerank": 1.0})
    assert near_best([chinese, bare], [0.36, 0.19], gate=0.5) == [True, True]
    assert near_best([], [], gate=0.5) == []
