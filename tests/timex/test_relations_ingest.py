"""Relation words survive ingest: "since 2013" / 自2013年起 is stored open, and such a
mention satisfies a question about a later time ("in 2020")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.model import Interval, Mention
from chronorag.rank.temporal import mention_fit
from chronorag.timex import sentence_mentions


def _utc(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


def _mentions(text: str) -> list[Mention]:
    return [m for ms in sentence_mentions(text, [(0, len(text))]) for m in ms]


@pytest.mark.parametrize(("text", "surface", "start", "end"), [
    ("习近平自2013年起担任国家主席。", "自2013年起", _utc(2013), None),
    ("He has served as mayor since 2013.", "since 2013", _utc(2013), None),
    ("2010年以来经济增长。", "2010年以来", _utc(2010), None),
    ("He played for the club until 2005.", "until 2005", None, _utc(2006)),
    ("2018年以前的规定", "2018年以前", None, _utc(2018)),
    ("2018年之后的规定", "2018年之后", _utc(2019), None),
    ("Before 1990 it was a farm.", "Before 1990", None, _utc(1990)),
])
def test_relation_words_open_the_mention(text: str, surface: str, start: datetime | None,
                                         end: datetime | None) -> None:
    [mention] = _mentions(text)
    assert mention.text == surface == text[mention.start:mention.end]
    assert (mention.interval.start, mention.interval.end) == (start, end)


@pytest.mark.parametrize(("text", "surface"), [
    ("By 2005 he had three children.", "2005"),    # a state reached then, not ended
    ("截至2020年底，共有三家分店。", "2020年底"),     # dated then, not bounded
    ("As of 2020 the population was 3,000.", "2020"),
    ("He was elected in 2004.", "2004"),
    ("1990年前后他住在北京。", "1990年"),             # around 1990, not before it
])
def test_dating_words_keep_the_named_time(text: str, surface: str) -> None:
    [mention] = _mentions(text)
    assert mention.text == surface
    assert mention.interval.start is not None and mention.interval.end is not None


def test_ranges_stay_closed() -> None:
    [mention] = _mentions("胡锦涛于2003年至2013年担任国家主席。")
    assert (mention.interval.start, mention.interval.end) == (_utc(2003), _utc(2014))


def test_an_open_mention_satisfies_a_later_year() -> None:
    [mention] = _mentions("习近平自2013年起担任国家主席。")
    in_2020 = Interval(_utc(2020), _utc(2021))
    in_2010 = Interval(_utc(2010), _utc(2011))
    assert mention_fit(mention, in_2020, inherited_weight=0.85) >= 0.5
    assert mention_fit(mention, in_2010, inherited_weight=0.85) < 0.5


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
