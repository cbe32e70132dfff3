from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.model import Chunk, Hit, Sentence
from chronorag.rank.base import rarity
from chronorag.rank.gloss import gloss_votes


def hit(chunk_id: str, text: str, *sentences: str) -> Hit:
    parts, at = [], 0
    for k, sentence in enumerate(sentences):
        parts.append(Sentence(chunk_id, k, at, at + len(sentence), sentence))
        at += len(sentence) + 1
    chunk = Chunk(id=chunk_id, doc_id=chunk_id, index=0, start=0, end=len(text), text=text,
                  sentences=tuple(parts))
    return Hit(chunk=chunk, score=0.0)


def test_the_passage_holding_the_english_of_the_question_gets_the_higher_vote():
    votes = gloss_votes("可接受使用政策禁止什么？", [
        hit("a", "This Acceptable Use Policy forbids spam."),
        hit("b", "Firefox shows a new tab page."), hit("zh", "中文的段落")])
    assert votes.passages[0] is not None and votes.passages[1] is not None
    assert votes.passages[0] > votes.passages[1]
    assert votes.passages[2] is None  # the question's own language: bm25 votes there


def test_an_english_question_reads_chinese_passages_through_their_glosses():
    votes = gloss_votes("Which policy applies?", [hit("x", "本政策适用于所有用户"),
                                                  hit("y", "今天天气很好")])
    assert votes.passages[0] is not None and votes.passages[0] > 0


def test_nothing_told_apart_is_no_vote():
    assert gloss_votes("政策", [hit("x", "one text"), hit("y", "another")]).passages == \
        [None, None]
    assert gloss_votes("的", [hit("x", "policy")]).passages == [None]


def test_each_sentence_of_a_passage_gets_its_own_vote():
    first, second = "Firefox shows a new tab page.", "The Acceptable Use Policy forbids spam."
    votes = gloss_votes("可接受使用政策", [hit("p", f"{first} {second}", first, second),
                                     hit("q", "Nothing relevant here.")])
    sentences = votes.sentences[0]
    assert sentences is not None and sentences[1] > sentences[0]
    assert votes.sentences[1] is None  # a passage without sentences


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40), st.lists(st.text(max_size=80), max_size=6))
def test_votes_over_any_text_are_centred(question, texts):
    votes = gloss_votes(question, [hit(f"h{i}", t, t) for i, t in enumerate(texts)])
    assert len(votes.passages) == len(votes.sentences) == len(texts)
    given_votes = [v for v in votes.passages if v is not None]
    assert abs(sum(given_votes)) < 1e-6 * len(given_votes) + 1e-9


def test_the_dictionary_is_not_read_for_passages_of_the_questions_language(monkeypatch):
    import chronorag.rank.gloss as module

    def fail(text: str) -> list[frozenset[str]]:
        raise AssertionError("read the dictionary")

    monkeypatch.setattr(module, "concepts", fail)
    votes = gloss_votes("政策是什么？", [hit("a", "本政策适用"), hit("b", "今天天气")])
    assert votes.passages == [None, None]


@given(of=st.integers(min_value=1, max_value=10_000), data=st.data())
def test_a_word_fewer_texts_say_weighs_more_and_none_weighs_nothing(of: int,
                                                                    data: st.DataObject) -> None:
    saying = data.draw(st.integers(min_value=0, max_value=of - 1))
    assert rarity(saying, of) > rarity(saying + 1, of) > 0
    assert rarity(saying, of) == math.log(1 + of / (1 + saying))
