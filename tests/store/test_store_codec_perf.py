"""Column encoding round-trips (property-based) and a large batch written and read back.

Its speed (the write and read budgets) is measured by benchmarks/store_codec.py, which
builds the same batch with :func:`synthetic_batch`: timing asserts flake on a busy machine.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.model import Chunk, Document, Granularity, Interval, Mention, Sentence
from chronorag.store import PreparedDocument, SQLiteStore
from chronorag.store.codec import (
    IntervalDecoder,
    decode_mentions,
    decode_time,
    encode_interval,
    encode_mentions,
    encode_time,
)

zones = st.integers(-14 * 60, 14 * 60).map(lambda m: timezone(timedelta(minutes=m)))
moments = st.datetimes(min_value=datetime(1000, 1, 2), max_value=datetime(9999, 12, 30),
                       timezones=st.just(UTC)).flatmap(
    lambda d: zones.map(lambda z: d.astimezone(z)))
grans = st.none() | st.sampled_from(list(Granularity))


@st.composite
def intervals(draw: st.DrawFn) -> Interval:
    a, b = draw(st.none() | moments), draw(st.none() | moments)
    if a is not None and b is not None:
        if a == b:
            b = b + timedelta(microseconds=1)
        a, b = min(a, b), max(a, b)
    return Interval(a, b, draw(grans))


@given(moments, moments)
def test_time_text_orders_like_time(a: datetime, b: datetime) -> None:
    ta, tb = encode_time(a), encode_time(b)
    assert ta is not None and tb is not None
    assert decode_time(ta) == a and (ta < tb) == (a < b)


@given(st.none() | intervals())
def test_interval_round_trip(value: Interval | None) -> None:
    assert IntervalDecoder()(*encode_interval(value)) == value


@given(st.lists(st.builds(Mention, st.text(max_size=8), st.integers(0, 10**6),
                          st.integers(0, 10**6), intervals(), st.booleans()), max_size=4))
@settings(max_examples=25, deadline=None)
def test_mentions_round_trip(mentions: list[Mention]) -> None:
    assert decode_mentions(encode_mentions(mentions), IntervalDecoder()) == tuple(mentions)


def synthetic_batch(n_docs: int = 500, dim: int = 512) -> list[PreparedDocument]:
    """500 documents x 7 chunks = 3,500 chunks, ~15k sentences, 512-d vectors."""
    year = Interval(datetime(2021, 1, 1, tzinfo=UTC), datetime(2022, 1, 1, tzinfo=UTC),
                    Granularity.YEAR)
    rng = np.random.default_rng(0)
    batch = []
    for d in range(n_docs):
        did, chunks, si = f"doc{d:04d}", [], 0
        for c in range(7):
            sents = []
            for s in range(5 if (d * 7 + c) % 10 < 3 else 4):
                ms = (Mention("2021", 0, 4, year),) if s % 2 == 0 else ()
                sents.append(Sentence(did, si, si * 50, si * 50 + 49, "x" * 49, ms))
                si += 1
            chunks.append(Chunk(f"{did}#{c}", did, c, sents[0].start, sents[-1].end, "y" * 250,
                                tuple(sents)))
        doc = Document(id=did, text="z" * 3000, valid_from=year)
        vectors = {"e5": rng.standard_normal((7, dim)).astype(np.float32)}
        batch.append(PreparedDocument(doc, doc.content_hash(), tuple(chunks), vectors))
    return batch


def test_write_and_read_back_a_large_batch(tmp_path: Path) -> None:
    batch = synthetic_batch()
    with SQLiteStore(tmp_path / "kb.db") as store:
        store.write(batch)
        chunks = store.chunks()
        ids, matrix = store.vectors("e5")
    assert len(chunks) == len(ids) == 3500 and matrix.shape == (3500, 512)
    assert sum(len(c.sentences) for c in chunks) == 15050
