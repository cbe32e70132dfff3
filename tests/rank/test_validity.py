"""Validity rules: golden cases (tests/cases/validity/*.yaml), unit and property tests."""

from __future__ import annotations

import dataclasses
import os
import random
import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.model import (
    INTERVAL_FIELDS,
    Chunk,
    Document,
    Granularity,
    Hit,
    Interval,
    Status,
)
from chronorag.rank.authority import AuthorityPrior
from chronorag.rank.validity import (
    BLOCKING,
    FLAG_ORDER,
    Validity,
    ValidityIndex,
    apply_validity,
    cycle_components,
)

CASES = Path(__file__).resolve().parents[1] / "cases" / "validity"


# --- reading the case files -------------------------------------------------------------

def _month_after(year: int, month: int) -> datetime:
    return datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)


def interval(text: str) -> Interval:
    """"2026" year, "2026-11" month, "2026-11-01" day, else an ISO datetime's second."""
    if re.fullmatch(r"\d{4}", text):
        year = int(text)
        return Interval(datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC),
                        Granularity.YEAR)
    if re.fullmatch(r"\d{4}-\d{2}", text):
        year, month = map(int, text.split("-"))
        return Interval(datetime(year, month, 1, tzinfo=UTC), _month_after(year, month),
                        Granularity.MONTH)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        start = datetime.fromisoformat(text).replace(tzinfo=UTC)
        return Interval(start, start + timedelta(days=1), Granularity.DAY)
    start = instant(text)
    return Interval(start, start + timedelta(seconds=1), Granularity.SECOND)


def instant(text: str) -> datetime:
    """A date is its midnight UTC; a datetime must carry its offset."""
    moment = datetime.fromisoformat(text)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return moment.replace(tzinfo=UTC)
    assert moment.tzinfo is not None, f"as_of {text!r} needs a UTC offset"
    return moment


def document(raw: dict[str, Any]) -> Document:
    fields: dict[str, Any] = {"id": raw["id"], "text": raw.get("text", raw["id"])}
    for key, value in raw.items():
        if key in INTERVAL_FIELDS:
            fields[key] = interval(str(value))
        elif key == "ingested_at":
            fields[key] = instant(str(value))
        elif key == "status":
            fields[key] = Status(value)
        elif key in ("supersedes", "derived_from"):
            fields[key] = tuple(value)
        elif key not in fields:
            fields[key] = value
    return Document(**fields)


