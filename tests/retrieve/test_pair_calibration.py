"""Dense relevance calibrated per (question script, passage script) pair."""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import MappingProxyType

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.decide import AnswerRules
from chronorag.errors import ConfigError
from chronorag.retrieve.base import CosineScale
from chronorag.retrieve.dense import DenseRetriever, relevance
from chronorag.retrieve.embed_e5 import E5Embedder
from chronorag.retrieve.embed_use import UseEmbedder
from chronorag.retrieve.embedders import QueryMemo
from chronorag.retrieve.snapshot import Indexes

from .conftest import make_query

EN, ZH = "Which river is the longest?", "哪条河最长？"
PAIRS = [(q, p) for q in (False, True) for p in (False, True)]


class FixedCosines:
    """2-d unit vectors: every query is (1, 0); a passage's cosine with it is set per text."""

    name = "fixed"
    dim = 2
    scale = CosineScale(calibration=(0.80, 0.92), pairs=MappingProxyType(
        {(True, True): (0.85, 0.97), (True, False): (0.75, 0.87)}))

    def __init__(self, cosines: dict[str, float]) -> None:
        self.cosines = cosines

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        if kind == "query":
            return np.array([[1.0, 0.0]] * len(texts), dtype=np.float32)
        rows = [[c, math.sqrt(1.0 - c * c)] for c in (self.cosines[t] for t in texts)]
        return np.array(rows, dtype=np.float32)


@pytest.mark.parametrize(("question", "passage", "expected"), [
    (EN, "The Nile is the longest river.", 0.5),   # en-en: the base range
    (ZH, "长江是中国最长的河流。", 0.0833333),        # zh-zh: range moved up by 0.05
    (ZH, "The Yangtze is the longest river in China.", 0.9166667),  # zh-en: moved down
    (EN, "长江是中国最长的河流。", 0.5),              # en-zh: no entry, the base range
])
def test_dense_relevance_uses_the_pair_of_scripts(store, question, passage, expected):
    embedder = FixedCosines({passage: 0.86})
    store.add_texts({"p": passage}, embedder=embedder)
    hits = DenseRetriever(Indexes(store), embedder).retrieve(make_query(question), limit=1)
    assert hits[0].scores["dense_relevance"] == pytest.approx(expected, abs=1e-4)
    assert hits[0].scores["dense"] == pytest.approx(0.86, abs=1e-6)  # the order is untouched


def test_a_chunk_rewritten_in_another_script_gets_that_scripts_range(store):
    embedder = FixedCosines({"长江是中国最长的河流。": 0.86, "The Nile is long.": 0.86})
    retriever = DenseRetriever(Indexes(store), embedder)
    store.add_texts({"p": "长江是中国最长的河流。"}, embedder=embedder)
    first = retriever.retrieve(make_query(ZH), limit=1)[0].scores["dense_relevance"]
    store.add_texts({"p": "The Nile is long."}, embedder=embedder)  # same chunk id
    second = retriever.retrieve(make_query(ZH), limit=1)[0].scores["dense_relevance"]
    assert (first, second) == pytest.approx((0.0833333, 0.9166667), abs=1e-4)


def test_a_wrapped_embedder_keeps_its_pair_ranges():
    inner = FixedCosines({})
    memo = QueryMemo(inner)
    assert memo.scale.pair(question_cjk=True, passage_cjk=True) == (0.85, 0.97)
    assert memo.scale.pair(question_cjk=False, passage_cjk=False) == (0.80, 0.92)


def test_a_scale_without_ranges_maps_the_raw_cosine():
    assert CosineScale().pair(question_cjk=True, passage_cjk=False) == (0.0, 1.0)
    assert CosineScale().unit() == pytest.approx(0.2)  # a fifth of the range
    assert CosineScale(spread=0.03).unit() == 0.03


def test_an_embedder_that_declares_no_scale_is_refused_by_name():
    class Bare:
        name, dim = "bare", 2

        def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
            return np.zeros((len(texts), 2), np.float32)

    with pytest.raises(ConfigError, match="embedder 'bare' declares no scale"):
        QueryMemo(Bare())  # type: ignore[arg-type]


@pytest.mark.parametrize("embedder", [E5Embedder, UseEmbedder])
def test_english_over_english_keeps_the_base_range(embedder):
    # TimeQA (English) numbers rest on this range: no pair entry may override it.
    assert (False, False) not in embedder.scale.pairs
    assert embedder.scale.pair(question_cjk=False, passage_cjk=False) == \
        embedder.scale.calibration


@pytest.mark.parametrize(("question_cjk", "passage_cjk"), PAIRS)
def test_e5_ranges_are_increasing(question_cjk, passage_cjk):
    low, high = E5Embedder.scale.pair(question_cjk=question_cjk, passage_cjk=passage_cjk)
    assert 0.0 < low < high < 1.0


def test_an_unrelated_chinese_page_is_not_relevant_to_a_chinese_question():
    # e5 cosine of "火星上有几个湖泊？" with a page about the Yangtze (golden corpus): 0.820,
    # above the English range's floor; the zh-zh range puts it below min_semantic.
    calibration = E5Embedder.scale.pair(question_cjk=True, passage_cjk=True)
    assert relevance(0.8204, calibration) < AnswerRules().min_semantic


@given(st.floats(allow_nan=True, allow_infinity=True),
       st.sampled_from([E5Embedder, UseEmbedder]), st.sampled_from(PAIRS))
def test_relevance_stays_in_the_unit_interval(cosine, embedder, pair):
    calibration = embedder.scale.pair(question_cjk=pair[0], passage_cjk=pair[1])
    assert 0.0 <= relevance(cosine, calibration) <= 1.0
