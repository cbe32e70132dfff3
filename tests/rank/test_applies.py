"""The conditions rule in the ranking (``rank.applies``): documents for other askers are
kept as evidence, not applicable and behind; they are never upcoming."""

from __future__ import annotations

from typing import Any

from chronorag.flags import Flag
from chronorag.model import Chunk, Document, Hit
from chronorag.rank.applies import apply_conditions


def hit(doc: str, score: float, **fields: Any) -> Hit:
    return Hit(Chunk(f"{doc}#0", doc, 0, 0, 4, "text"), score, {"semantic": score}, **fields)


DOCS = {
    "eu": Document("eu", text="EU rule.", applies_to={"region": ["EU"]}),
    "us": Document("us", text="US rule.", applies_to={"region": ["US"]}),
    "all": Document("all", text="General rule."),
}


def test_a_store_without_conditions_is_left_as_it_was() -> None:
    hits = [hit("all", 0.9)]
    evidence, upcoming = apply_conditions(hits, hits, documents=DOCS, context={"region": "EU"})
    assert evidence == hits and upcoming == hits
    assert evidence[0] is hits[0]


def test_documents_for_other_askers_go_behind_and_say_why() -> None:
    hits = [hit("us", 0.9), hit("eu", 0.8), hit("all", 0.7)]
    evidence, _ = apply_conditions(hits, [], documents=DOCS, context={"region": "EU"})
    assert [h.chunk.doc_id for h in evidence] == ["eu", "all", "us"]
    assert [h.applicable for h in evidence] == [True, True, False]
    assert evidence[2].flags == (Flag.NOT_APPLICABLE,)
    assert evidence[0].flags == () and evidence[1].flags == ()


def test_an_open_condition_keeps_the_document_and_flags_it() -> None:
    hits = [hit("us", 0.9), hit("all", 0.7)]
    evidence, _ = apply_conditions(hits, [], documents=DOCS, context={})
    assert [h.applicable for h in evidence] == [True, True]
    assert evidence[0].flags == (Flag.CONDITION_UNKNOWN,)


def test_an_already_excluded_hit_stays_excluded_and_upcoming_loses_other_askers() -> None:
    later_us = hit("us", 0.9, applicable=False, flags=(Flag.NOT_YET_VALID,))
    later_eu = hit("eu", 0.8, applicable=False, flags=(Flag.NOT_YET_VALID,))
    evidence, upcoming = apply_conditions([later_us, later_eu], [later_us, later_eu],
                                          documents=DOCS, context={"region": "EU"})
    assert [h.chunk.doc_id for h in upcoming] == ["eu"]
    assert not any(h.applicable for h in evidence)
    assert evidence[0].flags == (Flag.NOT_YET_VALID, Flag.NOT_APPLICABLE)