def load_cases() -> list[tuple[str, list[Document], list[dict[str, Any]]]]:
    cases = []
    for path in sorted(CASES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        cases.append((path.stem, [document(d) for d in data["documents"]], data["checks"]))
    return cases


def expected(raw: dict[str, Any]) -> Validity:
    return Validity(
        applicable=raw["applicable"], flags=tuple(raw["flags"]),
        upcoming=raw.get("upcoming", False),
        superseded_by=tuple(raw.get("superseded_by", ())), origin=raw.get("origin"),
    )


GOLDEN = load_cases()


def test_golden_cases_exist() -> None:
    names = {name for name, _, _ in GOLDEN}
    assert {"policy_replacement", "not_yet_effective", "typo_fix", "undated", "expiry",
            "chain", "drafts_and_retired", "links"} <= names


@pytest.mark.parametrize(("name", "docs", "checks"), GOLDEN, ids=[c[0] for c in GOLDEN])
def test_golden(name: str, docs: list[Document], checks: list[dict[str, Any]]) -> None:
    index = ValidityIndex.build(docs)
    for check in checks:
        as_of = instant(str(check["as_of"]))
        assert set(check["expect"]) == {d.id for d in docs}, f"{name}: list every document"
        for doc_id, raw in check["expect"].items():
            got = index.judge(doc_id, as_of=as_of)
            assert got == expected(raw), f"{name} @ {check['as_of']}: {doc_id}"
            if "until" in raw:
                until = None if raw["until"] is None else instant(str(raw["until"]))
                assert index.until(doc_id) == until, f"{name}: {doc_id} until"


def test_typo_fix_changes_nothing() -> None:
    cases = {name: (docs, checks) for name, docs, checks in GOLDEN}
    base_docs, checks = cases["policy_replacement"]
    fixed_docs, _ = cases["typo_fix"]
    base, fixed = ValidityIndex.build(base_docs), ValidityIndex.build(fixed_docs)
    for check in checks:
        as_of = instant(str(check["as_of"]))
        for doc in base_docs:
            assert base.judge(doc.id, as_of=as_of) == fixed.judge(doc.id, as_of=as_of)


# --- unit tests -------------------------------------------------------------------------

def test_naive_as_of_is_rejected() -> None:
    index = ValidityIndex.build([Document(id="a", text="a")])
    with pytest.raises(ValueError, match="timezone-aware"):
        index.judge("a", as_of=datetime(2026, 1, 1))


def test_unknown_document_raises_key_error() -> None:
    index = ValidityIndex.build([])
    with pytest.raises(KeyError, match="rebuild"):
        index.judge("nope", as_of=datetime(2026, 1, 1, tzinfo=UTC))


def test_cycle_components_finds_cycles_and_self_loops() -> None:
    cycles = cycle_components({"a": ["b"], "b": ["c"], "c": ["a", "d"], "e": ["e"],
                               "f": ["a"], "g": [], "h": ["i"], "i": ["h"]})
    assert cycles == {"a": "a", "b": "a", "c": "a", "e": "e", "h": "h", "i": "h"}


def test_long_chain_does_not_recurse() -> None:
    n = 5000
    docs = [Document(id=f"d{i}", text="", published_at=interval("2024-01-01"),
                     derived_from=(f"d{i - 1}",) if i else ()) for i in range(n)]
    docs[0] = dataclasses.replace(docs[0], status=Status.RETIRED)
    index = ValidityIndex.build(docs)
    last = index.judge(f"d{n - 1}", as_of=datetime(2025, 1, 1, tzinfo=UTC))
    assert last.origin == "d0"
    assert last.flags == ("retired", "derived_copy")


def chunk_hit(doc_id: str, score: float, **kwargs: Any) -> Hit:
    """A hit as the temporal stage hands it on: validity compares its ``combined`` score."""
    chunk = Chunk(id=f"{doc_id}#0", doc_id=doc_id, index=0, start=0, end=1, text=doc_id)
    scores = {"combined": score, **kwargs.pop("scores", {})}
    return Hit(chunk=chunk, score=score, scores=scores, **kwargs)


AS_OF = datetime(2026, 11, 5, tzinfo=UTC)


def _policy_docs() -> dict[str, Document]:
    _, docs, _ = next(c for c in GOLDEN if c[0] == "policy_replacement")
    return {d.id: d for d in docs}


def test_apply_validity_pushes_down_and_reports_upcoming() -> None:
    docs = _policy_docs()
    index = ValidityIndex.build(docs.values())
    hits = [chunk_hit("faq-v1", 0.9), chunk_hit("policy-v1", 0.8), chunk_hit("policy-v2", 0.5)]
    evidence, upcoming = apply_validity(hits, documents=docs, index=index, as_of=AS_OF)
    assert [h.chunk.doc_id for h in evidence] == ["policy-v2", "faq-v1", "policy-v1"]
    assert [h.applicable for h in evidence] == [True, False, False]
    assert evidence[1].flags == ("superseded", "derived_copy")
    assert upcoming == []
    before = datetime(2026, 10, 15, tzinfo=UTC)
    evidence, upcoming = apply_validity(hits, documents=docs, index=index, as_of=before)
    assert [h.chunk.doc_id for h in evidence] == ["faq-v1", "policy-v1", "policy-v2"]
    assert [h.chunk.doc_id for h in upcoming] == ["policy-v2"]
    assert upcoming[0] is evidence[2] and upcoming[0].flags == ("not_yet_valid",)


def test_apply_validity_keeps_earlier_exclusions_and_flags() -> None:
    docs = _policy_docs()
    index = ValidityIndex.build(docs.values())
    hidden = chunk_hit("policy-v2", 0.9, applicable=False, flags=("private",))
    evidence, upcoming = apply_validity([hidden, chunk_hit("policy-v1", 0.1)], documents=docs,
                                        index=index, as_of=datetime(2026, 10, 1, tzinfo=UTC))
    assert [h.chunk.doc_id for h in evidence] == ["policy-v1", "policy-v2"]
    assert evidence[1].flags == ("private", "not_yet_valid")
    assert upcoming == []


def test_authority_breaks_near_ties_only() -> None:
    docs = {d.id: d for d in [
        Document(id="forum", text="", source_type="forum"),
        Document(id="wiki", text="", source_type="wiki"),
        Document(id="policy", text="", source_type="Policy"),
    ]}
    index = ValidityIndex.build(docs.values())
    hits = [chunk_hit("forum", 0.800), chunk_hit("wiki", 0.795), chunk_hit("policy", 0.70)]
    evidence, _ = apply_validity(hits, documents=docs, index=index, as_of=AS_OF)
    assert [h.chunk.doc_id for h in evidence] == ["wiki", "forum", "policy"]
    evidence, _ = apply_validity(hits, documents=docs, index=index, as_of=AS_OF, epsilon=0.2)
    assert [h.chunk.doc_id for h in evidence] == ["policy", "wiki", "forum"]
    evidence, _ = apply_validity(hits, documents=docs, index=index, as_of=AS_OF, epsilon=0.0)
    assert [h.chunk.doc_id for h in evidence] == ["forum", "wiki", "policy"]
    flat = AuthorityPrior(weights={}, unknown=1.0)
    evidence, _ = apply_validity(hits, documents=docs, index=index, as_of=AS_OF, epsilon=0.2,
                                 authority=flat)
    assert [h.chunk.doc_id for h in evidence] == ["forum", "wiki", "policy"]


def test_authority_never_moves_a_hit_across_time_tiers() -> None:
    """The temporal stage orders by tier first; a near-equal score in a lower tier (here a
    policy that violates the asked time) stays below a forum post that satisfies it."""
    docs = {d.id: d for d in [Document(id="forum", text="", source_type="forum"),
                              Document(id="policy", text="", source_type="policy")]}
    index = ValidityIndex.build(docs.values())
    satisfies = chunk_hit("forum", 0.50, scores={"time_tier": 2.0})
    violates = chunk_hit("policy", 0.505, scores={"time_tier": 0.0})
    evidence, _ = apply_validity([satisfies, violates], documents=docs, index=index,
                                 as_of=AS_OF)
    assert [h.chunk.doc_id for h in evidence] == ["forum", "policy"]
    # Same tier, other first/last moment: the temporal order holds too.
    earlier = chunk_hit("forum", 0.50, scores={"time_tier": 2.0, "time_order": 2.0})
    later = chunk_hit("policy", 0.505, scores={"time_tier": 2.0, "time_order": 1.0})
    evidence, _ = apply_validity([earlier, later], documents=docs, index=index, as_of=AS_OF)
    assert [h.chunk.doc_id for h in evidence] == ["forum", "policy"]
    # One group: authority breaks the near-tie as before.
    same = [chunk_hit("forum", 0.50, scores={"time_tier": 2.0}),
            chunk_hit("policy", 0.495, scores={"time_tier": 2.0})]
    evidence, _ = apply_validity(same, documents=docs, index=index, as_of=AS_OF)
    assert [h.chunk.doc_id for h in evidence] == ["policy", "forum"]


def test_newer_version_of_same_lineage_first_on_ties() -> None:
    # v2 supersedes v1 but has no valid_from: it supersedes from its published_at; before
    # that both apply and, tied, the newer version goes first.
    docs = {d.id: d for d in [
        Document(id="v1", text="", source_type="policy", published_at=interval("2024-01-01")),
        Document(id="other", text="", source_type="policy",
                 published_at=interval("2020-01-01")),
        Document(id="v2", text="", source_type="policy", published_at=interval("2025-01-01"),
                 supersedes=("v1",)),
    ]}
    index = ValidityIndex.build(docs.values())
    hits = [chunk_hit("v1", 0.5), chunk_hit("other", 0.5), chunk_hit("v2", 0.5)]
    as_of = datetime(2025, 6, 1, tzinfo=UTC)
    evidence, _ = apply_validity(hits, documents=docs, index=index, as_of=as_of)
    assert [h.chunk.doc_id for h in evidence] == ["other", "v2", "v1"]
    assert not evidence[2].applicable
    as_of = datetime(2024, 6, 1, tzinfo=UTC)   # v2 supersedes from its publication only
    evidence, _ = apply_validity(hits, documents=docs, index=index, as_of=as_of)
    assert [h.chunk.doc_id for h in evidence] == ["v2", "other", "v1"]
    assert all(h.applicable for h in evidence)


# --- property tests ---------------------------------------------------------------------

IDS = [f"d{i}" for i in range(6)]
BASE = datetime(2024, 1, 1, tzinfo=UTC)
GRID = [BASE + timedelta(days=15 * i) for i in range(-4, 80)]


def _month(offset: int) -> Interval:
    year, month = divmod(offset, 12)
    return interval(f"{2024 + year}-{month + 1:02d}")


@st.composite
def doc_sets(draw: st.DrawFn) -> list[Document]:
    docs = []
    for doc_id in IDS:
        start = draw(st.none() | st.integers(0, 36))
        length = draw(st.none() | st.integers(1, 24))
        docs.append(Document(
            id=doc_id, text=doc_id,
            status=draw(st.sampled_from([None, *Status])),
            valid_from=None if start is None else _month(start),
            valid_to=None if start is None or length is None else _month(start + length),
            published_at=draw(st.none() | st.integers(0, 36).map(_month)),
            modified_at=draw(st.none() | st.integers(0, 36).map(_month)),
            supersedes=tuple(draw(st.lists(st.sampled_from([*IDS, "ghost"]), max_size=2))),
            derived_from=tuple(draw(st.lists(st.sampled_from([*IDS, "ghost"]), max_size=2))),
        ))
    return docs


def verdicts(docs: Iterable[Document], ids: Iterable[str] = IDS) -> dict[tuple[str, int], Validity]:
    index = ValidityIndex.build(docs)
    return {(d, i): index.judge(d, as_of=t) for d in ids for i, t in enumerate(GRID)}


# More examples for a deeper run: CHRONORAG_PROPERTY_EXAMPLES=2000 pytest tests/rank
FAST = settings(max_examples=int(os.environ.get("CHRONORAG_PROPERTY_EXAMPLES", "60")),
                deadline=None)


@FAST
@given(doc_sets())
def test_flags_are_canonical_and_decide_applicability(docs: list[Document]) -> None:
    for verdict in verdicts(docs).values():
        assert list(verdict.flags) == sorted(set(verdict.flags), key=FLAG_ORDER.index)
        assert verdict.applicable == (not BLOCKING.intersection(verdict.flags))
        if verdict.upcoming:
            assert not verdict.applicable and "not_yet_valid" in verdict.flags
        assert bool(verdict.superseded_by) <= ("superseded" in verdict.flags)


@FAST
@given(doc_sets())
def test_applicable_times_form_one_run(docs: list[Document]) -> None:
    """Once applicable, a document stays so until superseded or expired, never returns."""
    got = verdicts(docs)
    for doc_id in IDS:
        pattern = "".join("1" if got[doc_id, i].applicable else "0" for i in range(len(GRID)))
        assert re.fullmatch(r"0*1*0*", pattern), (doc_id, pattern)


@FAST
@given(doc_sets(), st.data())
def test_adding_a_draft_changes_nothing_else(docs: list[Document], data: st.DataObject) -> None:
    draft = Document(
        id="new-draft", text="", status=Status.DRAFT,
        valid_from=data.draw(st.none() | st.integers(-6, 40).map(_month)),
        supersedes=tuple(data.draw(st.lists(st.sampled_from(IDS), max_size=3))),
        derived_from=tuple(data.draw(st.lists(st.sampled_from(IDS), max_size=2))),
    )
    assert verdicts([*docs, draft]) == verdicts(docs)


@FAST
@given(doc_sets(), st.randoms(use_true_random=False))
def test_edit_and_ingest_times_and_order_change_nothing(docs: list[Document],
                                                        rnd: random.Random) -> None:
    edited = [dataclasses.replace(
        d, modified_at=_month(rnd.randint(-12, 60)),
        ingested_at=BASE + timedelta(days=rnd.randint(-400, 4000))) for d in docs]
    rnd.shuffle(edited)
    assert verdicts(edited) == verdicts(docs)


@FAST
@given(doc_sets())
def test_copies_share_the_fate_of_their_origins(docs: list[Document]) -> None:
    got = verdicts(docs)
    by_id = {d.id: d for d in docs}
    for (doc_id, i), verdict in got.items():
        if by_id[doc_id].derived_from:
            assert "derived_copy" in verdict.flags
        if "link_cycle" in verdict.flags:
            continue
        for origin in by_id[doc_id].derived_from:
            if origin in by_id and not got[origin, i].applicable:
                assert not verdict.applicable
