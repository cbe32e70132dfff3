"""QueryMemo: a question embedded once however many components ask for its vector."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.retrieve.embedders import QueryMemo

from ..conftest import HashEmbedder


class Counting(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        self.calls.append((kind, tuple(texts)))
        return super().embed(texts, kind=kind)


def test_queries_are_embedded_once_and_passages_always() -> None:
    inner = Counting()
    memo = QueryMemo(inner)
    assert (memo.name, memo.dim, memo.scale) == (inner.name, inner.dim, inner.scale)
    first = memo.embed(["who won"], kind="query")
    again = memo.embed(["who won", "who lost"], kind="query")
    memo.embed(["a passage"])
    memo.embed(["a passage"])
    assert inner.calls == [("query", ("who won",)), ("query", ("who lost",)),
                           ("passage", ("a passage",)), ("passage", ("a passage",))]
    assert np.array_equal(again[0], first[0]) and again.dtype == np.float32
    assert memo.embed([], kind="query").shape == (0, inner.dim)


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(st.sampled_from(["a", "b", "c", "d", "e", "华东"]), max_size=12),
       size=st.integers(min_value=1, max_value=4))
def test_same_vectors_as_the_embedder_and_bounded(texts: list[str], size: int) -> None:
    inner = HashEmbedder()
    memo = QueryMemo(inner, size=size)
    for text in texts:
        assert np.array_equal(memo.embed([text], kind="query"),
                              inner.embed([text], kind="query"))
    assert len(memo._recent) <= size


def test_threads_share_one_memo() -> None:
    memo = QueryMemo(HashEmbedder(), size=3)
    texts = [f"q{i % 7}" for i in range(200)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        rows = list(pool.map(lambda t: memo.embed([t], kind="query")[0], texts))
    expected = HashEmbedder().embed(texts, kind="query")
    assert np.array_equal(np.stack(rows), expected)
