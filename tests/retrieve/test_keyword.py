from chronorag.retrieve.keyword import KeywordRetriever
from chronorag.retrieve.snapshot import Indexes

CORPUS = {
    "merkel": "Angela Merkel was Chancellor of Germany from 2005 to 2021.",
    "scholz": "Olaf Scholz became Chancellor of Germany in December 2021.",
    "bread": "Sourdough bread needs a starter, flour, water and salt.",
    "returns": "退货政策：自收货之日起30天内可以无理由退货。",
    "lunch": "上周二中午十二点半在公司楼下吃了牛肉面。",
}


def test_bm25_ranks_the_obvious_english_chunk_first(make_query, store):
    store.add_texts(CORPUS)
    hits = KeywordRetriever(Indexes(store)).retrieve(make_query("sourdough starter"), limit=3)
    assert [h.chunk.doc_id for h in hits] == ["bread"]
    assert set(hits[0].scores) == {"bm25"} and hits[0].score == hits[0].scores["bm25"] > 0


def test_bm25_ranks_the_obvious_chinese_chunk_first(make_query, store):
    store.add_texts(CORPUS)
    retriever = KeywordRetriever(Indexes(store))
    assert retriever.retrieve(make_query("退货要多少天？"), limit=3)[0].chunk.doc_id == "returns"
    assert retriever.retrieve(make_query("我吃了什么面"), limit=3)[0].chunk.doc_id == "lunch"


def test_uses_query_content_not_the_time_expression(make_query, store):
    store.add_texts(CORPUS)
    retriever = KeywordRetriever(Indexes(store))
    question = "Who was Chancellor of Germany in December 2021?"
    # With the time expression, "december" drags the Scholz chunk to the top ...
    assert retriever.retrieve(make_query(question), limit=5)[0].chunk.doc_id == "scholz"
    # ... the content alone ranks by topic only (the shorter Merkel chunk wins on length).
    query = make_query(question, content="Who was Chancellor of Germany")
    hits = retriever.retrieve(query, limit=5)
    assert [h.chunk.doc_id for h in hits] == ["merkel", "scholz"]


def test_index_rebuilds_when_store_generation_changes(make_query, store):
    store.add_texts({"a": "apples are red"})
    retriever = KeywordRetriever(Indexes(store))
    assert retriever.retrieve(make_query("bananas"), limit=5) == []
    store.add_texts({"b": "bananas are yellow"})
    assert [h.chunk.doc_id for h in retriever.retrieve(make_query("bananas"), limit=5)] == ["b"]


def test_empty_store_and_unknown_words(make_query, store):
    retriever = KeywordRetriever(Indexes(store))
    assert retriever.retrieve(make_query("anything"), limit=5) == []
    store.add_texts(CORPUS)
    assert retriever.retrieve(make_query("zzzz qqqq"), limit=5) == []
    assert retriever.retrieve(make_query("bread"), limit=0) == []
