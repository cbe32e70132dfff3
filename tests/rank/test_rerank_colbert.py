from datetime import UTC, datetime

from chronorag.model import Chunk, Hit, Query, Understanding
from chronorag.rank.rerank_ce import SKIPPED_CJK
from chronorag.rank.rerankers import RERANKERS


def query(text: str) -> Query:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return Query(text=text, now=now, as_of=now,
                 understanding=Understanding(question=text, content=text))


def hit(chunk_id: str, text: str) -> Hit:
    chunk = Chunk(id=chunk_id, doc_id=chunk_id, index=0, start=0, end=len(text), text=text)
    return Hit(chunk=chunk, score=0.1, scores={"rrf": 0.1})


HITS = [hit("bread", "Sourdough bread needs a starter, flour, water and salt."),
        hit("merkel", "Angela Merkel was Chancellor of Germany from 2005 to 2021.")]


def test_colbert_puts_the_relevant_passage_first():
    ranked = RERANKERS.create("colbert").rerank(query("Who was chancellor of Germany?"), HITS)
    assert [h.chunk.id for h in ranked] == ["merkel", "bread"]
    assert 0.0 <= ranked[1].scores["semantic"] <= ranked[0].scores["semantic"] <= 1.0
    assert "colbert" in ranked[0].scores


def test_colbert_token_vectors_are_unit_and_unpadded():
    model = RERANKERS.create("colbert")
    short, long = model.token_vectors(["hi there", "a much longer sentence with many words"])
    assert short.shape == (4, 128) and long.shape[0] > 4


def test_colbert_skips_chinese_questions():
    ranked = RERANKERS.create("colbert").rerank(query("德国总理是谁？"), HITS)
    assert all(SKIPPED_CJK in h.flags for h in ranked)
