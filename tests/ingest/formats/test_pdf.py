"""PDF files made with fpdf2: pages kept and mapped, a file without a text layer or a
broken one is a clear error naming the file, a missing pypdf names the extra."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from chronorag.errors import MissingDependencyError, ValidationError
from chronorag.ingest import load_paths
from chronorag.ingest.formats import LAYOUT_KEY, reader_for, source_offset
from chronorag.ingest.formats.layout import section_path

from .build import make_pdf, make_scanned_pdf

pytest.importorskip("pypdf")

PAGES = [["# Refund policy", "Refunds are paid to the original payment method within "
          "fourteen days of the return arriving at our warehouse, whatever the reason."],
         ["# Exchanges", "An exchange ships once the item is back."]]


def _errors(path: Path) -> list[str]:
    with pytest.raises(ValidationError) as raised:
        load_paths([path], root=path.parent)
    return [str(e) for e in raised.value.errors]


def test_pages_paragraphs_and_title(tmp_path: Path) -> None:
    path = tmp_path / "refunds.pdf"
    path.write_bytes(make_pdf(PAGES, title="Refunds (2024)"))
    [source] = load_paths([path], root=path.parent)
    [doc] = source.documents
    assert doc.title == "Refunds (2024)"
    paragraphs = doc.text.split("\n\n")
    assert paragraphs[0] == "Refund policy"
    assert paragraphs[1].startswith("Refunds are paid") and paragraphs[1].endswith("reason.")
    assert paragraphs[2:] == ["Exchanges", "An exchange ships once the item is back."]
    layout = doc.metadata[LAYOUT_KEY]
    assert layout["pages"] == [0, doc.text.index("Exchanges")]
    assert [source_offset(layout, doc.text.index(p)) for p in ("whatever", "An exchange")] \
        == [1, 2]


def test_title_defaults_to_the_file_name(tmp_path: Path) -> None:
    path = tmp_path / "memo.pdf"
    path.write_bytes(make_pdf([["Short memo text without any heading at all."]]))
    [source] = load_paths([path], root=path.parent)
    assert source.documents[0].title == "memo"


def test_no_text_layer(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(make_scanned_pdf())
    assert _errors(path) == [f"{path}:0: text: no text layer; OCR it first (ocrmypdf adds "
                             "one), then ingest the result"]


@pytest.mark.parametrize("data", [b"%PDF-1.7\n garbage", b"not a pdf at all",
                                  make_pdf(PAGES)[:400]])
def test_a_broken_file_is_an_error_not_a_traceback(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(data)
    [error] = _errors(path)
    assert error.startswith(f"{path}:0: pdf: cannot be read as a PDF (")
    assert error.endswith("is the file complete?")


def test_missing_pypdf_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    data = make_pdf(PAGES)
    monkeypatch.setitem(sys.modules, "pypdf", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'chronorag\[pdf\]'$"):
        reader_for("a.pdf").read(data, name="a.pdf")  # type: ignore[union-attr]


def test_headings_are_found_by_their_size_and_nest_by_it(tmp_path: Path) -> None:
    path = tmp_path / "refunds.pdf"
    wrapped = "You May Cancel Your Subscription at Any Time, Whatever the Reason and Plan"
    path.write_bytes(make_pdf([[*PAGES[0], "Short line of body text.",
                                "The Refund policy ends here without a heading.",
                                f"# {wrapped}", "Cancel in your account settings."],
                               PAGES[1]]))
    [source] = load_paths([path], root=path.parent)
    [doc] = source.documents
    layout = doc.metadata[LAYOUT_KEY]
    # A heading wrapped onto two lines is one heading.
    assert layout["titles"] == ["Refund policy", wrapped, "Exchanges"]
    assert [level for _, _, level in layout["headings"]] == [1, 1, 1]
    assert section_path(layout, doc.text.index("An exchange")) == ("Exchanges",)
    # A short line in the body's size is no heading.
    assert "Short line of body text." not in layout["titles"]
