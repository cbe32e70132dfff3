"""The page's document list in a real browser (headless Chromium, as tests/serve/test_page.py):
the stored documents the key may see, and Delete for admin keys, after a confirm."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browsing import browser_tab, expect

pytestmark = pytest.mark.slow

NOTE = (b"---\nsource_type: note\nvalid_from: 2026-03-01\n---\n"
        b"# Lockers\n\nLockers are on floor 3.\n")


@pytest.fixture
def page(browser, served):
    with browser_tab(browser, served.url) as tab:
        yield tab


def _open(page, served, key: str) -> None:
    page.goto(f"{served.url}/#documents")
    page.get_by_test_id("key").fill(key)
    expect(page.get_by_test_id("whoami")).to_have_text(re.compile(r"^me\b"))


def _row(page, doc_id: str):
    return page.locator(f'[data-testid="doc-row"][data-doc-id="{doc_id}"]')


def test_the_list_shows_every_document_with_its_validity(page, served, artifacts: Path):
    _open(page, served, served.user_key)
    store = served.service.reader.store
    visible = store.visible_doc_ids("me")
    expected = [i for i in store.document_ids() if visible is None or i in visible]
    expect(page.get_by_test_id("doc-row")).to_have_count(len(expected))
    expect(page.get_by_test_id("doc-count")).to_have_text(f"({len(expected)})")
    [first] = store.documents([expected[0]], text=False)
    row = _row(page, first.id)
    expect(row).to_contain_text(first.title or "—")
    expect(row.get_by_test_id("doc-delete")).to_be_disabled()  # not an admin key
    page.screenshot(path=str(artifacts / "documents.png"), full_page=True)


def test_an_admin_deletes_a_document_after_confirming(page, served):
    _open(page, served, served.admin_key)
    page.get_by_test_id("files").set_input_files(
        [{"name": "lockers.md", "mimeType": "text/markdown", "buffer": NOTE}])
    page.get_by_test_id("upload-button").click()
    expect(page.get_by_test_id("upload-report")).to_contain_text("1 added", timeout=120_000)
    row = _row(page, "lockers")
    expect(row).to_contain_text("2026-03-01 → open")
    expect(row).to_contain_text("lockers.md")
    page.once("dialog", lambda dialog: dialog.dismiss())
    row.get_by_test_id("doc-delete").click()
    expect(row).to_have_count(1)
    assert served.service.reader.store.documents(["lockers"])
    messages: list[str] = []

    def accept(dialog) -> None:
        messages.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    row.get_by_test_id("doc-delete").click()
    expect(page.get_by_test_id("doc-status")).to_have_text("Deleted lockers.")
    expect(row).to_have_count(0)
    assert "lockers" in messages[0]
    assert not served.service.reader.store.documents(["lockers"])
