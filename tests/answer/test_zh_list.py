"""The things a Chinese sentence enumerates with 、, for a question asking 哪些
(``answer.zh_list`` through ``answer.shape.short_answer``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.shape import Want, short_answer, wanted
from chronorag.answer.zh_list import zh_listed

DAMAGES = ("Mozilla 特别声明不对以下损害赔偿负责：间接、特殊、附带、后果性或惩罚性损害赔偿，"
           "商誉损失、业务中断、利润损失、数据丢失或计算机故障造成的直接或间接损害赔偿。")


@pytest.mark.parametrize(("question", "sentence", "items"), [
    # The first item starts after 的; the last ends before the verb after it.
    ("Mozilla Monitor 会扫描检查我的哪些信息有没有在已知的数据泄露事件里被泄露？",
     "Mozilla Monitor 会进行扫描，以查看您的密码、电话号码或其他个人信息是否在任何已知的"
     "数据泄露事件中被泄露。",
     "密码、电话号码或其他个人信息"),
    # Items that are a verb and its object; the locative before the first ends nothing of it.
    ("Firefox Relay 的别名能让我在不暴露真实联系方式的情况下做哪些事？",
     "这样您就可以在不透露真实联系信息的情况下收发电子邮件、接听电话和收发短信。",
     "收发电子邮件、接听电话和收发短信"),
    # Of two lists, the one followed by the question's words after 哪些.
    ("Mozilla 明确表示不为哪些损失造成的直接或间接损害赔偿负责？", DAMAGES,
     "商誉损失、业务中断、利润损失、数据丢失或计算机故障"),
    # The word introducing the list is not its first item.
    ("肯尼亚人在哪些体育运动中很活跃？",
     "肯尼亚人积极参与多种体育运动，其中包括板球、汽车拉力赛、足球、联合会橄榄球和拳击。",
     "板球、汽车拉力赛、足球、联合会橄榄球和拳击"),
    # Quoted items are bounded by their marks; the list 如 introduces right after the
    # question's words is theirs, not a later one followed by one of them.
    ("本协议排除了哪些默示条件或保证？",
     "在法律允许的范围内，我们排除任何默示条件或保证，如“可销售性”、“适合某一目的”和“不侵权”，"
     "以及因交易、使用或惯例产生的保证。",
     "“可销售性”、“适合某一目的”和“不侵权”"),
])
def test_the_list_answers_a_question_asking_which(question: str, sentence: str,
                                                   items: str) -> None:
    assert zh_listed(question, sentence) == items
    assert short_answer(question, sentence) == items


@pytest.mark.parametrize(("question", "sentence"), [
    # Not a question asking 哪些.
    ("Mozilla 会收集我的密码吗？", "Mozilla 不会收集您的密码、电话号码或其他个人信息。"),
    # The list is the question's own.
    ("密码、电话号码有哪些？", "密码、电话号码"),
    # No list.
    ("Mozilla 会保存哪些数据？", "Mozilla 会保存您的帐户数据。"),
    # Clauses cut by 、 are no list: a middle item with a pronoun or function word.
    ("“内容”这类数据举了哪些例子？",
     "在本隐私声明中，我们解释了我们会处理哪些数据、如何处理这些数据以及处理的目的。"),
    # A table row: its cells are chosen by their headers, not read as a list.
    ("这项服务包括哪些？",
     "服务: 同步; 描述: 书签、历史记录、密码; 示例: 标签页、附加组件、偏好设置"),
])
def test_no_list_answers(question: str, sentence: str) -> None:
    assert zh_listed(question, sentence) is None


def test_a_question_asking_which_is_no_yes_no_question_for_its_youmeiyou() -> None:
    assert wanted("我的哪些信息有没有被泄露？") is not Want.YES_NO
    assert wanted("我的密码有没有被泄露？") is Want.YES_NO
    # The wh-word of an earlier clause does not make the asking clause a wh-question.
    assert wanted("什么是 Relay，它会不会收集我的邮件？") is Want.YES_NO
    # Ending in 吗 it asks yes or no, whatever it holds.
    assert wanted("代理服务器会收集我访问了哪些网站的数据吗？") is Want.YES_NO


@given(st.text(max_size=80), st.text(max_size=200))
def test_any_text(question: str, sentence: str) -> None:
    found = zh_listed("哪些" + question, sentence)
    assert found is None or (found and found in sentence)


_PIECES = "的了是在和或及与、，。密码电话信息abc 1"


@given(st.lists(st.text(alphabet=_PIECES, max_size=6), max_size=6))
def test_steered_lists(parts: list[str]) -> None:
    sentence = "、".join(parts)
    found = zh_listed("我有哪些东西？", sentence)
    assert found is None or (found and found in sentence)
