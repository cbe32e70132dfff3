"""A span of the wanted kind from the sentences beside the best one (``answer.nearby``)."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.nearby import answer_near, gives_asked_span

NOW = datetime(2026, 6, 1, tzinfo=UTC)
TEXT = ("Upon request, we will provide an Account owner with a copy of the Account contents "
        "after Account cancellation. You must make the request within 90 days of "
        "cancellation. Our offices are closed on public holidays.")
BEST = ("Upon request, we will provide an Account owner with a copy of the Account contents "
        "after Account cancellation.")


def test_the_next_sentence_gives_the_duration_the_best_one_lacks() -> None:
    question = "How long after cancellation can I ask for a copy of my account contents?"
    assert answer_near(question, BEST, TEXT, now=NOW) == "90 days"


def test_a_span_in_the_best_sentence_is_kept() -> None:
    best = "You must make the request within 90 days of cancellation."
    assert answer_near("How long do I have to ask?", best, TEXT, now=NOW) == "90 days"


def test_a_neighbour_sharing_no_word_with_the_question_gives_nothing() -> None:
    text = "We keep a copy of your data. The office is 30 metres from the station."
    question = "How long do you keep a copy of my data?"
    assert answer_near(question, "We keep a copy of your data.", text, now=NOW) == \
        "We keep a copy of your data."


def test_a_farther_sentence_gives_a_span_when_it_shares_two_words() -> None:
    text = ("You agree to indemnify Mozilla for any liability from your use of Firefox. "
            "Some Important Limitations. Mozilla will not be liable for any inability to use "
            "Firefox. Mozilla disclaims indirect damages. Any liability for Mozilla under "
            "this agreement is limited to $500.")
    best = "You agree to indemnify Mozilla for any liability from your use of Firefox."
    assert answer_near("What is the cap on Mozilla's liability?", best, text,
                       now=NOW) == "$500"
    # Past the neighbours one shared word is not enough: "Mozilla" alone names no cap.
    far = text.replace("Any liability for Mozilla under this agreement", "The Mozilla fee")
    assert answer_near("What is the cap on Mozilla's liability?", best, far,
                       now=NOW) == best


def test_an_email_address_is_taken_from_the_sentence_that_gives_it() -> None:
    text = ("Questions about this notice are welcome. Candidates may write to our data "
            "protection officer at dpo@example.com.")
    question = "Which email address should a candidate write to about this notice?"
    assert answer_near(question, "Questions about this notice are welcome.", text,
                       now=NOW) == "dpo@example.com"


def test_names_and_yes_no_questions_stay_with_the_best_sentence() -> None:
    assert answer_near("Can I get a copy of my account contents?", BEST, TEXT,
                       now=NOW) == BEST


@given(st.text(max_size=120), st.text(max_size=300))
def test_any_text_gives_a_span_of_itself_or_the_sentence(question: str, text: str) -> None:
    sentence = text[: len(text) // 2]
    said = answer_near(question, sentence, text, now=NOW)
    assert said == said.strip()
    assert said in text or said in sentence.strip() or said in sentence


def test_a_span_only_the_asked_thing_can_be() -> None:
    count = "How many user accounts is a single paid subscription valid for?"
    assert gives_asked_span(count, "It is valid for only one user account.", "", now=NOW)
    assert not gives_asked_span(count, "Pages hold up to 10 megabytes.", "", now=NOW)
    email = "Which email address can I write to?"
    assert gives_asked_span(email, "Write to cancel@example.com.", "", now=NOW)
    assert not gives_asked_span(email, "We may send you email.", "", now=NOW)
    version = "What version number did the terms have?"
    assert gives_asked_span(version, "Version 1.1, Effective May 24, 2023", "", now=NOW)
    assert gives_asked_span("Which section of the code applies?", "See Section 22581.", "",
                            now=NOW)
    # Durations and dates are any period's.
    assert not gives_asked_span("How long do I have to pay?", "Pay within 30 days.", "",
                                now=NOW)
    assert not gives_asked_span("When does it take effect?", "On May 1, 2026.", "", now=NOW)


def test_a_far_chinese_sentence_gives_nothing() -> None:
    # Character pairs share too easily: "联合政府" alone is three of them.
    best = "联合政府将执政至当前议会期满。"
    text = best + "双方进行了谈判。协议得到议会批准。选举结果公布。联合政府曾于 2008 年组建。"
    assert answer_near("联合政府将持续多久？", best, text, now=NOW) == best
