"""HTML files: encodings, pages nested deeper than Python's stack, what is dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronorag.errors import ValidationError
from chronorag.ingest import load_paths
from chronorag.ingest.formats import reader_for

pytest.importorskip("selectolax")


def _read(source: str | bytes):  # type: ignore[no-untyped-def]
    data = source.encode("utf-8") if isinstance(source, str) else source
    return reader_for("a.html").read(data, name="a.html")  # type: ignore[union-attr]


def test_article_is_the_main_text_and_its_own_header_stays() -> None:
    page = ("<body><nav>Menu</nav><article><header><h1>Refunds</h1></header>"
            "<p>Paid in 14 days.</p><footer>Share this</footer></article>"
            "<div>Unrelated sidebar</div></body>")
    extracted = _read(page)
    assert extracted.text == "Refunds\n\nPaid in 14 days."
    assert extracted.title == "Refunds"


def test_declared_charset_is_honoured() -> None:
    page = '<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head>' \
           "<body><p>Cr\xe8me br\xfbl\xe9e</p></body></html>"
    extracted = _read(page.encode("cp1252"))
    assert (extracted.title, extracted.text) == ("Café", "Crème brûlée")


def test_bytes_that_are_not_utf8_without_a_charset(tmp_path: Path) -> None:
    path = tmp_path / "a.htm"
    path.write_bytes(b"<p>one</p>\n<p>caf\xe9</p>\n")
    with pytest.raises(ValidationError) as raised:
        load_paths([path], root=path.parent)
    assert [str(e) for e in raised.value.errors] == [
        f"{path}:2: encoding: byte 0xe9 is not valid UTF-8 and no <meta charset> reads "
        "the file; save it as UTF-8"]


def test_deeply_nested_page() -> None:
    page = "<div>" * 20_000 + "<p>deep text</p>" + "</div>" * 20_000
    assert _read(page).text == "deep text"


def test_page_without_text_is_an_empty_document(tmp_path: Path) -> None:
    path = tmp_path / "a.html"
    path.write_text("<html><head><title>T</title><script>x()</script></head></html>",
                    encoding="utf-8")
    with pytest.raises(ValidationError, match=r"a\.html:1: text: is empty"):
        load_paths([path], root=path.parent)


def test_loader_defaults_title_and_id(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    path = tmp_path / "site" / "terms.html"
    path.write_text("<h2>Terms</h2><p>Be nice.</p>", encoding="utf-8")
    [source] = load_paths([tmp_path / "site"], root=tmp_path / "site")
    [doc] = source.documents
    assert (doc.id, doc.title, doc.text, doc.source) == ("terms", "Terms", "Terms\n\nBe nice.",
                                                         str(path))


def test_a_cells_list_items_and_paragraphs_are_read_apart() -> None:
    extracted = _read("<table><tr><th>Use</th><th>Data</th></tr><tr><td>Chatbots</td><td><ul>"
                      "<li>Technical data</li><li>Location</li></ul></td></tr><tr><td>Ads</td>"
                      "<td><p>We share.</p><p>Learn more</p></td></tr></table><p>After.</p>")
    assert extracted.text == ("Use: Chatbots; Data: Technical data, Location\n"
                              "Use: Ads; Data: We share. Learn more\n\nAfter.")


def test_a_chinese_cells_items_are_joined_by_the_enumeration_comma() -> None:
    extracted = _read("<table><tr><th>目的</th><th>数据</th></tr><tr><td>安全</td><td><ul>\n"
                      "<li>技术数据 </li>\n<li>位置</li>\n</ul></td></tr></table>")
    assert extracted.text == "目的: 安全; 数据: 技术数据、位置"
