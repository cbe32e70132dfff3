from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.retrieve.glossary import concepts, english_words, gloss, stem


def test_a_chinese_word_is_read_as_the_stems_of_its_first_senses():
    assert gloss("政策") == {"polici"}
    assert {"accept"} <= gloss("接受")
    assert gloss("不是一个词语啊") == frozenset()


def test_a_later_sense_and_a_cross_reference_are_not_read():
    # 打 has dozens of senses; only the first three are read, and none is a pointer to
    # another entry ("see ..." or "variant of ...").
    assert 0 < len(gloss("打")) < 12
    assert not any(word in {"see", "variant"} for word in gloss("打"))


def test_english_words_are_stemmed_without_stop_words():
    assert english_words("The Policies apply to users") == ["polici", "appli", "user"]
    assert stem("acceptable") == stem("accept")


def test_a_mixed_text_gives_one_concept_per_word():
    got = concepts("违反 Mozilla 的可接受使用政策, and policies")
    assert frozenset({"mozilla"}) in got
    assert frozenset({"polici"}) in got
    assert sum(1 for c in got if c == frozenset({"polici"})) == 2
    assert all(c for c in got)  # stop words and unknown words give no concept


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_gives_concepts_of_lowercase_stems(text):
    for concept in concepts(text):
        assert concept
        assert all(word == word.lower() and word.strip() == word for word in concept)


def test_the_words_that_title_policies_have_the_senses_the_dictionary_lacks():
    assert {"claus", "term"} <= gloss("条款")
    assert {"statement", "notic"} <= gloss("声明")
