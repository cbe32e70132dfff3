from datetime import UTC, datetime

import pytest

from chronorag.errors import ConfigError
from chronorag.flags import Flag
from chronorag.model import Chunk, Hit, Query, Understanding
from chronorag.rank.rerank_none import NoReranker
from chronorag.rank.rerankers import RERANKERS, RerankContext


def query(text: str) -> Query:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return Query(text=text, now=now, as_of=now,
                 understanding=Understanding(question=text, content=text))


def hit(chunk_id: str, text: str, **scores: float) -> Hit:
    chunk = Chunk(id=chunk_id, doc_id=chunk_id, index=0, start=0, end=len(text), text=text)
    return Hit(chunk=chunk, score=scores.get("rrf", 0.0), scores=scores)


@pytest.fixture(scope="module")
def cross_encoder():
    return RERANKERS.create("cross-encoder", context=RerankContext(top_n=10))


HITS = [
    hit("bread", "Sourdough bread needs a starter, flour, water and salt.", rrf=0.03, dense=0.2),
    hit("merkel", "Angela Merkel was Chancellor of Germany from 2005 to 2021.", rrf=0.02,
        dense=0.5),
    hit("zh", "默克尔于2005年至2021年担任德国总理。", rrf=0.01),
]


@pytest.mark.slow  # loads the cross-encoder
def test_relevant_passage_outranks_irrelevant(cross_encoder):
    ranked = cross_encoder.rerank(query("Who was chancellor of Germany in 2010?"), HITS[:2])
    assert [h.chunk.id for h in ranked] == ["merkel", "bread"]
    top = ranked[0].scores
    assert top["semantic"] > 0.5 > ranked[1].scores["semantic"]
    assert top["rrf"] == 0.02 and "rerank" in top  # retrieval scores are kept


@pytest.mark.slow  # loads the cross-encoder
def test_padding_is_dynamic_and_truncation_at_max_length(cross_encoder):
    short = cross_encoder.model.encode([("who?", "a short passage"), ("why", "another one")])
    assert short["input_ids"].shape[1] < 20
    assert short["input_ids"].shape == short["attention_mask"].shape
    long = cross_encoder.model.encode([("who?", "word " * 1000)])
    assert long["input_ids"].shape[1] == 256


@pytest.mark.slow  # loads the cross-encoder
def test_model_threads_do_not_spin_after_a_run(cross_encoder):
    # The token encoder runs just before the cross-encoder in every question: threads of
    # one session left spinning would take the cores the next one needs.
    session, _ = cross_encoder.model._load()
    entry = session.get_session_options().get_session_config_entry(
        "session.intra_op.allow_spinning")
    assert entry == "0"


@pytest.mark.slow  # loads the cross-encoder
def test_scores_come_back_in_input_order_whatever_the_batching(cross_encoder):
    texts = ["Angela Merkel was Chancellor of Germany from 2005 to 2021, for sixteen years.",
             "Bread.", "Sourdough bread needs a starter, flour, water and salt.", "Merkel."]
    question = "Who was chancellor of Germany in 2010?"
    one_by_one = [float(cross_encoder.score(question, [t])[0]) for t in texts]
    batched = cross_encoder.score(question, texts)
    # Dynamic INT8 quantisation sees the padded batch, so logits move a little with padding.
    assert batched.tolist() == pytest.approx(one_by_one, abs=0.3)
    assert sorted(range(4), key=lambda i: -batched[i]) == sorted(range(4),
                                                               key=lambda i: -one_by_one[i])


def test_mostly_chinese_question_skips_the_model_and_says_so(cross_encoder):
    ranked = cross_encoder.rerank(query("默克尔什么时候担任德国总理？"), HITS)
    assert [h.chunk.id for h in ranked] == ["bread", "merkel", "zh"]  # retrieval order kept
    assert all(Flag.RERANK_SKIPPED_CJK in h.flags and "rerank" not in h.scores for h in ranked)
    assert [h.scores["semantic"] for h in ranked] == [0.2, 0.5, pytest.approx(1 / 3)]


@pytest.mark.slow  # loads the cross-encoder
def test_hits_beyond_top_n_follow_the_judged_ones():
    reranker = RERANKERS.create("cross-encoder", context=RerankContext(top_n=1))
    ranked = reranker.rerank(query("Who was chancellor of Germany?"), HITS[:2])
    assert [h.chunk.id for h in ranked] == ["bread", "merkel"]
    assert Flag.NOT_RERANKED in ranked[1].flags
    assert ranked[1].scores["semantic"] <= ranked[0].scores["semantic"]


def test_none_reranker_keeps_order_and_derives_semantic():
    ranked = RERANKERS.create("none", context=RerankContext()).rerank(query("anything"), HITS)
    assert [h.chunk.id for h in ranked] == ["bread", "merkel", "zh"]
    assert [h.scores["semantic"] for h in ranked] == [0.2, 0.5, pytest.approx(1 / 3)]


def test_empty_hits(cross_encoder):
    assert cross_encoder.rerank(query("x"), []) == []


def test_registry_errors_list_the_registered_names():
    with pytest.raises(ConfigError, match="cross-encoder, none"):
        RERANKERS.create("monot5")


@pytest.mark.slow  # loads the cross-encoder
def test_windows_judge_english_passages_and_keep_retrieval_relevance_of_chinese_ones():
    reranker = RERANKERS.create("windows", context=RerankContext(top_n=10))
    zh = hit("zh", "默克尔于2005年至2021年担任德国总理。", rrf=0.01, dense_relevance=0.7)
    ranked = reranker.rerank(query("Who was chancellor of Germany?"), [*HITS[:2], zh])
    by_id = {h.chunk.id: h for h in ranked}
    assert Flag.RERANK_SKIPPED_CJK in by_id["zh"].flags and "rerank" not in by_id["zh"].scores
    assert by_id["zh"].scores["semantic"] == 0.7
    assert "rerank" in by_id["merkel"].scores
    assert Flag.RERANK_SKIPPED_CJK not in by_id["merkel"].flags
    assert [h.chunk.id for h in ranked] == ["merkel", "zh", "bread"]


def test_a_plug_in_receives_what_the_built_ins_receive():
    received = []

    def factory(*, context: RerankContext) -> NoReranker:
        received.append(context)
        return NoReranker()

    RERANKERS.add("test-plug-in", factory)
    titles = {"d": "A page"}.get
    context = RerankContext(top_n=3, titles=lambda i: titles(i) or "")
    RERANKERS.create("test-plug-in", context=context)
    assert received == [context] and received[0].titles("d") == "A page"
