"""Ingest mentions and relation words: a mention keeps the time it names and records the
relation word that opens it (the temporal scorer weighs it), ranges stay closed, and
mentions never leave their sentence."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.model import Mention, Relation
from chronorag.timex import sentence_mentions


def _utc(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


def _mentions(text: str) -> list[Mention]:
    return [m for ms in sentence_mentions(text, [(0, len(text))]) for m in ms]


@pytest.mark.parametrize(("text", "surface", "relation"), [
    ("By 2005 he had three children.", "2005", Relation.IN),   # a state reached then
    ("截至2020年底，共有三家分店。", "2020年底", Relation.IN),     # dated then, not bounded
    ("As of 2020 the population was 3,000.", "2020", Relation.IN),
    ("He was elected in 2004.", "2004", Relation.IN),
    ("1990年前后他住在北京。", "1990年", Relation.IN),             # around 1990
    ("习近平自2013年起担任国家主席。", "2013年", Relation.SINCE),
    ("He has served as mayor since 2013.", "2013", Relation.SINCE),
    ("He played for the club until 2005.", "2005", Relation.UNTIL),
    ("2018年以前的规定", "2018年", Relation.BEFORE),
    ("2018年之后的规定", "2018年", Relation.AFTER),
    ("Before 1990 it was a farm.", "1990", Relation.BEFORE),
])
def test_relation_words_keep_the_named_time_at_ingest(text: str, surface: str,
                                                       relation: Relation) -> None:
    [mention] = _mentions(text)
    assert mention.text == surface
    assert mention.interval.start is not None and mention.interval.end is not None
    assert mention.relation is relation


def test_an_inherited_mention_keeps_its_relation() -> None:
    text = "He has served as mayor since 2013. He lives in the town."
    _first, second = sentence_mentions(text, [(0, 34), (35, len(text))])
    assert second[0].inherited and second[0].relation is Relation.SINCE


def test_ranges_stay_closed() -> None:
    [mention] = _mentions("胡锦涛于2003年至2013年担任国家主席。")
    assert (mention.interval.start, mention.interval.end) == (_utc(2003), _utc(2014))


_PIECES = ["since 2013", "until 2005", "自2013年起", "2018年以前", "by 2005", "from 1990 to 1995",
           "截至2020年", " ", "。", ". ", "\n\n", "He ", "以来", "起", "before", "after "]


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=60),
                      st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)),
       cut=st.integers(min_value=0, max_value=60))
def test_mentions_stay_inside_their_sentence(text: str, cut: int) -> None:
    cut = min(cut, len(text))
    spans = [(0, cut), (cut, len(text))]
    for (lo, hi), mentions in zip(spans, sentence_mentions(text, spans), strict=True):
        previous = lo
        for m in mentions:
            assert text[m.start:m.end] == m.text
            if not m.inherited:
                assert previous <= m.start < m.end <= hi
                previous = m.end
