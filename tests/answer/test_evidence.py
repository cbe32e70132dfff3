"""Evidence items: the best sentence is never a heading."""

from __future__ import annotations

from chronorag.answer.evidence import to_evidence
from chronorag.answer.headings import ONLY_HEADINGS
from chronorag.ingest import chunk_document
from chronorag.model import Document, Hit

TEXT = "# Returns\n\n## Return window\n\nCustomers may return items within 30 days.\n"


def _evidence(text: str, *, best: int | None, metadata: dict | None = None):
    doc = Document(id="d", text=text, source_type="policy", metadata=metadata or {})
    chunk = chunk_document(doc)[0]
    return to_evidence(Hit(chunk=chunk, score=1.0, best_sentence=best), doc,
                       question="What is the return window?")


def test_a_rankers_heading_gives_way_to_a_sentence() -> None:
    item = _evidence(TEXT, best=1)
    assert item.sentence == "Customers may return items within 30 days."
    assert ONLY_HEADINGS not in item.flags


def test_a_layout_heading_without_markup_is_skipped() -> None:
    marked = _evidence("Return window\n\nCustomers may return items within 30 days.",
                       best=0, metadata={"_layout": {"headings": [[0, 13, 2]]}})
    assert marked.sentence == "Customers may return items within 30 days."


def test_a_chunk_of_headings_only_is_flagged() -> None:
    item = _evidence("# Returns\n\n## Return window\n", best=None)
    assert ONLY_HEADINGS in item.flags
