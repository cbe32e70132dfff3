"""Keys a question spells out (identifiers) and the sentence holding one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.named import holds, keys, named


def test_identifiers_and_quoted_terms_are_keys() -> None:
    assert keys("How long did GitHub's saml_csrf_token cookie last?") == ["saml_csrf_token"]
    assert keys("When does the _octo cookie expire?") == ["_octo"]
    assert keys("What is __Host-user_session_same_site for?") == [
        "__Host-user_session_same_site"]
    assert keys("我的saml_csrf_token是什么？") == ["saml_csrf_token"]


def test_plain_words_and_quoted_terms_are_no_keys() -> None:
    assert keys("How long do you keep my data?") == []
    assert keys('How many "Shine the Light" requests must a business answer?') == []
    assert keys("Mozilla 帐户隐私声明里的“联系人数据”具体包括哪些？") == []
    assert keys("x _ y, a_ and 1_2") == []


def test_an_identifier_is_held_as_a_whole_token() -> None:
    assert holds("Cookie Name: saml_csrf_token; Expiration: session", "saml_csrf_token")
    assert not holds("Cookie Name: saml_csrf_token_legacy;", "saml_csrf_token")
    assert not holds("Cookie Name: xsaml_csrf_token;", "saml_csrf_token")


def test_only_one_sentence_holding_a_key_replaces_a_choice_holding_none() -> None:
    rows = ["Name: a_b; Expiry: one hour", "Name: c_d; Expiry: one year",
            "Name: c_d_e; Expiry: session"]
    assert named("When does c_d expire?", rows[0], rows) == rows[1]
    assert named("When does c_d expire?", rows[1], rows) is None
    assert named("When does x_y expire?", rows[0], rows) is None
    assert named("When do a_b and c_d expire?", rows[2], rows) is None


@given(question=st.text(max_size=80), sentences=st.lists(st.text(max_size=80), max_size=5))
def test_any_text_is_read_and_the_answer_is_one_of_the_sentences(
        question: str, sentences: list[str]) -> None:
    assert all(k and k in question for k in keys(question))
    found = named(question, sentences[0] if sentences else "", sentences)
    assert found is None or found in sentences
