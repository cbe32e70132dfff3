"""Format readers compared: chronorag's chosen reader against the candidates per format.

Generates realistic documents in memory (a Markdown policy with front-matter-free body,
headings, lists, a table, links and comments; an HTML page with navigation, header,
footer and script around its <main>; a multi-page PDF made with fpdf2; a DOCX made with
python-docx), reads each with every installed candidate and prints one table: ms per
document, its ratio to the chosen reader measured in the same process, and what the text
keeps: headings on lines of their own, table cells with their column names (or at least
the cell values), navigation dropped, offsets back into the source.

    python benchmarks/formats.py [--sections 40] [--repeat 5]

Candidates that are not installed are listed as such (``pip install -e '.[formats-bench]'``).
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable
from dataclasses import dataclass

from chronorag.ingest.formats import reader_for

NAV = "Pricing Blog Careers"


@dataclass(frozen=True)
class Doc:
    format: str
    data: bytes
    headings: tuple[str, ...]
    cell: str      # a body cell whose row must keep its column name
    column: str
    nav: str | None


def _sections(n: int) -> tuple[str, ...]:
    return tuple(f"Section {i}: Accounts and payment" for i in range(n))


def markdown_doc(sections: int) -> Doc:
    parts = ["<!-- owner: legal -->", "# Terms of Service", ""]
    for i in range(sections):
        parts += [f"## Section {i}: Accounts and payment", "",
                  f"You **must** keep your password safe. See [the help page](https://x.test/{i})"
                  " for details, and read *every* clause. Fees are billed monthly.", "",
                  "- Refunds within 10-14 days", "- No refunds for gift cards", "",
                  "| Plan | Price |", "|---|---|", f"| Pro{i} | ${i}0 |", "| Team | $20 |", ""]
    headings = ("Terms of Service", *_sections(sections))
    return Doc("md", "\n".join(parts).encode(), headings, "Pro0", "Plan", None)


def html_doc(sections: int) -> Doc:
    body = []
    for i in range(sections):
        body.append(f"<section><h2>Section {i}: Accounts and payment</h2><p>You <b>must</b> "
                    f"keep your password safe. See <a href='/h/{i}'>the help page</a> for "
                    "details.</p><ul><li>Refunds within 10-14 days</li><li>No refunds for "
                    "gift cards</li></ul><table><tr><th>Plan</th><th>Price</th></tr>"
                    f"<tr><td>Pro{i}</td><td>${i}0</td></tr></table></section>")
    page = ("<!DOCTYPE html><html><head><title>Terms</title><script>var x = 1;</script>"
            f"</head><body><header><nav>{NAV}</nav></header><main><h1>Terms of Service</h1>"
            + "".join(body) + "</main><footer>© Example</footer></body></html>")
    headings = ("Terms of Service", *_sections(sections))
    return Doc("html", page.encode(), headings, "Pro0", "Plan", NAV)


def pdf_doc(sections: int) -> Doc:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    for i in range(sections):
        pdf.set_font("helvetica", "B", 14)
        pdf.multi_cell(0, 7, f"Section {i}: Accounts and payment", new_x="LMARGIN",
                       new_y="NEXT")
        pdf.set_font("helvetica", "", 11)
        pdf.multi_cell(0, 6, "You must keep your password safe. See the help page for details "
                       "and read every clause of these terms carefully before you sign. "
                       "Fees are billed monthly.", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
    headings = _sections(sections)
    return Doc("pdf", bytes(pdf.output()), headings, "", "", None)


def docx_doc(sections: int) -> Doc:
    import docx

    document = docx.Document()
    document.add_heading("Terms of Service", level=1)
    for i in range(sections):
        document.add_heading(f"Section {i}: Accounts and payment", level=2)
        document.add_paragraph("You must keep your password safe. Fees are billed monthly.")
        document.add_paragraph("Refunds within 10-14 days", style="List Bullet")
        table = document.add_table(rows=2, cols=2)
        for r, row in enumerate([("Plan", "Price"), (f"Pro{i}", f"${i}0")]):
            for c, text in enumerate(row):
                table.cell(r, c).text = text
    buffer = io.BytesIO()
    document.save(buffer)
    headings = ("Terms of Service", *_sections(sections))
    return Doc("docx", buffer.getvalue(), headings, "Pro0", "Plan", None)


def _ours(fmt: str) -> Callable[[bytes], tuple[str, bool]]:
    reader = reader_for(f"x.{fmt}")
    assert reader is not None
    return lambda data: (reader.read(data, name=f"x.{fmt}").text, True)


def _mistune(data: bytes) -> tuple[str, bool]:
    import mistune

    out: list[str] = []

    def walk(nodes: list[dict]) -> None:  # type: ignore[type-arg]
        for node in nodes:
            if "raw" in node and node["type"] in ("text", "codespan", "block_code"):
                out.append(node["raw"])
            walk(node.get("children") or [])
            if node["type"] in ("heading", "paragraph", "table_row", "list_item"):
                out.append("\n")

    walk(mistune.create_markdown(renderer="ast", plugins=["table"])(data.decode()))  # type: ignore[arg-type]
    return "".join(out), False


def _trafilatura(data: bytes) -> tuple[str, bool]:
    import trafilatura

    return trafilatura.extract(data.decode(), include_tables=True, favor_recall=True) or "", False


def _inscriptis(data: bytes) -> tuple[str, bool]:
    import inscriptis

    return inscriptis.get_text(data.decode()), False


def _html_text(data: bytes) -> tuple[str, bool]:
    import html_text

    return html_text.extract_text(data.decode()), False


def _lxml(data: bytes) -> tuple[str, bool]:
    import lxml.html

    return lxml.html.fromstring(data).text_content(), False


def _pdfminer(data: bytes) -> tuple[str, bool]:
    from pdfminer.high_level import extract_text

    return extract_text(io.BytesIO(data)), False


def _pypdfium2(data: bytes) -> tuple[str, bool]:
    import pypdfium2

    pdf = pypdfium2.PdfDocument(data)
    return "\n\f".join(page.get_textpage().get_text_range() for page in pdf), False


def _docx2python(data: bytes) -> tuple[str, bool]:
    from docx2python import docx2python

    with docx2python(io.BytesIO(data)) as content:
        return content.text, False


def _mammoth(data: bytes) -> tuple[str, bool]:
    import mammoth

    return mammoth.extract_raw_text(io.BytesIO(data)).value, False


CANDIDATES: dict[str, list[tuple[str, Callable[[bytes], tuple[str, bool]]]]] = {
    "md": [("markdown-it-py (chosen)", _ours("md")), ("mistune", _mistune)],
    "html": [("selectolax (chosen)", _ours("html")), ("trafilatura", _trafilatura),
             ("inscriptis", _inscriptis), ("html-text", _html_text), ("lxml", _lxml)],
    "pdf": [("pypdf (chosen)", _ours("pdf")), ("pdfminer.six", _pdfminer),
            ("pypdfium2", _pypdfium2)],
    "docx": [("python-docx (chosen)", _ours("docx")), ("docx2python", _docx2python),
             ("mammoth", _mammoth)],
}


def _checks(doc: Doc, text: str) -> tuple[str, str, str]:
    lines = {line.strip() for line in text.splitlines()}
    kept = sum(h in lines for h in doc.headings)
    headings = f"{kept}/{len(doc.headings)}"
    if not doc.cell:
        table = "-"
    elif f"{doc.column}: {doc.cell}" in text:
        table = "with names"
    else:
        table = "values only" if doc.cell in text else "lost"
    nav = "-" if doc.nav is None else ("dropped" if doc.nav.split()[0] not in text else "kept")
    return headings, table, nav


def _time(read: Callable[[bytes], tuple[str, bool]], data: bytes, repeat: int) -> float:
    read(data)  # imports and caches outside the measurement
    start = time.perf_counter()
    for _ in range(repeat):
        read(data)
    return (time.perf_counter() - start) / repeat * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    docs = [markdown_doc(args.sections), html_doc(args.sections), pdf_doc(args.sections),
            docx_doc(args.sections)]
    print("| format | reader | ms/doc | × chosen | headings on own line | table rows | "
          "nav dropped | offsets |")
    print("|---|---|---:|---:|---|---|---|---|")
    for doc in docs:
        chosen_ms = None
        for name, read in CANDIDATES[doc.format]:
            try:
                text, mapped = read(doc.data)
            except ImportError as exc:
                print(f"| {doc.format} | {name} | not installed ({exc.name}) | | | | | |")
                continue
            ms = _time(read, doc.data, args.repeat)
            chosen_ms = ms if chosen_ms is None else chosen_ms
            headings, table, nav = _checks(doc, text)
            print(f"| {doc.format} ({len(doc.data) // 1024} KB) | {name} | {ms:.1f} | "
                  f"{ms / chosen_ms:.2f} | {headings} | {table} | {nav} | "
                  f"{'source map' if mapped else 'none'} |")


if __name__ == "__main__":
    main()
