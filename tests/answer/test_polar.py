"""The sentence that decides a yes/no question (``answer.polar``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.decide import decide
from chronorag.answer.polar import (
    asks_yes_no,
    decides,
    deciding,
    deciding_after_case,
    deciding_clause,
    negated,
    replies,
)
from chronorag.answer.shape import Want, short_answer, wanted
from chronorag.model import Evidence

from .test_decide import ev

AS_OF = datetime(2026, 6, 1, tzinfo=UTC)
RELAY_Q = ("Does Mozilla record or keep what is said on phone calls I make through my "
           "Firefox Relay phone mask?")
DESCRIBES = ("Firefox Relay allows you to keep your primary email address and phone number "
             "safe and private by making masks for your email address and phone number.")
DECIDES = "We do not monitor or store the content of phone calls you make through Firefox Relay."


def passage(doc_id: str, best: str, rest: str, *, sep: str = " ") -> Evidence:
    """An evidence item whose best sentence ``best`` is followed by ``rest`` in its text."""
    text = f"{best}{sep}{rest}"
    return ev(doc_id, best, text=text, end=len(text))


def test_a_passage_of_the_same_document_that_says_no_decides() -> None:
    items = [ev("relay", DESCRIBES, semantic=0.998, chunk_id="relay#0"),
             ev("relay", DECIDES, semantic=0.991, chunk_id="relay#3")]
    decision = decide(RELAY_Q, items, as_of=AS_OF)
    assert decision.answer == DECIDES
    assert decision.deciding[0].chunk_id == "relay#3"


def test_a_sentence_of_the_same_passage_that_says_no_decides() -> None:
    item = passage("relay", DESCRIBES, f"{DECIDES} Relay allows up to 50 minutes of calls a month.")
    chosen = deciding(RELAY_Q, item, [item])
    assert chosen.sentence == DECIDES
    assert decide(RELAY_Q, [item], as_of=AS_OF).answer == DECIDES


def test_another_document_never_decides() -> None:
    # One document keeps the version and validity the first passage was judged by.
    items = [ev("relay", DESCRIBES, semantic=0.998), ev("other", DECIDES, semantic=0.997)]
    assert decide(RELAY_Q, items, as_of=AS_OF).answer == DESCRIBES


def test_a_negation_sharing_fewer_words_than_the_best_sentence_stays_out() -> None:
    question = "Can I cancel my account at any time from my settings?"
    best = "You can cancel your account at any time from your settings page."
    item = passage("tos", best, "We cannot cancel an account in response to a phone request.")
    assert decide(question, [item], as_of=AS_OF).answer == best


def test_a_best_sentence_that_says_no_stays() -> None:
    best = "We do not record your phone calls."
    item = passage("relay", best, "We do not monitor or store the content of phone calls you make.")
    assert deciding(RELAY_Q, item, [item]) is item


def test_a_negation_needs_two_of_the_questions_words() -> None:
    question = "Does Firefox share my browsing history?"
    best = "Firefox shares my browsing history with partners when you opt in."
    item = passage("ff", best, "Firefox is not available on every device.")
    assert deciding(question, item, [item]) is item


def test_chinese_no_decides() -> None:
    question = "Firefox 内置 VPN 所用的代理服务器会收集我访问了哪些网站的数据吗？"
    best = "我们使用代表我们运营的代理服务器来提供 VPN 功能。"
    no = "该代理服务器不具备访问网页内容的能力，也不会收集您所访问网站或其内容的任何数据。"
    item = passage("ff-zh", best, no, sep="")
    assert decide(question, [item], as_of=AS_OF).answer == no


def test_what_counts_as_saying_no() -> None:
    assert negated("We do not sell your data.")
    assert negated("You can't transfer it.") and negated("You can’t transfer it.")
    assert negated("Mozilla cannot decrypt it.") and negated("Mozilla 无法解密此类信息。")
    assert negated("Mozilla 不会存储您的全部付款详情。")
    assert negated("您不得将本服务用于商业目的。") and not negated("您不得不接受这些条款。")
    # Words with 不 that do not negate the sentence, and "not" inside a word.
    assert not negated("保留不超过 30 天。") and not negated("不同的设备会同步。")
    assert not negated("Notices are sent by email.") and not negated("We keep a knot.")
    # A pronoun that says no, in lower case or opening the sentence; a capital inside a
    # sentence is a name.
    assert negated("Nothing in these Terms is intended to affect those rights.")
    assert negated("We share none of it.") and negated("No one else can read your notes.")
    assert not negated("2023年7月12日，Nothing Phone (2)正式发布。")
    assert not negated("Nobody") and not negated("Nonetheless, we keep it.")


_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=120)


@given(question=_TEXT, sentence=_TEXT, rest=st.lists(_TEXT, max_size=3))
def test_the_deciding_sentence_is_always_a_sentence_of_the_documents_passages(
        question: str, sentence: str, rest: list[str]) -> None:
    text = " ".join([sentence, *rest])
    first = ev("doc", sentence, text=text, end=len(text))
    others = [ev("doc", r, chunk_id=f"doc#{i + 1}") for i, r in enumerate(rest)]
    foreign = ev("elsewhere", "We do not keep what you say on calls.")
    chosen = deciding(question, first, [first, *others, foreign])
    assert chosen.doc_id == "doc"
    assert chosen is first or (chosen.sentence or "") in chosen.text
    # After a stated case, only the first passage's own sentences are read.
    after_case = deciding_after_case(question, first)
    assert after_case is first or (after_case.sentence or "") in first.text


PAY_Q = "我在 Mozilla 订阅了付费服务，Mozilla 会把我完整的付款信息都存下来吗？"
PREMISE = "当您订阅需要付费的服务时，您的付款将依据《Mozilla 订阅服务隐私声明》进行处理。"
RECEIVES = "Mozilla 收到您的帐户记录以及您的帐户订阅状态。"
STORES_NOT = "Mozilla 不会存储您的全部付款详情。"


def test_a_negation_just_after_a_premise_decides_with_fewer_shared_words() -> None:
    # The premise shares more of the question's words than the statement it leads into.
    item = passage("subs", PREMISE, f"{RECEIVES}{STORES_NOT}", sep="")
    assert deciding(PAY_Q, item, [item]).sentence == STORES_NOT


def test_a_negation_farther_than_reach_needs_as_many_words_as_the_premise() -> None:
    item = passage("subs", PREMISE, f"{RECEIVES}费用每月结算。账单每月寄出。{STORES_NOT}", sep="")
    assert deciding(PAY_Q, item, [item]).sentence == PREMISE


def test_a_contrast_after_the_grant_does_not_decide() -> None:
    question = "2025年3月时，Firefox 使用条款是否授予 Mozilla 处理我输入内容的许可？"
    grant = ("此外，这还授予 Mozilla 一项非独占、免版税、全球适用的许可，以便其能够按照您的请求"
             "处理您在 Firefox 中输入的内容。")
    item = passage("tou", grant, "但这并不赋予 Mozilla 对该内容的任何所有权。", sep="")
    assert deciding(question, item, [item]).sentence == grant


@pytest.mark.parametrize(("sentence", "says"), [
    ("Yes.", True), ("No, never.", True), ("Of course!", True), ("不可以。", True),
    ("是的。", True), ("We do not sell data.", True),
    ("Google", False), ("Nobody", False), ("30-Day Refund Policy.", False), ("隐私声明", False),
    ("对。", True), ("对于评分：", False),
])
def test_a_reply_says_yes_or_no_by_itself(sentence: str, says: bool) -> None:
    assert replies(sentence) is says


@pytest.mark.parametrize("question", [
    "I bought the annual plan last week. Can I get my money back?",
    "Under the terms in force in 2021, did the company sell my data?",
    "In March 2024, if I turned off telemetry, would the app still send crash reports?",
    "When I email support about it, should I mention my order number?",
    "我上个月取消了订阅，这样算不算放弃了退款？",
    "The shop changed its terms. Do I have to accept them?",
])
def test_a_question_that_states_its_case_first_asks_yes_or_no(question: str) -> None:
    assert asks_yes_no(question)
    assert wanted(question) is Want.YES_NO


@pytest.mark.parametrize("question", [
    "I bought the annual plan. Is there a limit on how many devices I can use?",
    "Under the terms in force then, was it a temporary outage, or could it go away for good?",
    "Under the terms in force then, does the company sell which data?",
    "Metro Line 2, as built in 1980, had a stopping point situated where?",
    "The service, as described, has this place as its headquarters?",
    "In 2021, when did the company start selling data?",
    "客服会在什么情况下问我要不要发送额外信息？",
    "What does the policy say?",
    "",
])
def test_a_question_asking_for_something_else_is_no_yes_no(question: str) -> None:
    assert not asks_yes_no(question)


@given(st.text(max_size=200))
def test_asks_yes_no_reads_any_text(text: str) -> None:
    assert isinstance(asks_yes_no(text), bool)


SUMMARY = ("Otherwise, your page is sent to our server for processing and returned to your "
           "device; we do not store the page or the resulting summary.")
CONSENT = ("You have the right to access your data and withdraw your consent to its use "
           "(although an employee cannot withdraw consent to the data needed to run their "
           "employment).")


@pytest.mark.parametrize(("question", "sentence", "clause"), [
    ("My phone sends the page to your server. Do you keep the page or the summary?",
     SUMMARY, "we do not store the page or the resulting summary."),
    ("I was hired last year. Can I withdraw consent to the data needed for my employment?",
     CONSENT, "although an employee cannot withdraw consent to the data needed to run their "
     "employment"),
    ("我取消了订阅，当月的费用会退还吗？", "您可以随时取消订阅；我们不会退还当月的费用。",
     "我们不会退还当月的费用。"),
])
def test_the_clause_that_says_no_answers(question: str, sentence: str, clause: str) -> None:
    assert deciding_clause(question, sentence) == clause
    assert short_answer(question, sentence) == clause


@pytest.mark.parametrize(("question", "sentence"), [
    # The affirmative clause says the modal asked: it states what is asked.
    ("Can I cancel my plan at any time?",
     "You can cancel your plan at any time; we do not refund the current month."),
    # Every clause says no, or none does.
    ("Do you sell my data?", "We do not sell your data; we never rent it."),
    ("Do you keep my data?", "We keep your data for a year; then we delete it."),
    # The negated clause says too little of the question.
    ("Do you keep the page I summarize?",
     "Your page is sent to our server and returned to you; nothing else is not done."),
    ("Do you keep the page?", "A sentence with no clause at all is not split."),
])
def test_no_clause_is_chosen(question: str, sentence: str) -> None:
    assert deciding_clause(question, sentence) is None


@given(st.text(max_size=120), st.text(max_size=200))
def test_the_deciding_clause_is_a_part_of_the_sentence(question: str, sentence: str) -> None:
    clause = deciding_clause(question, sentence)
    assert clause is None or (clause and clause in sentence)


WARNS = "We will make a reasonable attempt to warn you via email prior to suspension."
TOKENS = "You may not share API tokens to get more API access."


def test_a_question_that_states_its_case_keeps_the_sentence_read_by_its_ask() -> None:
    # The words a question shares with a sentence are mostly its case's; the reranker read
    # the sentence that asks apart, so its choice stands.
    items = [ev("api", WARNS, semantic=0.99, chunk_id="api#0"),
             ev("api", TOKENS, semantic=0.98, chunk_id="api#1")]
    stated = "Our script was flagged for API access. Will you warn us before suspending it?"
    assert decide(stated, items, as_of=AS_OF).answer == WARNS
    # Asked outright, the negation sharing as many of its words is looked for (and here it
    # is the wrong sentence: the price of the rule for questions asked outright).
    outright = "Will you warn us before suspending our API access?"
    assert decide(outright, items, as_of=AS_OF).answer == TOKENS


RESELL_Q = "I have a paid VPN subscription. Am I allowed to resell access to it to other people?"
GRANTS = "If you have a paid subscription, Mozilla gives you permission to use the VPN."
PERSONAL = "This permission is only for your personal use."
RESELL_NOT = "You may not transfer, sublicense, resell, or commercially exploit the service."


def test_after_a_stated_case_a_negation_saying_a_word_of_the_ask_decides() -> None:
    item = passage("vpn", GRANTS, f"{PERSONAL} {RESELL_NOT}")
    assert deciding_after_case(RESELL_Q, item).sentence == RESELL_NOT
    assert decide(RESELL_Q, [item], as_of=AS_OF).answer == RESELL_NOT


def test_after_a_stated_case_a_negation_about_the_case_only_stays_out() -> None:
    # "subscription" and "paid" are the case's words, and the best sentence says them.
    item = passage("vpn", GRANTS, "A paid subscription is not refunded after 30 days.")
    assert deciding_after_case(RESELL_Q, item) is item


def test_after_a_stated_case_a_negation_farther_than_reach_stays_out() -> None:
    item = passage("vpn", GRANTS, f"{PERSONAL} Billing is monthly. {RESELL_NOT}")
    assert deciding_after_case(RESELL_Q, item) is item


def test_after_a_stated_case_only_the_best_passage_is_read() -> None:
    items = [ev("vpn", GRANTS, semantic=0.99, chunk_id="vpn#0"),
             ev("vpn", RESELL_NOT, semantic=0.98, chunk_id="vpn#1")]
    assert decide(RESELL_Q, items, as_of=AS_OF).answer == GRANTS


def test_after_a_stated_case_a_best_sentence_saying_the_modal_stays() -> None:
    question = "I signed up last week. Can I cancel the subscription at any time?"
    best = "You can cancel your subscription in your account settings."
    item = passage("vpn", best, "We cannot cancel it at any time by phone.")
    assert deciding_after_case(question, item) is item


def test_after_a_stated_case_a_pronoun_that_says_no_decides() -> None:
    question = "I use Firefox Focus. Do its Terms of Use take away any rights I have under my laws?"
    best = "You may have other rights under your own country's laws."
    nothing = "Nothing in these Terms is intended to affect those rights, if they apply."
    item = passage("focus", best, nothing)
    assert decide(question, [item], as_of=AS_OF).answer == nothing


COUNTS_Q = "Mozilla 更新了条款，我照常在用 Firefox。按照当时的条款，这样算不算接受了更新后的条款？"
UPDATES = "Mozilla 可能会每隔一段时间决定更新本条款。"
POSTS = "我们将在线发布更新后的条款。"
DEEMS = "我们会将您继续使用 Firefox 视为接受该等变更。"


def test_a_sentence_that_deems_decides_whether_something_counts_as_it() -> None:
    item = passage("tou", UPDATES, f"{POSTS}{DEEMS}", sep="")
    assert decide(COUNTS_Q, [item], as_of=AS_OF).answer == DEEMS


def test_a_sentence_that_deems_decides_only_what_counts_as_something() -> None:
    # Asked whether Mozilla posts the terms, a deeming sentence is one more description.
    question = "Mozilla 更新了条款。按照当时的条款，Mozilla 是否接受我的反馈？"
    item = passage("tou", UPDATES, f"{POSTS}{DEEMS}", sep="")
    assert deciding_after_case(question, item) is item


@pytest.mark.parametrize(("question", "sentence", "says"), [
    ("Does continued use count as acceptance?", "Continued use is deemed acceptance.", True),
    ("Does continued use count as acceptance?", "We post the updated terms online.", False),
    ("Does Mozilla post the terms?", "Continued use is deemed acceptance.", False),
    ("Does Mozilla post the terms?", "We do not post them.", True),
    ("这样算不算接受？", "我们会将您继续使用本服务视为接受该等变更。", True),
])
def test_what_decides(question: str, sentence: str, says: bool) -> None:
    assert decides(question, sentence) is says
