"""Short answers as spans of the sentence: golden cases (tests/answer/data/short_answers.jsonl)
and, over arbitrary text, an answer that is always a span of its sentence."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.answer.shape import Want, short_answer, wanted

NOW = datetime(2026, 1, 1, tzinfo=UTC)
CASES = [json.loads(line) for line in
         (Path(__file__).parent / "data" / "short_answers.jsonl").read_text(
             encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_golden_short_answers(case: dict[str, Any]) -> None:
    assert short_answer(case["question"], case["sentence"], now=NOW) == case["answer"]


def test_what_a_question_wants() -> None:
    assert wanted("Is the store open on Sundays?") is Want.YES_NO
    assert wanted("How long is the return window?") is Want.DURATION
    assert wanted("How many days do I have?") is Want.NUMBER
    assert wanted("When did the policy take effect?") is Want.DATE
    assert wanted("Who wrote it?") is Want.NAME
    assert wanted("What is the refund policy?") is Want.SENTENCE
    assert wanted("What is the cap on liability?") is Want.NUMBER
    assert wanted("What is the time limit for returns?") is Want.DURATION
    assert wanted("Which email address should I write to?") is Want.LINK
    assert wanted("退款需要多久？") is Want.DURATION
    assert wanted("可以退货吗？") is Want.YES_NO
    assert wanted("Which company runs the payment service?") is Want.NAME
    assert wanted("Which courts hear disputes?") is Want.NAME
    assert wanted("Which plan costs 10?") is Want.SENTENCE
    assert wanted("What phone number can I call?") is Want.NUMBER
    assert wanted("What version number is current?") is Want.NUMBER
    assert wanted("By when must the data be deleted?") is Want.DATE
    assert wanted("From when does that take effect?") is Want.DATE
    assert wanted("How many phone number masks can I have?") is Want.NUMBER
    assert wanted("What was the most Mozilla could be liable for?") is Want.NUMBER


def test_a_date_is_looked_for_only_with_a_now() -> None:
    sentence = "It took effect on February 1, 2024."
    assert short_answer("When did it take effect?", sentence) == sentence
    assert short_answer("When did it take effect?", sentence, now=NOW) == "February 1, 2024"


QUESTIONS = st.sampled_from([
    "How many days do I have?", "How long does it take?", "How much is it?", "Who is it?",
    "When was it?", "Is it open?", "多少天？", "多久？", "多长？", "几枚金牌？", "什么时候？",
    "谁？", "How tall is it?", "What is the longest period?", "最短期限是多久？",
    "How much notice is given?", "Where can I find it?", "在哪里可以查看？",
    "Which plan costs 10?", "Who runs it?", "Which company runs it?", "Which account?",
    "What phone number can I call?", "What version number is it?", "By when?",
    "帐户资料会保存多久？", "举了哪些例子？", "Which section applies?", "Which article?",
    "Which US states?",
    "Which terms govern GitHub's app?", "多少公里？", "多少个电子邮箱别名？",
    "How long does the a_b cookie last?", "具体包括哪些？", "What does it include?",
    "How soon is it suspended?", "Below what age?", "How old must I be?",
    "How many phone number masks?", "多快？", "列在哪几节？", "What lawful basis applies?",
    "Which services does it name?", "What kinds of data?", "Which item number covers it?",
    "第几项？", ""])
PIECES = st.sampled_from(["10", "-", "–", "14", " days", " business", "$", "5", " to ", "%",
                          "天", "个工作日", "万", "枚", "金牌", "Dr.", " Maria", " Keller", " and ",
                          "2024年", "1月1日", "February 1, 2024", ", ", "。", "at least ", "\n",
                          "三年", "十", "two weeks", " months", "https://", "www.", "x.org/a",
                          " or ", "Name of Plan", ": ", "; ", "Price", " for the duration of",
                          " for as long as", " within its", " window", " period", "在您使用",
                          "期间", "只要", "直至", "为止", "1-800-555-0199", " Version 1.2",
                          " of ", "Example B.V.", " Account", "Mullvad. ", "The City",
                          " for ", "GitHub’s", "Section 22581", "数据类型", " ; ", "示例",
                          "帐户 ID、会话 ID", " Colorado", ", or Virginia", "公里", "公斤",
                          "个", "电子邮箱", "别名", "Expiration", "保留期限", "one year",
                          "、", "until user closes browser", "immediately", " effective",
                          "Sections ", "D.4", " — ", "第十二条", "Section H", "B(5)", "(5)",
                          "Article IV", " Section ", "promptly", " and notify ",
                          "without undue delay", "Consent where ", "Legitimate interest in ",
                          " such as ", " including ", " like ",
                          "under ", "the age of ", " years of age", " or older", "unlimited ",
                          " number of ", "no ", " masks", "不限数量的", "立即", "岁",
                          "(1) ", "(4 ) ", "（2）", "(b)", "(iv) ", "provider(s)"])


@settings(deadline=None, max_examples=200)
@given(question=st.one_of(QUESTIONS, st.text(max_size=40)),
       sentence=st.one_of(st.lists(PIECES, max_size=20).map("".join), st.text(max_size=120)))
def test_any_answer_is_a_span_of_its_sentence(question: str, sentence: str) -> None:
    assert isinstance(wanted(question), Want)
    answer = short_answer(question, sentence, now=NOW)
    assert answer == answer.strip() and answer in sentence
