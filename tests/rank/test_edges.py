"""The start or end of a dated state, and how an anchored question scores it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import (
    Anchor,
    Chunk,
    Constraint,
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
from chronorag.rank.edges import edge
from chronorag.rank.temporal import ChronoTemporal

G = Granularity
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _t(year: int, month: int = 1) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


def _mention(iv: Interval, relation: Relation = Relation.IN) -> Mention:
    return Mention("x", 0, 1, iv, relation=relation)


@pytest.mark.parametrize(("interval", "anchor", "expected"), [
    (Interval(_t(2010), _t(2019), G.YEAR), Anchor.START, (_t(2010), _t(2011))),
    (Interval(_t(2010), _t(2019), G.YEAR), Anchor.END, (_t(2018), _t(2019))),
    (Interval(_t(2018), _t(2019), G.YEAR), Anchor.START, (_t(2018), _t(2019))),
    (Interval(_t(2018, 3), _t(2021, 7), G.MONTH), Anchor.START, (_t(2018, 3), _t(2018, 4))),
    (Interval(_t(2018, 3), _t(2021, 7), G.MONTH), Anchor.END, (_t(2021, 6), _t(2021, 7))),
    (Interval(_t(1990), _t(2000), G.DECADE), Anchor.START, (_t(1990), _t(2000))),
    (Interval(_t(2018), _t(2019), None), Anchor.END, (_t(2018), _t(2019))),
])
def test_edge_is_the_first_or_last_unit(interval: Interval, anchor: Anchor,
                                        expected: tuple[datetime, datetime]) -> None:
    got = edge(_mention(interval), anchor)
    assert got is not None and (got.start, got.end) == expected


@pytest.mark.parametrize(("relation", "anchor"), [
    (Relation.UNTIL, Anchor.START), (Relation.BEFORE, Anchor.START),
    (Relation.SINCE, Anchor.END), (Relation.AFTER, Anchor.END),
])
def test_a_relation_word_hides_an_edge(relation: Relation, anchor: Anchor) -> None:
    assert edge(_mention(Interval(_t(2013), _t(2014), G.YEAR), relation), anchor) is None


def test_since_states_the_start() -> None:
    got = edge(_mention(Interval(_t(2013), _t(2014), G.YEAR), Relation.SINCE), Anchor.START)
    assert got is not None and got.start == _t(2013)


@given(st.integers(1, 9998), st.integers(1, 12), st.integers(0, 9000),
       st.sampled_from([*Granularity, None]), st.sampled_from(list(Anchor)),
       st.sampled_from(list(Relation)))
def test_edge_lies_inside_the_interval(year: int, month: int, days: int,
                                       granularity: Granularity | None, anchor: Anchor,
                                       relation: Relation) -> None:
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime.fromordinal(min(start.toordinal() + days + 1,
                                   datetime(9999, 12, 31).toordinal())).replace(tzinfo=UTC)
    if not start < end:
        return
    got = edge(_mention(Interval(start, end, granularity), relation), anchor)
    if got is not None:
        assert got.start is not None and got.end is not None
        assert start <= got.start < got.end <= end


def _terms(cid: str, semantic: float, *terms: tuple[int, int]) -> Hit:
    sentences = tuple(
        Sentence("d", i, i * 10, i * 10 + 9, "served",
                 (Mention(f"{a}-{b}", i * 10, i * 10 + 4, Interval(_t(a), _t(b + 1), G.YEAR)),))
        for i, (a, b) in enumerate(terms))
    return Hit(Chunk(cid, "d", 0, 0, 100, "text", sentences), semantic, {"semantic": semantic})


def _asked(anchor: Anchor | None, relation: Relation, interval: Interval,
           order: Order | None = None) -> Query:
    constraint = Constraint(relation, order, interval, anchor)
    return Query("q", NOW, NOW, Understanding("q", "q", constraint=constraint))


def test_appointed_after_judges_the_start_of_the_term() -> None:
    hits = [_terms("served-2001-2005", 0.95, (2001, 2005)),
            _terms("served-2010-2018", 0.9, (2010, 2018)), _terms("from-2018", 0.8, (2018, 2022))]
    after_2015 = Interval(_t(2016), None, G.YEAR)
    anchored = ChronoTemporal().rerank(_asked(Anchor.START, Relation.AFTER, after_2015), hits)
    assert [h.chunk.id for h in anchored] == ["from-2018", "served-2010-2018", "served-2001-2005"]
    # A term that covers the asked time without beginning in it is not verified, and ranks
    # above one that misses the time altogether.
    assert [h.flags for h in anchored] == [("time_verified",), ("edge_unverified",),
                                           ("violates_time",)]
    plain = ChronoTemporal().rerank(_asked(None, Relation.AFTER, after_2015), hits)
    assert [h.chunk.id for h in plain][:2] == ["served-2010-2018", "from-2018"]


def test_left_in_judges_the_end_of_the_term() -> None:
    hits = [_terms("ended-2022", 0.8, (2018, 2022)), _terms("began-2022", 0.9, (2022, 2025))]
    in_2022 = Interval(_t(2022), _t(2023), G.YEAR)
    out = ChronoTemporal().rerank(_asked(Anchor.END, Relation.IN, in_2022), hits)
    assert [h.chunk.id for h in out] == ["ended-2022", "began-2022"]
