"""Review: undated documents, stale copies and similar unlinked documents of two owners."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chronorag import cli
from chronorag.engine import Engine
from chronorag.review import ReviewReport, review

# Every test reviews a store ingested with the default embedder (e5-small).
pytestmark = pytest.mark.slow

NOW = datetime(2026, 11, 5, 12, tzinfo=UTC)
DOCS = [
    {"id": "policy-v1", "source_type": "policy", "status": "approved", "owner": "care",
     "valid_from": "2024-01-01", "text": "Customers may return any unused item within 45 days."},
    {"id": "policy-v2", "source_type": "policy", "status": "approved", "owner": "care",
     "valid_from": "2026-11-01", "supersedes": ["policy-v1"],
     "text": "Customers may return any unused item within 30 days."},
    {"id": "faq", "source_type": "faq", "status": "approved", "owner": "support",
     "published_at": "2024-02-01", "derived_from": ["policy-v1"],
     "text": "You have 45 days to return an unused item."},
    {"id": "giftcards", "source_type": "policy", "status": "approved", "owner": "payments",
     "text": "Gift cards expire 3 years after the date of purchase."},
    {"id": "warranty-a", "source_type": "policy", "status": "approved", "owner": "legal",
     "valid_from": "2025-01-01",
     "text": "Electronics sold by us carry a warranty of 2 years from the date of delivery."},
    {"id": "warranty-b", "source_type": "policy", "status": "approved", "owner": "marketplace",
     "valid_from": "2025-01-01",
     "text": "Electronics sold on the marketplace carry a warranty of 1 year from the date "
             "of delivery."},
]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("review")
    corpus = folder / "docs.jsonl"
    corpus.write_text("\n".join(json.dumps(d) for d in DOCS) + "\n", encoding="utf-8")
    with Engine(folder / "kb.db") as engine:
        engine.ingest([corpus], now=NOW)
    return folder / "kb.db"


@pytest.fixture(scope="module")
def report(db: Path) -> ReviewReport:
    with Engine(db) as engine:
        return review(engine.store, as_of=NOW, threshold=0.8)


def test_undated(report: ReviewReport) -> None:
    assert [i.doc_ids for i in report.undated] == [("giftcards",)]


def test_copy_of_superseded_origin(report: ReviewReport) -> None:
    (item,) = report.stale_copies
    assert item.doc_ids == ("faq", "policy-v1")
    assert "superseded by policy-v2" in item.reason


def test_similar_documents_of_two_owners(report: ReviewReport) -> None:
    pairs = {i.doc_ids: i for i in report.similar_pairs}
    assert ("warranty-a", "warranty-b") in pairs
    assert pairs[("warranty-a", "warranty-b")].owners == ("legal", "marketplace")
    # Versions of one lineage and copies are linked: never reported as unlinked.
    assert all("policy-v1" not in p and "faq" not in p for p in pairs)


def test_threshold_and_as_of(db: Path) -> None:
    with Engine(db) as engine:
        strict = review(engine.store, as_of=NOW, threshold=0.999)
        before = review(engine.store, as_of=datetime(2026, 10, 1, tzinfo=UTC), threshold=0.999)
        with pytest.raises(ValueError, match="timezone-aware"):
            review(engine.store, as_of=datetime(2026, 10, 1), threshold=0.9)
    assert strict.similar_pairs == ()
    assert before.stale_copies == ()  # policy-v1 still applies: its FAQ is fine


def test_cli_review(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["review", "--db", str(db), "--as-of", "2026-11-05",
                     "--threshold", "0.8", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["as_of"] == "2026-11-05T00:00:00+00:00"
    assert [i["doc_ids"] for i in got["stale_copies"]] == [["faq", "policy-v1"]]
    assert cli.main(["review", "--db", str(db), "--as-of", "2026-11-05"]) == 0
    text = capsys.readouterr().out
    assert "Undated documents: 1" in text and "giftcards" in text
