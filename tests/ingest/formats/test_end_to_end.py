"""A folder with one file of each format, ingested into a SQLite store: every chunk is
plain text, the evidence names its section, and a second ingest changes nothing. The
hashed test embedder stands in for the models."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chronorag.engine import Engine
from chronorag.ingest.formats import LAYOUT_KEY

from ...conftest import NO_MODEL_RULES
from .build import make_docx, make_pdf

pytest.importorskip("selectolax")
pytest.importorskip("pypdf")

NOW = datetime(2026, 3, 1, tzinfo=UTC)
CASES = Path(__file__).parents[2] / "cases" / "formats"
MARKUP = re.compile(r"^#|^\s*[-*+] |\*\*|\]\(|<[a-z!/]|\||```|&amp;", re.M)


@pytest.fixture
def engine(tmp_path: Path, test_embedders: tuple[str, ...]) -> Iterator[Engine]:
    folder = tmp_path / "kb"
    folder.mkdir()
    (folder / "returns.md").write_text(
        "---\nvalid_from: 2024-02-01\nstatus: approved\n---\n"
        + (CASES / "returns.md").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "privacy.html").write_bytes((CASES / "privacy.html").read_bytes())
    (folder / "refunds.pdf").write_bytes(make_pdf(
        [["# Refund policy", "Refunds reach the original card within fourteen days."]]))
    (folder / "leave.docx").write_bytes(make_docx(title="Leave"))
    (folder / "notes.txt").write_text("Office closes at 18:00 on Fridays.\n", encoding="utf-8")
    with Engine(tmp_path / "kb.db", config=NO_MODEL_RULES, embedder="test-hash", judges=(),
                tz=UTC) as opened:
        report = opened.ingest([folder], now=NOW, root=folder)
        assert sorted(report.added) == ["leave", "notes", "privacy", "refunds", "returns"]
        yield opened


def test_chunks_hold_no_markup(engine: Engine) -> None:
    chunks = engine.store.chunks()
    assert {c.doc_id for c in chunks} == {"leave", "notes", "privacy", "refunds", "returns"}
    for chunk in chunks:
        assert MARKUP.search(chunk.text) is None, chunk.text
    documents = {d.id: d for d in engine.store.documents()}
    assert documents["privacy"].title == "Privacy Statement – Example Corp"
    assert documents["returns"].title == "Return policy"
    assert LAYOUT_KEY not in documents["notes"].metadata
    assert documents["refunds"].metadata[LAYOUT_KEY]["pages"] == [0]


def test_each_table_row_is_a_sentence_of_its_own(engine: Engine) -> None:
    [fees] = [s.text for c in engine.store.chunks() for s in c.sentences
              if c.doc_id == "returns" and s.text.startswith("Plan: Pro")]
    assert fees == "Plan: Pro; Restocking fee: none"


@pytest.mark.parametrize(("question", "doc_id", "section"), [
    ("How long are backups kept before they are deleted?", "privacy",
     ["Privacy Statement", "Retention", "Backups"]),
    ("What is the restocking fee of the Pro plan?", "returns", ["Return policy", "Fees"]),
    ("How many days are carried over after 6 years?", "leave", ["Leave policy", "Carry-over"]),
])
def test_evidence_names_its_section(engine: Engine, question: str, doc_id: str,
                                    section: list[str]) -> None:
    evidence = engine.ask(question, now=NOW, k=5).to_json()["evidence"]
    best = next(e for e in evidence if e["doc_id"] == doc_id)
    assert best["section"] == section


def test_documents_without_headings_have_no_section(engine: Engine) -> None:
    evidence = engine.ask("When does the office close on Fridays?", now=NOW, k=5).to_json()
    notes = next(e for e in evidence["evidence"] if e["doc_id"] == "notes")
    assert "section" not in notes


def test_reingesting_the_folder_is_a_no_op(engine: Engine, tmp_path: Path) -> None:
    report = engine.ingest([tmp_path / "kb"], now=NOW, root=tmp_path / "kb")
    assert (report.added, report.replaced, len(report.unchanged)) == ((), (), 5)
