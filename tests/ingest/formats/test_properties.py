"""The Markdown and HTML readers over arbitrary text: they never raise, every layout they
write fits the text they write (and the source they read), and the chunker reads any of
them (its table rows whole) without losing a character."""

from __future__ import annotations

import os
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.ingest import chunk_document, text_size
from chronorag.ingest.formats import (
    LAYOUT_KEY,
    Extracted,
    reader_for,
    section_path,
    source_offset,
)
from chronorag.model import Document

ANY = st.characters(exclude_categories=("Cs",))
MARKDOWN = st.sampled_from(["# ", "## ", "\n", "\n\n", "- ", "1. ", "| a | b |\n|---|---|\n",
                            "| ", "**", "*", "_", "`", "```\n", "~~~", "[", "](", ")", "![",
                            "<!--", "-->", "<b>", "</b>", "<div>\n", "> ", "---\n", "&amp;",
                            "    ", "\t", "标题", "x", " ", "{: ", "{:", "}", "{", "<table>\n",
                            "<tr>", "<th>", "</th>", "<td>", "</td>", "</table>", "<li>",
                            "<br>"])
HTML = st.sampled_from(["<p>", "</p>", "<h1>", "</h2>", "<li>", "<ul>", "</ul>", "<table>",
                        "<tr>", "<th>", "<td>", "</tr>", "<main>", "<article>", "<nav>",
                        "<script>", "</script>", "<pre>", "</pre>", "<br>", "&amp;", "&lt;",
                        "<!--", "-->", "<title>", "</title>", "<", ">", "\n", " ", "日本",
                        "x", "<footer>", "<header>", "<h3 class='a'>"])
PROPERTY = settings(max_examples=int(os.environ.get("CHRONORAG_PROPERTY_EXAMPLES", "200")),
                    deadline=None)


def _text(syntax: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(st.one_of(ANY, syntax, syntax), max_size=120).map("".join)


def _check(extracted: Extracted, source_length: int) -> None:
    text, layout = extracted.text, extracted.layout
    assert text == text.rstrip() and not text.startswith("\n")  # code keeps its indent
    assert layout.source_length == source_length
    end = 0
    for start, stop in layout.blocks:
        assert end <= start < stop <= len(text)
        end = stop
    # Outside the blocks there is only the whitespace that separates them.
    covered = "".join(text[s:e] for s, e in layout.blocks)
    assert len(covered.replace("\n", "").replace(" ", "")) == len(
        text.replace("\n", "").replace(" ", ""))
    assert len(layout.headings) == len(layout.titles)
    for (start, stop, level), title in zip(layout.headings, layout.titles, strict=True):
        assert 0 <= start < stop <= len(text) and 1 <= level <= 6
        assert text[start:stop] == title and "\n" not in title
        assert section_path(layout, start)[-1] == title
    pairs = layout.source_map
    assert all(0 <= t <= len(text) and 0 <= s <= source_length for t, s in pairs)
    assert all(a[0] < b[0] and a[1] <= b[1] for a, b in pairwise(pairs))
    for offset in range(0, len(text) + 1, 7):
        assert 0 <= source_offset(layout, offset) <= source_length
    assert set(layout.rows) <= set(layout.blocks)
    _check_chunks(extracted)


def _check_chunks(extracted: Extracted) -> None:
    """Chunked with its layout: every non-space character in exactly one sentence, in
    order, and each table row that fits a chunk one sentence of its own."""
    doc = Document(id="d", text=extracted.text,
                   metadata={LAYOUT_KEY: extracted.layout.to_json()})
    sentences = [s for c in chunk_document(doc, max_words=40, target_words=20,
                                           max_cjk_chars=80) for s in c.sentences]
    end = 0
    for sentence in sentences:
        assert end <= sentence.start < sentence.end and sentence.text == doc.text[
            sentence.start:sentence.end]
        end = sentence.end
    assert "".join("".join(s.text.split()) for s in sentences) == "".join(doc.text.split())
    spans = {(s.start, s.end) for s in sentences}
    for start, stop in extracted.layout.rows:
        row = doc.text[start:stop]
        whole = (start + len(row) - len(row.lstrip()), start + len(row.rstrip()))
        # A row longer than a chunk may hold is cut like any long sentence.
        assert whole in spans or text_size(row, cjk_per_word=2) > 40 or not row.strip()


@PROPERTY
@given(source=_text(MARKDOWN))
def test_markdown_reader_on_any_text(source: str) -> None:
    extracted = reader_for("a.md").read(source.encode("utf-8"), name="a.md")  # type: ignore[union-attr]
    _check(extracted, len(source))


@PROPERTY
@given(source=_text(HTML))
def test_html_reader_on_any_text(source: str) -> None:
    pytest.importorskip("selectolax")
    extracted = reader_for("a.html").read(source.encode("utf-8"), name="a.html")  # type: ignore[union-attr]
    _check(extracted, len(source))
