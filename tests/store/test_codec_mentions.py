"""Mentions round-trip through the store's JSON, relation words included."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from chronorag.model import Granularity, Interval, Mention, Relation
from chronorag.store.codec import IntervalDecoder, decode_mentions, encode_mentions

YEAR = Interval(datetime(2013, 1, 1, tzinfo=UTC), datetime(2014, 1, 1, tzinfo=UTC),
                Granularity.YEAR)


@pytest.mark.parametrize("relation", list(Relation))
def test_relation_round_trips(relation: Relation) -> None:
    mentions = (Mention("2013", 4, 8, YEAR, relation=relation), Mention("2013", 9, 13, YEAR))
    assert decode_mentions(encode_mentions(mentions), IntervalDecoder()) == mentions


def test_rows_written_without_a_relation_read_as_in() -> None:
    encoded = encode_mentions([Mention("2013", 4, 8, YEAR)])
    assert encoded is not None and "rel" not in json.loads(encoded)[0]
    [decoded] = decode_mentions(encoded, IntervalDecoder())
    assert decoded.relation is Relation.IN


def test_the_anchor_of_a_relative_phrase_round_trips() -> None:
    said = datetime(2023, 1, 20, 16, 4, tzinfo=UTC)
    day = Interval(datetime(2023, 1, 19, tzinfo=UTC), datetime(2023, 1, 20, tzinfo=UTC),
                   Granularity.DAY)
    mentions = (Mention("yesterday", 20, 29, day, anchor=said), Mention("2013", 40, 44, YEAR))
    encoded = encode_mentions(mentions)
    assert encoded is not None and "anchor" not in json.loads(encoded)[1]
    assert decode_mentions(encoded, IntervalDecoder()) == mentions
