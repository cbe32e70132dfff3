"""The code a question asks for (``answer.codes``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.codes import named_code, number_code
from chronorag.answer.shape import short_answer

CITES = ("If this software is acquired under a government contract, its use is subject to "
         "subdivision (c)(1)(ii) of the Rights in Technical Data clause at 252.227-7013 "
         "(DOD contracts); subdivisions (a) through (d) of 52.227-19 (Civilian agency "
         "contracts); and the applicable Schedule Contract (GSA contracts).")
DECISION = ("We use the standard contractual clauses published by the European Commission "
            "under Commission Implementing Decision 2021/914 to protect your data.")


@pytest.mark.parametrize(("question", "code"), [
    ("A civilian agency buys the app under a government contract. Which clause number do "
     "the terms cite for civilian agency contracts?", "52.227-19"),
    # The case says "agency" too, which the other code's label shares: the asking
    # sentence decides.
    ("A defense agency buys the app under a government contract. Which clause number do "
     "the terms cite for DOD contracts?", "252.227-7013"),
])
def test_the_code_labelled_by_the_asking_sentences_words_answers(question: str,
                                                                 code: str) -> None:
    assert number_code(question, CITES) == code
    assert short_answer(question, CITES) == code


def test_a_code_written_after_its_label_is_still_the_labelled_whole() -> None:
    sentence = "The rules are set out in Section 1798.83 of the Civil Code."
    assert short_answer("Which section of the Civil Code is it?", sentence) == "Section 1798.83"


@pytest.mark.parametrize(("question", "sentence"), [
    # Years joined by a hyphen are no jersey number.
    ("What jersey number did he wear?", "He wore the jersey for the 1990-91 season."),
    # A citation asked by its name, not its number; a decimal is no article.
    ("What article was published in 1937?", "Harvard's $37.6 billion endowment is the largest."),
    ("河北省哪条高速公路因大雾封闭？", "2022年，长沙、西安、福州和武汉增速分别为4.5%、4.4%。"),
    # A range is no code.
    ("Which clause number covers efficiency?", "The engine reaches 27-30 percent efficiency."),
])
def test_a_number_not_asked_as_a_citations_is_no_code(question: str, sentence: str) -> None:
    assert short_answer(question, sentence) == sentence


@pytest.mark.parametrize("question", [
    "The statement said it used standard contractual clauses, published under which "
    "Commission Implementing Decision?",
    "The notice cites a European Commission decision for its clauses. What is that "
    "decision's number?",
])
def test_the_code_after_the_name_asked_answers(question: str) -> None:
    assert named_code(question, DECISION) == "2021/914"
    assert short_answer(question, DECISION) == "2021/914"


@pytest.mark.parametrize(("question", "sentence"), [
    # No code after the name asked.
    ("Under which Commission Implementing Decision?", "We rely on the Commission's decision."),
    # A name written in other capitals is another name.
    ("Under which Commission Implementing Decision?",
     "Under commission implementing decision 2021/914."),
    # Neither a which-name nor a number asked.
    ("What protects my data?", DECISION),
])
def test_no_code_is_named(question: str, sentence: str) -> None:
    assert named_code(question, sentence) is None


def test_a_sentence_citing_no_code_gives_none() -> None:
    assert number_code("Which clause number applies?", "The clause at the end applies.") is None


_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=160)


@given(question=_TEXT, sentence=_TEXT)
def test_a_code_is_a_piece_of_the_sentence(question: str, sentence: str) -> None:
    for found in (number_code(question, sentence), named_code(question, sentence)):
        assert found is None or (found and found in sentence)
