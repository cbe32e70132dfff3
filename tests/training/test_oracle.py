"""The answer oracle scores what names an answer, and ranks it first through the window
reranker without loading a model."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st
from training.oracle import HIGH, LOW, AnswerOracle, OracleWindows

from chronorag.model import Chunk, Hit, Query, Sentence, Understanding


def hit(chunk_id: str, *sentences: str) -> Hit:
    text = " ".join(sentences)
    spans, start = [], 0
    for k, s in enumerate(sentences):
        spans.append(Sentence(chunk_id, k, start, start + len(s), s))
        start += len(s) + 1
    chunk = Chunk(id=chunk_id, doc_id=chunk_id, index=0, start=0, end=len(text), text=text,
                  sentences=tuple(spans))
    return Hit(chunk=chunk, score=0.0, scores={"dense": 0.5})


def query(text: str) -> Query:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return Query(text=text, now=now, as_of=now,
                 understanding=Understanding(question=text, content=text))


QUESTION = "Which team did Ada Smith play for?"


def test_a_text_naming_an_answer_scores_high_case_folded():
    oracle = AnswerOracle({QUESTION: ("Real Madrid", "")})
    scores = oracle.score(QUESTION, ["She joined REAL MADRID in 2011.", "She was born."])
    assert scores.tolist() == [HIGH, LOW]
    # Matched as the harness matches: whole words, and runs of Han characters.
    oracle = AnswerOracle({QUESTION: ("Roma", "哈德良桥")})
    scores = oracle.score(QUESTION, ["She moved to Romania.", "最早有移民点是哈德良桥。"])
    assert scores.tolist() == [LOW, HIGH]
    # A question it has no answers for (an unanswerable one) scores everything low.
    assert oracle.score("Who else?", ["Real Madrid"]).tolist() == [LOW]


def test_the_window_naming_the_answer_ranks_first_without_a_model():
    oracle = AnswerOracle({QUESTION: ("Real Madrid",)})
    reranker = OracleWindows(oracle=oracle, top_n=5, per_chunk=5)
    hits = [hit("a", "Ada Smith is a footballer.", "She was born in Leeds."),
            hit("b", "Ada Smith moved to Spain.", "She played for Real Madrid.")]
    ranked = reranker.rerank(query(QUESTION), hits)
    assert [h.chunk.id for h in ranked] == ["b", "a"]
    assert ranked[0].best_sentence == 1


@given(st.text(), st.lists(st.text(), max_size=4))
def test_any_text_gets_one_score_each(question, texts):
    oracle = AnswerOracle({question: (question[:3],)})
    assert len(oracle.score(question, texts)) == len(texts)
