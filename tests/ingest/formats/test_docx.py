"""DOCX files made with python-docx: heading styles, lists, tables, core title."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from chronorag.errors import MissingDependencyError, ValidationError
from chronorag.ingest import load_paths
from chronorag.ingest.formats import LAYOUT_KEY, reader_for, section_path, source_offset

from .build import make_docx

pytest.importorskip("docx")

TEXT = ("Leave policy\n\nEmployees get 25 days of paid leave a year.\n\nSick leave\n\n"
        "Tell your manager before 10:00.\nBring a note after 3 days.\n\nCarry-over\n\n"
        "Years: 0-5; Days carried: 5\nYears: 6+; Days carried: 10")


def test_headings_lists_and_table_rows(tmp_path: Path) -> None:
    path = tmp_path / "leave.docx"
    path.write_bytes(make_docx(title="Staff handbook: leave"))
    [source] = load_paths([path], root=path.parent)
    [doc] = source.documents
    assert (doc.id, doc.title, doc.text) == ("leave", "Staff handbook: leave", TEXT)
    layout = doc.metadata[LAYOUT_KEY]
    assert [doc.text[s:e] for s, e, _ in layout["headings"]] == [
        "Leave policy", "Sick leave", "Carry-over"]
    assert section_path(layout, doc.text.index("6+")) == ("Leave policy", "Carry-over")
    # Body order: heading, paragraph, heading, two items, heading, the table.
    assert [source_offset(layout, doc.text.index(p)) for p in ("Employees", "Bring", "6+")] \
        == [1, 4, 6]


def test_title_defaults_to_the_first_heading() -> None:
    extracted = reader_for("a.docx").read(make_docx(), name="a.docx")  # type: ignore[union-attr]
    assert extracted.title == "Leave policy"


def test_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "x.docx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ValidationError) as raised:
        load_paths([path], root=path.parent)
    [error] = [str(e) for e in raised.value.errors]
    assert error.startswith(f"{path}:0: docx: cannot be read as a DOCX file (")
    assert error.endswith("is it a Word 2007+ document?")


def test_missing_python_docx_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    data = make_docx()
    monkeypatch.setitem(sys.modules, "docx", None)
    with pytest.raises(MissingDependencyError, match=r"python-docx .*chronorag\[docx\]"):
        reader_for("a.docx").read(data, name="a.docx")  # type: ignore[union-attr]
