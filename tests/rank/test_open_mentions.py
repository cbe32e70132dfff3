"""Mentions opened by a relation word ("since 2013", "until 2005") in the temporal scorer."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import (
    Chunk,
    Constraint,
    Hit,
    Mention,
    Query,
    Relation,
    Sentence,
    Understanding,
)
from chronorag.rank.temporal import OPEN, SATISFIES, VIOLATES, ChronoTemporal, chunk_fit

from .test_temporal import NOW
from .test_temporal import year as _year


def _hit(cid: str, semantic: float, *mentions: tuple[int, Relation]) -> Hit:
    sentences = tuple(
        Sentence("d", i, i * 10, i * 10 + 9, "s",
                 (Mention(str(y), i * 10, i * 10 + 4, _year(y), relation=r),))
        for i, (y, r) in enumerate(mentions))
    return Hit(Chunk(cid, "d", 0, 0, 100, "text", sentences), semantic, {"semantic": semantic})


def _in(year: int) -> Constraint:
    return Constraint(Relation.IN, None, _year(year))


def test_since_reaches_a_later_year_below_a_named_one() -> None:
    since = _hit("since", 0.9, (2013, Relation.SINCE))
    assert chunk_fit(since, _in(2020)).tier == OPEN
    assert chunk_fit(since, _in(2013)).tier == SATISFIES
    assert chunk_fit(since, _in(2010)).tier == VIOLATES
    named = _hit("named", 0.5, (2020, Relation.IN))
    query = Query("q", NOW, NOW, Understanding("q", "q", constraint=_in(2020)))
    out = ChronoTemporal().rerank(query, [since, named])
    assert [h.chunk.id for h in out] == ["named", "since"]
    assert set(out[1].flags) >= {"time_verified", "time_open"}


def test_since_stops_at_the_next_dated_statement() -> None:
    alone = _hit("alone", 0.9, (2005, Relation.SINCE))
    moved = _hit("moved", 0.9, (2005, Relation.SINCE), (2008, Relation.IN))
    assert chunk_fit(alone, _in(2010)).tier == OPEN
    assert chunk_fit(moved, _in(2010)).tier == VIOLATES


def test_until_reaches_back_to_the_previous_dated_statement() -> None:
    alone = _hit("alone", 0.9, (2005, Relation.UNTIL))
    joined = _hit("joined", 0.9, (2001, Relation.IN), (2005, Relation.UNTIL))
    assert chunk_fit(alone, _in(2000)).tier == OPEN
    assert chunk_fit(joined, _in(2000)).tier == VIOLATES


@given(st.lists(st.tuples(st.integers(1, 9000), st.sampled_from(list(Relation))),
                min_size=1, max_size=6),
       st.integers(1, 9000), st.sampled_from([Relation.IN, Relation.BEFORE, Relation.AFTER]))
def test_any_mentions_give_a_fit(mentions: list[tuple[int, Relation]], year: int,
                                 relation: Relation) -> None:
    fit = chunk_fit(_hit("h", 0.5, *mentions), Constraint(relation, None, _year(year)))
    assert 0.0 <= fit.fit <= 1.0


def test_among_equally_fitting_sentences_the_rerankers_choice_is_named() -> None:
    # Three rows all dated 2020 (as a document's validity dates every row): same fit.
    rows = _hit("rows", 0.9, (2020, Relation.IN), (2020, Relation.IN), (2020, Relation.IN))
    assert chunk_fit(rows, _in(2020)).sentence_index == 0  # no choice: the first
    chosen = replace(rows, best_sentence=2)
    fit = chunk_fit(chosen, _in(2020))
    assert fit.sentence_index == 2 and fit.tier == chunk_fit(rows, _in(2020)).tier
    # A choice that fits worse than the best does not win.
    mixed = replace(_hit("mixed", 0.9, (2020, Relation.IN), (2010, Relation.IN)),
                    best_sentence=1)
    assert chunk_fit(mixed, _in(2020)).sentence_index == 0
