from hypothesis import given
from hypothesis import strategies as st

from chronorag.evaluate.metrics import (
    Span,
    answer_hit_ranks,
    contains_sequence,
    evidence_hit_rank,
    normalize_tokens,
    percentile,
    recall_at,
)


def test_normalize_strips_accents_and_case() -> None:
    assert normalize_tokens("Gerhard Schröder , 1998") == ["gerhard", "schroder", "1998"]


def test_answer_rank_is_token_sequence_not_substring() -> None:
    chunks = ["The Reggina side won", "He managed Reggina from 2004"]
    assert answer_hit_ranks(chunks, ["Reggina"]) == 1
    # "gin" is inside "Reggina" as characters but not as a token.
    assert answer_hit_ranks(chunks, ["gin"]) is None
    assert answer_hit_ranks(["olney , maryland county"], ["Olney , Maryland"]) == 1


def test_evidence_rank_needs_overlap_in_same_doc() -> None:
    gold = [Span("a", 100, 120)]
    assert evidence_hit_rank([Span("b", 100, 120), Span("a", 119, 300)], gold) == 2
    assert evidence_hit_rank([Span("a", 0, 100), Span("a", 120, 200)], gold) is None


def test_recall_and_percentile() -> None:
    assert recall_at([1, 3, None, 10], 5) == 0.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([], 95) == 0.0


@given(
    st.lists(st.text(alphabet="ab ", max_size=5), max_size=6),
    st.text(alphabet="ab", min_size=1, max_size=3),
)
def test_contains_sequence_matches_naive(hay: list[str], needle_text: str) -> None:
    needle = list(needle_text)
    naive = any(hay[i : i + len(needle)] == needle for i in range(len(hay)))
    assert contains_sequence(hay, needle) == naive


def test_chinese_answers_are_found_inside_a_run_of_characters() -> None:
    chunks = ["他最喜欢的菜。", "特斯拉于１９４３年在纽约酒店去世。"]
    assert answer_hit_ranks(chunks, ["纽约酒店"]) == 2
    assert answer_hit_ranks(chunks, ["1943 年"]) == 2   # spaces and full-width digits fold
    assert answer_hit_ranks(chunks, ["1943"]) == 2      # a number before 年 is its own token
    assert answer_hit_ranks(chunks, ["约酒"]) == 2       # characters, not words, in Chinese
    assert answer_hit_ranks(chunks, ["上海"]) is None


def test_latin_tokens_are_unchanged_beside_chinese() -> None:
    assert normalize_tokens("iPhone5于2012年发布") == ["iphone5", "于", "2012", "年", "发", "布"]
