"""Store fixtures: every test using ``store`` runs against every backend in BACKENDS."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chronorag.model import (
    Chunk,
    Document,
    Granularity,
    Interval,
    Mention,
    Sentence,
    Status,
)
from chronorag.store import PostgresStore, PreparedDocument, SQLiteStore, Store

# One factory per backend: (tmp_path, request) -> open store.
BACKENDS: list[Any] = [
    pytest.param(lambda tmp, req: SQLiteStore(tmp / "store.db"), id="sqlite-file"),
    pytest.param(lambda tmp, req: SQLiteStore(":memory:"), id="sqlite-memory"),
    pytest.param(lambda tmp, req: PostgresStore(req.getfixturevalue("pg_uri")), id="postgres"),
]


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = request.param(tmp_path, request)
    yield opened
    opened.close()


def _day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


def make_prepared(
    doc_id: str,
    text: str = "The return window is 30 days. From 2021 it was 14 days.",
    *,
    n_chunks: int = 2,
    dim: int = 4,
    embedders: tuple[str, ...] = ("e5",),
    seed: int = 0,
    **fields: Any,
) -> PreparedDocument:
    """A document with ``n_chunks`` chunks, two sentences each, one mention per sentence."""
    doc = Document(id=doc_id, text=text, **fields)
    chunks = []
    for c in range(n_chunks):
        sentences = tuple(
            Sentence(doc_id, 2 * c + s, s * 5, s * 5 + 5, f"s{c}.{s}", (
                Mention("2021", s * 5, s * 5 + 4,
                        Interval(_day(2021, 1, 1), _day(2022, 1, 1), Granularity.YEAR),
                        inherited=bool(s)),
            ))
            for s in range(2)
        )
        chunks.append(Chunk(f"{doc_id}#{c}", doc_id, c, c * 10, c * 10 + 10, f"chunk {c}",
                            sentences))
    rng = np.random.default_rng(seed)
    vectors = {e: rng.standard_normal((n_chunks, dim)).astype(np.float32) for e in embedders}
    return PreparedDocument(doc, doc.content_hash(), tuple(chunks), vectors)


def full_document(doc_id: str = "policy-2") -> Document:
    """A document with every field set, mixed time zones and granularities."""
    cet = timezone(timedelta(hours=1))
    return Document(
        id=doc_id, text="Returns: 30 days.", title="Returns policy",
        source_type="policy", status=Status.APPROVED,
        valid_from=Interval(_day(2024, 1, 1), _day(2024, 1, 2), Granularity.DAY),
        valid_to=Interval(None, datetime(2026, 1, 1, tzinfo=cet), Granularity.YEAR),
        occurred_at=Interval(None, None, None),
        published_at=Interval(datetime(2023, 12, 1, 9, 30, 15, 123456, tzinfo=cet), None),
        modified_at=None,
        ingested_at=datetime(2026, 5, 1, 12, 0, tzinfo=cet),
        supersedes=("policy-1", "policy-0"), derived_from=("handbook",),
        subject="alice", owner="legal", applies_to={"region": ("EU", "UK"), "地区": ("华东",)},
        metadata={"lang": "en", "tags": ["a", "b"], "n": 3, "nested": {"x": None}, "zh": "华东"},
        source="policies/returns.md",
    )


@pytest.fixture
def make() -> Callable[..., PreparedDocument]:
    return make_prepared


@pytest.fixture
def full_doc() -> Callable[..., Document]:
    return full_document
