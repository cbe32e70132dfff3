"""``reindex`` reads again a Markdown document stored as raw text before Markdown was
parsed, when its file still holds exactly that text; never one whose file changed."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronorag.ingest.formats import LAYOUT_KEY
from chronorag.ingest.frontmatter import split_front_matter
from chronorag.model import Document
from chronorag.pipeline.ingest import Embedders, ingest_paths, reindex_documents, rewrite_documents
from chronorag.pipeline.reread import reread_markdown
from chronorag.store.sqlite import SQLiteStore

NOW = datetime(2026, 11, 30, tzinfo=UTC)
BODY = "# Returns\n\n**Customers** may return items within 30 days.\n\n## Gift cards\n\nNever."


def _old_store(tmp_path: Path, embedder) -> tuple[SQLiteStore, Path]:
    """A store whose Markdown document looks as one stored before Markdown was parsed."""
    path = tmp_path / "kb" / "returns.md"
    path.parent.mkdir()
    path.write_text(f"---\ntitle: Returns\n---\n{BODY}\n", encoding="utf-8")
    store = SQLiteStore(tmp_path / "kb.db")
    ingest_paths(store, [path.parent], embedders=Embedders([embedder]), now=NOW, tz=UTC,
                 root=path.parent)
    (doc,) = store.documents(["returns"])
    metadata = {k: v for k, v in doc.metadata.items() if k != LAYOUT_KEY}
    rewrite_documents(store, [replace(doc, text=BODY, metadata=metadata)],
                      embedders=Embedders([embedder]), now=NOW, tz=UTC)
    return store, path


@pytest.mark.parametrize("changed", [False, True])
def test_reindex_reads_old_markdown_again_only_when_its_file_is_unchanged(
        tmp_path: Path, hash_embedder, changed: bool) -> None:
    store, path = _old_store(tmp_path, hash_embedder)
    with store:
        if changed:
            path.write_text(f"---\ntitle: Returns\n---\n{BODY} Edited.\n", encoding="utf-8")
        report = reindex_documents(store, embedders=Embedders([hash_embedder]), force=True,
                                   tz=UTC)
        (doc,) = store.documents(["returns"])
        if changed:
            assert doc.text == BODY and LAYOUT_KEY not in doc.metadata and not report.notes
            return
        assert doc.text.startswith("Returns\n\nCustomers may return") and "**" not in doc.text
        assert doc.metadata[LAYOUT_KEY]["titles"] == ["Returns", "Gift cards"]
        assert report.notes and "re-read 1 Markdown" in report.notes[0]
        again = reindex_documents(store, embedders=Embedders([hash_embedder]), force=True,
                                  tz=UTC)
        assert not again.notes  # read once: it has its layout now


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_any_markdown_file_is_survived(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x.md"
    path.write_text(text, encoding="utf-8")
    body = split_front_matter(path.read_text(encoding="utf-8")).body.strip()
    again = reread_markdown(Document(id="x", text=body, source=str(path)))
    assert again is None or (again.text.strip() and LAYOUT_KEY in again.metadata)
