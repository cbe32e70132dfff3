"""Review names the documents stored without the token vectors late interaction reads."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from chronorag.pipeline.ingest import Embedders, ingest_paths
from chronorag.render import review_report
from chronorag.review import review
from chronorag.store.sqlite import SQLiteStore

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _file(path: Path, ids: list[str]) -> Path:
    path.write_text("".join(json.dumps({"id": i, "text": f"Rule {i} holds from 2021."}) + "\n"
                            for i in ids), encoding="utf-8")
    return path


def test_documents_without_token_vectors_are_one_finding(
        tmp_path: Path, hash_embedder, hash_tokens) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        ingest_paths(store, [_file(tmp_path / "a.jsonl", ["a1", "a2"])],
                     embedders=Embedders([hash_embedder], tokens=[hash_tokens("tok")]),
                     now=NOW, tz=UTC)
        ingest_paths(store, [_file(tmp_path / "b.jsonl", ["b1", "b2", "b3"])],
                     embedders=Embedders([hash_embedder]), now=NOW, tz=UTC)
        report = review(store, as_of=NOW, tokens="tok")
        [item] = report.unindexed
        assert item.doc_ids == ("b1", "b2", "b3")
        assert item.reason.startswith("3 of 5 documents have no tok token vectors")
        assert "chronorag reindex" in item.reason
        assert report.to_json()["unindexed"][0]["details"] == {"tokens": "tok", "documents": 3}
        assert item in report.items
        text = review_report(report)
        assert "Documents without the token vectors late interaction reads: 1" in text
        assert "  - b1, b2, b3\n" in text
        assert review(store, as_of=NOW, tokens="").unindexed == ()
        assert review(store, as_of=NOW, tokens="other").unindexed[0].doc_ids == (
            "a1", "a2", "b1", "b2", "b3")


def test_a_store_with_every_token_vector_has_no_finding(
        tmp_path: Path, hash_embedder, hash_tokens) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        assert review(store, as_of=NOW, tokens="tok").unindexed == ()  # empty store
        ingest_paths(store, [_file(tmp_path / "a.jsonl", ["a1"])],
                     embedders=Embedders([hash_embedder], tokens=[hash_tokens("tok")]),
                     now=NOW, tz=UTC)
        assert review(store, as_of=NOW, tokens="tok").unindexed == ()
        assert "Documents without the token vectors late interaction reads: none" in (
            review_report(review(store, as_of=NOW, tokens="tok")))
