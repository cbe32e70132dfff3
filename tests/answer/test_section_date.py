"""The date a section states for itself, answering a question that names the section
(``answer.section_date`` through ``answer.own_date``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.decide import Decision
from chronorag.answer.own_date import own_date
from chronorag.answer.section_date import section_date
from chronorag.ingest.loaders import load_paths
from chronorag.model import AnswerStatus, Document, Evidence, Granularity, Interval, Status

NOTICE = """# Privacy Notice for Candidates

Last Updated: December 2025

We process the personal data of candidates as described here.

## Addenda

### California Addendum

Last updated: June 2025

California residents have specific rights regarding their personal information.

### Canada Addendum

Last updated: October 2023

The following additional provisions apply to candidates in Canada.

### Retention

We keep candidate data for one year.
"""
EDITED = Interval(datetime(2025, 12, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC),
                  Granularity.MONTH)


def _document(tmp_path: Path) -> Document:
    path = tmp_path / "notice.md"
    path.write_text(NOTICE, encoding="utf-8")
    ((doc,),) = [f.documents for f in load_paths([path], tz=UTC, root=tmp_path)]
    return replace(doc, modified_at=EDITED)


def _item(doc: Document, start: int, end: int) -> Evidence:
    return Evidence(doc.id, f"{doc.id}#{start}", doc.title, doc.text[start:end], start, end,
                    "policy", Status.APPROVED, None, None, None, True, (), 0.9,
                    {"semantic": 0.9}, sentence=doc.text[start:end].strip().split("\n")[0])


def _chunks(doc: Document) -> list[Evidence]:
    # Chunks that begin at each heading, as the chunker cuts a Markdown document.
    starts = [doc.text.index(t) for t in ("Privacy Notice", "Addenda", "California Addendum",
                                          "Canada Addendum", "Retention")]
    return [_item(doc, a, b) for a, b in zip(starts, [*starts[1:], len(doc.text)],
                                               strict=True)]


@pytest.mark.parametrize(("question", "answer"), [
    ("When was the Canada addendum of the candidate privacy notice last updated?",
     "October 2023"),
    ("When was the California section last updated?", "June 2025"),
    # The notice itself: its own date.
    ("When was the privacy notice for candidates last updated?", "December 2025"),
    # A section without a date line of its own: the document's date.
    ("When was the retention section last updated?", "December 2025"),
])
def test_a_named_section_answers_with_its_own_date(tmp_path: Path, question: str,
                                                   answer: str) -> None:
    doc = _document(tmp_path)
    items = _chunks(doc)
    decision = Decision(AnswerStatus.ANSWERED, "x", (items[0],), (), ())
    got = own_date(decision, question=question, documents={doc.id: doc}, tz=UTC,
                   items=items)
    assert got is not None and got.answer == answer
    if answer != "December 2025":
        assert got.time is not None and got.time.source == "text"
        assert answer in (got.time.sentence or "")
        # The answer rests on the item that shows the section's date line.
        (deciding,) = got.deciding
        assert answer in deciding.text


def test_the_section_date_line_must_be_shown_by_an_item(tmp_path: Path) -> None:
    doc = _document(tmp_path)
    items = _chunks(doc)
    question = "When was the Canada addendum last updated?"
    without = [i for i in items if "Canada" not in i.text]
    assert section_date(question, "modified_at", document=doc, items=without, tz=UTC) is None
    found = section_date(question, "modified_at", document=doc, items=items, tz=UTC)
    assert found is not None and found.title == "Canada Addendum"
    # Another field than the line states is no answer.
    assert section_date(question, "valid_from", document=doc, items=items, tz=UTC) is None


@given(st.text(max_size=120), st.text(max_size=300))
def test_any_question_and_any_text_are_survived(question: str, text: str) -> None:
    doc = Document(id="d", text=text, title="T", metadata={"_layout": {
        "headings": [[0, min(5, len(text)), 2]], "titles": [text[:5] or "x"]}})
    item = Evidence("d", "d#0", "T", text, 0, len(text), None, None, None, None, None, True,
                    (), 0.5, {})
    found = section_date(question, "modified_at", document=doc, items=[item], tz=UTC)
    assert found is None or found.phrase in found.sentence
