"""Pinyin as a keyword bridge: Chinese names reached by their English spelling and back."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.retrieve.keyword import KeywordRetriever, document_terms, query_terms
from chronorag.retrieve.pinyin import is_syllable, joined_names, pinyin_of, with_pinyin
from chronorag.retrieve.snapshot import Indexes


@pytest.mark.parametrize(("word", "expected"), [
    ("临江", "linjiang"), ("汉山", "hanshan"), ("张伟", "zhangwei"), ("华信集团", "huaxinjituan"),
    ("吕梁", "luliang"),  # ü is spelled u in English
    ("临", None),  # one syllable is an English word as often as a name
    ("中华人民共和国", None),  # longer than a name
    ("Linjiang", None), ("12", None), ("", None),
])
def test_pinyin_of_name_like_words(word, expected):
    assert pinyin_of(word) == expected


def test_with_pinyin_appends_and_keeps_order():
    assert with_pinyin(["临江", "市长", "mayor", "市"]) == ["临江", "市长", "mayor", "市",
                                                        "linjiang", "shizhang"]
    assert with_pinyin(["mayor"]) == ["mayor"]


@pytest.mark.parametrize(("word", "syllable"), [
    ("zhang", True), ("wei", True), ("li", True), ("a", True), ("er", True), ("lv", True),
    ("the", False), ("mayor", False), ("president", False), ("x", False), ("", False),
])
def test_is_syllable(word, syllable):
    assert is_syllable(word) is syllable


def test_joined_names_pairs_neighbouring_syllables_only():
    assert joined_names("when did zhang wei join huaxin group") == ["zhangwei"]
    assert joined_names("who is li na") == ["lina"]
    assert joined_names("the mayor of linjiang") == []


@settings(deadline=None)  # the first example loads jieba's and pypinyin's dictionaries
@given(st.text(max_size=200))
def test_terms_survive_any_text(text):
    terms = query_terms(text)
    assert all(isinstance(t, str) and t for t in terms)
    assert document_terms(text) == terms[: len(document_terms(text))]


CORPUS = {
    "linjiang": "临江市是一座沿江城市。刘芳自2016年起担任临江市市长至今。",
    "hanshan": "汉山大学成立于1952年。孙丽自2013年以来一直担任汉山大学校长。",
    "huaxin": "2009年，张伟出任华信集团总裁，2016年卸任。",
    "ottawa": "Linjiang is twinned with no city in Canada; Ottawa is the capital of Canada.",
}


@pytest.mark.parametrize(("question", "doc_id"), [
    ("Who has been mayor of Linjiang since 2016?", "linjiang"),
    ("Who is president of Hanshan University?", "hanshan"),
    ("When did Zhang Wei leave the company?", "huaxin"),
])
def test_english_question_reaches_the_chinese_page_by_its_names(make_query, store, question,
                                                                doc_id):
    store.add_texts({k: v for k, v in CORPUS.items() if k != "ottawa"})
    hits = KeywordRetriever(Indexes(store)).retrieve(make_query(question), limit=3)
    assert hits and hits[0].chunk.doc_id == doc_id


def test_chinese_question_reaches_the_english_page_by_its_names(make_query, store):
    store.add_texts({"ottawa": CORPUS["ottawa"], "hanshan": CORPUS["hanshan"]})
    retriever = KeywordRetriever(Indexes(store))
    hits = retriever.retrieve(make_query("临江和哪座城市结为友好城市？"), limit=3)
    assert [h.chunk.doc_id for h in hits] == ["ottawa"]
