"""The span of a Chinese sentence standing where a Chinese question asks
(``answer.zh_slot``; golden cases through ``short_answer`` are in data/short_answers.jsonl)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.zh_slot import slot


@pytest.mark.parametrize(("question", "sentence", "span"), [
    ("还可以去帐户的哪个板块取消？", "或前往您的帐户的订阅与支付板块并点击“取消”按钮。",
     "订阅与支付板块"),
    ("Firefox 还通过什么来验证网页？", "并通过数字证书认证机构验证网页及技术数据。",
     "数字证书认证机构"),
    ("她用什么样的方法备份数据？", "她用异地加密的方法备份数据。", "异地加密的方法"),
])
def test_the_words_around_the_question_word_bound_the_answer(question: str, sentence: str,
                                                            span: str) -> None:
    assert slot(question, sentence) == span


@pytest.mark.parametrize(("question", "sentence"), [
    # No question word.
    ("Mozilla 会保存我的数据吗？", "Mozilla 会保存您的数据。"),
    # The words after the question word are not in the sentence.
    ("帐户的哪个板块可以取消？", "您可以随时取消订阅。"),
    # Only one bound is found: the modifiers of the noun are as often another instance's.
    ("一项什么样的许可？", "浏览器的个人非排他性许可。"),
    # A span ending with a particle modifies something; one crossing a mark is a clause.
    ("实现什么目标？", "只需十年就能实现同样的目标。"),
    ("通过什么验证？", "通过证书，签名和哈希验证。"),
    # A span the question already says answers nothing.
    ("通过证书还是什么验证？", "通过证书验证。"),
])
def test_no_span(question: str, sentence: str) -> None:
    assert slot(question, sentence) is None


@given(st.text(max_size=80), st.text(max_size=200))
def test_any_text(question: str, sentence: str) -> None:
    found = slot(question, sentence)
    assert found is None or (found and found in sentence)


_PIECES = "什么哪个样的来通过板块验证，。、 Ab1"


@given(st.text(alphabet=_PIECES, max_size=30), st.text(alphabet=_PIECES, max_size=60))
def test_steered_text(question: str, sentence: str) -> None:
    found = slot(question, sentence)
    assert found is None or (found and found in sentence)
