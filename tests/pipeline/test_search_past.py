"""Candidates of documents that can no longer answer keep out of the reranker's slots."""

from __future__ import annotations

from datetime import UTC, datetime

from chronorag.flags import Flag
from chronorag.ingest.dates import parse_date
from chronorag.model import Chunk, Document, Hit, Query, Understanding
from chronorag.pipeline import search
from chronorag.rank.validity import ValidityIndex

AS_OF = datetime(2023, 6, 1, tzinfo=UTC)
DOCS = [
    Document(id="old", text="x", valid_from=parse_date("2020-12-19", tz=UTC)),
    Document(id="new", text="x", valid_from=parse_date("2022-12-15", tz=UTC),
             supersedes=("old",)),
    Document(id="next", text="x", valid_from=parse_date("2024-02-01", tz=UTC),
             supersedes=("new",)),
]


INDEX = ValidityIndex.build(DOCS)


def _hit(doc: str, i: int) -> Hit:
    chunk = Chunk(id=f"{doc}#{i}", doc_id=doc, index=i, start=0, end=1, text="x")
    return Hit(chunk=chunk, score=0.5, scores={"semantic": 0.9})


def _query() -> Query:
    return Query(text="q", now=AS_OF, as_of=AS_OF,
                 understanding=Understanding(question="q", content="q"))


def test_superseded_candidates_go_behind_when_the_others_fill_the_slots() -> None:
    hits = [_hit("old", 0), _hit("old", 1), _hit("next", 0), _hit("new", 0), _hit("new", 1)]
    live, past = search._split_past(hits, INDEX, _query(), top_n=3)
    # The version in force and the one still to come are read; last year's waits.
    assert [h.chunk.id for h in live] == ["next#0", "new#0", "new#1"]
    assert [h.chunk.id for h in past] == ["old#0", "old#1"]
    judged = [Hit(chunk=h.chunk, score=s, scores={"semantic": s})
              for h, s in zip(live, (0.8, 0.6, 0.3), strict=True)]
    behind = search._behind(judged, past, read=lambda: [], min_semantic=0.05)
    assert [h.chunk.id for h in behind[3:]] == ["old#0", "old#1"]
    assert all(Flag.NOT_RERANKED in h.flags and h.scores["semantic"] <= 0.3 for h in behind[3:])


def test_with_room_to_spare_every_candidate_is_read() -> None:
    hits = [_hit("old", 0), _hit("new", 0)]
    live, past = search._split_past(hits, INDEX, _query(), top_n=8)
    assert (live, past) == (hits, [])


def test_when_nothing_read_is_relevant_every_candidate_is_read() -> None:
    # The only relevant source is retired: it is read, so the answer can say why.
    hits = [_hit("new", 0), _hit("old", 0)]
    judged = [Hit(chunk=hits[0].chunk, score=0.01, scores={"semantic": 0.01})]
    again = [Hit(chunk=h.chunk, score=0.9, scores={"semantic": 0.9}) for h in hits[::-1]]
    assert search._behind(judged, [hits[1]], read=lambda: again, min_semantic=0.05) is again
