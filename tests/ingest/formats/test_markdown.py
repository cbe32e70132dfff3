"""Markdown files through the loader: front matter first, then the body read as Markdown;
offsets map into the whole file; ``_layout`` is reserved; ``.txt`` stays as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronorag.errors import ValidationError
from chronorag.ingest import chunk_document, load_paths
from chronorag.ingest.formats import LAYOUT_KEY, section_path, source_offset

POLICY = """---
id: returns
valid_from: 2024-02-01
---
# Returns

Items **must** be returned within [30 days](https://x.test).

## 退款

退款将在 14 天内退回。
"""


def _one(path: Path):  # type: ignore[no-untyped-def]
    [source] = load_paths([path], root=path.parent)
    [document] = source.documents
    return document


def test_front_matter_then_markdown_with_offsets_into_the_file(tmp_path: Path) -> None:
    path = tmp_path / "returns.md"
    path.write_text(POLICY, encoding="utf-8")
    doc = _one(path)
    assert (doc.id, doc.title) == ("returns", "Returns")
    assert doc.text == ("Returns\n\nItems must be returned within 30 days.\n\n退款\n\n"
                        "退款将在 14 天内退回。")
    layout = doc.metadata[LAYOUT_KEY]
    assert layout["source_length"] == len(POLICY)
    for phrase in ("Returns", "30 days", "退款将在"):
        at = source_offset(layout, doc.text.index(phrase))
        assert POLICY[at:at + len(phrase)] == phrase
    assert section_path(layout, doc.text.index("14 天")) == ("Returns", "退款")


def test_markdown_suffix_and_title_from_any_heading(tmp_path: Path) -> None:
    path = tmp_path / "notes.markdown"
    path.write_text("### Small heading\n\n* one\n* two\n", encoding="utf-8")
    doc = _one(path)
    assert (doc.id, doc.title, doc.text) == ("notes", "Small heading", "Small heading\n\none\ntwo")


def test_text_files_are_read_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text("# not a heading **here**\n", encoding="utf-8")
    doc = _one(path)
    assert doc.text == "# not a heading **here**"
    assert LAYOUT_KEY not in doc.metadata


def test_front_matter_may_not_set_the_layout(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("---\ntitle: A\n_layout: {headings: []}\n---\nbody\n", encoding="utf-8")
    with pytest.raises(ValidationError) as raised:
        load_paths([path], root=path.parent)
    assert [str(e) for e in raised.value.errors] == [
        f"{path}:3: _layout: is reserved for the layout chronorag reads from Markdown, "
        "HTML, PDF and DOCX files; rename the field"]


def test_a_jsonl_record_may_not_set_the_layout(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text('{"id": "a", "text": "t", "metadata": {"_layout": 1}}\n', encoding="utf-8")
    with pytest.raises(ValidationError, match=r"a\.jsonl:1: _layout: is reserved"):
        load_paths([path], root=path.parent)


def test_a_body_that_is_only_markup_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("---\ntitle: A\n---\n<!-- draft -->\n\n---\n", encoding="utf-8")
    with pytest.raises(ValidationError) as raised:
        load_paths([path], root=path.parent)
    assert [str(e) for e in raised.value.errors] == [f"{path}:4: text: is empty"]


def test_html_inside_markdown_keeps_its_text_only(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("<div align=\"center\">\n<b>Notice</b>\n</div>\n\nSee <kbd>Ctrl</kbd>+C "
                    "and `code`.\n\n<!--\nhidden\n-->\n", encoding="utf-8")
    assert _one(path).text == "Notice\n\nSee Ctrl+C and code."


LAWFUL = """# Firefox Privacy Notice

## Lawful bases

<table>
    <thead>
        <tr>
            <th>What we use your data for</th>
            <th>Our lawful basis</th>
        </tr>
    </thead>
    <tr>
        <td>To provide AI chatbots</td>
        <td>
            <ul>
                <li>Technical data</li>
                <li>Location</li>
            </ul>
        </td>
        <td><strong>Consent</strong>, when you choose to enable an AI chatbot.</td>
    </tr>
    <tr>
        <td>To provide Mozilla accounts</td>
        <td colspan="2">See our <a href="https://x.test">Accounts Notice</a> &amp; FAQ</td>
    </tr>
</table>
After the table.
"""


def test_an_html_table_inside_markdown_is_read_as_rows(tmp_path: Path) -> None:
    path = tmp_path / "notice.md"
    path.write_text(LAWFUL, encoding="utf-8")
    doc = _one(path)
    layout = doc.metadata[LAYOUT_KEY]
    assert len(layout["rows"]) == 2
    lines = doc.text.split("\n")
    assert ("What we use your data for: To provide AI chatbots; Our lawful basis: Technical "
            "data, Location; Consent, when you choose to enable an AI chatbot.") in lines
    assert ("What we use your data for: To provide Mozilla accounts; Our lawful basis: See "
            "our Accounts Notice & FAQ") in lines
    assert "After the table." in doc.text
    for phrase in ("To provide AI chatbots", "Location", "Consent", "After the table."):
        at = source_offset(layout, doc.text.index(phrase))
        assert LAWFUL[at:at + len(phrase)] == phrase
    assert section_path(layout, doc.text.index("Consent")) == ("Firefox Privacy Notice",
                                                              "Lawful bases")


COOKIES = """# Cookies

| Cookie Name | Description | Expiration |
|---|---|---|
| has_recent_activity | Hides the interstitial from users seen recently. | one hour |
| _device_id | Tracks recognized devices, e.g. for security. | one year |

We set no other cookies. Nor do our partners.
"""


def test_a_table_row_is_one_sentence_whatever_its_cells_hold(tmp_path: Path) -> None:
    path = tmp_path / "cookies.md"
    path.write_text(COOKIES, encoding="utf-8")
    doc = _one(path)
    assert len(doc.metadata[LAYOUT_KEY]["rows"]) == 2  # each row names its headers
    sentences = [s.text for c in chunk_document(doc) for s in c.sentences]
    row = next(s for s in sentences if "has_recent_activity" in s)
    assert row.endswith("Expiration: one hour")
    assert "recently." in row and "e.g. for security." in next(
        s for s in sentences if "_device_id" in s)
    # Prose after the table is split into its sentences as before.
    assert "We set no other cookies." in sentences and "Nor do our partners." in sentences
