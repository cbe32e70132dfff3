"""PDF and DOCX files made in the tests (fpdf2, python-docx): nothing is downloaded."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest


def make_pdf(pages: Sequence[Sequence[str]], *, title: str | None = None) -> bytes:
    """A PDF with a text layer: one page per item, each string a paragraph (a string
    starting with "# " is a heading: bold, larger, on a line of its own)."""
    fpdf = pytest.importorskip("fpdf")
    pdf = fpdf.FPDF()
    if title:
        pdf.set_title(title)
    for paragraphs in pages:
        pdf.add_page()
        for paragraph in paragraphs:
            heading = paragraph.startswith("# ")
            pdf.set_font("helvetica", "B" if heading else "", 16 if heading else 11)
            pdf.multi_cell(0, 6, paragraph.removeprefix("# "), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
    return bytes(pdf.output())


def make_scanned_pdf() -> bytes:
    """A PDF whose page holds only drawn shapes: what a scan without OCR looks like."""
    fpdf = pytest.importorskip("fpdf")
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 60, style="F")
    return bytes(pdf.output())


def make_docx(*, title: str | None = None) -> bytes:
    """A DOCX with headings, a paragraph, a bulleted list and a table with a header row."""
    docx = pytest.importorskip("docx")
    document = docx.Document()
    if title is not None:
        document.core_properties.title = title
    document.add_heading("Leave policy", level=1)
    document.add_paragraph("Employees get 25 days of paid leave a year.")
    document.add_heading("Sick leave", level=2)
    document.add_paragraph("Tell your manager before 10:00.", style="List Bullet")
    document.add_paragraph("Bring a note after 3 days.", style="List Bullet")
    document.add_heading("Carry-over", level=2)
    table = document.add_table(rows=3, cols=2)
    for row, cells in enumerate([("Years", "Days carried"), ("0-5", "5"), ("6+", "10")]):
        for column, text in enumerate(cells):
            table.cell(row, column).text = text
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
