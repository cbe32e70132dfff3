"""Versions found by name and text overlap on a corpus of one company's policies: versions
with edits and a rewrite, policies sharing boilerplate, related names, an exact duplicate."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.ingest import load_paths
from chronorag.ingest.stated import PROPOSED, propose
from chronorag.ingest.versions import overlap, shingles, version_chains, version_pairs
from chronorag.model import Document, Interval

CORPUS = Path(__file__).parent / "data" / "versions"
TRUTH = json.loads((CORPUS / "truth.json").read_text(encoding="utf-8"))


def _documents() -> dict[str, Document]:
    docs = [d for f in load_paths([CORPUS], root=CORPUS) for d in f.documents]
    return {d.id: d for d in docs}


def _gold() -> set[tuple[str, str]]:
    return {tuple(sorted(p)) for group in (*TRUTH["chains"], *TRUTH["duplicates"])
            for p in combinations(group, 2)}


def test_every_true_pair_and_at_most_one_false_pair_in_ten() -> None:
    docs = _documents()
    found = {(p.a, p.b) for p in version_pairs(list(docs.values()))}
    gold = _gold()
    assert gold <= found
    assert len(found - gold) * 10 <= len(found)


def test_the_duplicate_is_told_apart_and_chains_are_ordered_by_stated_dates() -> None:
    docs = _documents()
    pairs = version_pairs(list(docs.values()))
    assert [(p.a, p.b) for p in pairs if p.duplicate] == [tuple(TRUTH["duplicates"][0])]
    chains = [list(c.doc_ids) for c in version_chains(docs, pairs)]
    # The corpus states its dates only in the text: the order comes from the proposals.
    assert sorted(chains) == sorted(TRUTH["chains"])


def test_chains_order_by_valid_from_else_the_date_the_text_states() -> None:
    day = Interval(datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 1, 2, tzinfo=UTC))
    text = "Customers may return unused items within thirty days of delivery for a refund."
    stated = "Effective date: 1 May 2024\n" + text
    older = Document(id="z/policy", title="Policy", text=stated,
                     metadata={PROPOSED: [p.to_json() for p in propose(stated)]})
    newer = Document(id="b/policy", title="Policy", text=text, valid_from=day)
    pairs = version_pairs([newer, older])
    (chain,) = version_chains({"z/policy": older, "b/policy": newer}, pairs)
    assert chain.doc_ids == ("z/policy", "b/policy")
    assert chain.dates == (datetime(2024, 5, 1, tzinfo=UTC), day.start)


@settings(deadline=None)
@given(a=st.text(max_size=200), b=st.text(max_size=200))
def test_overlap_is_a_share_on_any_text(a: str, b: str) -> None:
    score = overlap(shingles(a), shingles(b))
    assert 0.0 <= score <= 1.0
    assert overlap(shingles(a), shingles(a)) == (1.0 if shingles(a) else 0.0)


def test_a_name_resolves_only_to_one_other_document() -> None:
    from chronorag.ingest.adopt import Titles

    titles = Titles.of([("legal/terms-2017", "Terms of Service"), ("legal/terms", "Terms"),
                        ("a/faq", "FAQ"), ("b/faq", "FAQ")])
    assert titles.resolve("the Terms of Service", besides="legal/terms") == "legal/terms-2017"
    assert titles.resolve("terms-2017", besides="x") == "legal/terms-2017"
    assert titles.resolve("FAQ", besides="x") is None  # two documents have that title
    assert titles.resolve("FAQ", besides="a/faq") == "b/faq"
    assert titles.resolve("Privacy", besides="x") is None


def test_one_file_name_in_one_folder_is_one_document_however_rewritten() -> None:
    old = Document(id="policies/candidate-privacy--2021", title="Candidate Privacy Policy",
                   text="We keep applications for two years. Write to jobs@example.com.")
    new = Document(id="policies/candidate-privacy--2025-12",
                   title="Global Data Privacy Notice for Candidates",
                   text="This notice explains which personal data recruiting collects.")
    translated = Document(id="policies/zh/candidate-privacy--2025-12", title="候选人隐私声明",
                          text="本声明说明招聘收集哪些个人数据。")
    other = Document(id="policies/employee-privacy--2025", title="Employee Privacy",
                     text="This notice explains which personal data payroll collects.")
    found = {(p.a, p.b) for p in version_pairs([old, new, translated, other])}
    assert found == {("policies/candidate-privacy--2021", "policies/candidate-privacy--2025-12")}
