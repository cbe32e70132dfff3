import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.evaluate.metrics import (
    GoldEvidence,
    ShortAnswerVerdict,
    Span,
    answer_hit_ranks,
    contains_sequence,
    evidence_hit_rank,
    evidence_rank,
    evidence_recall,
    gold_time,
    judge_short_answer,
    mean,
    normalize_tokens,
    percentile,
    recall_at,
    text_answer_right,
    time_answer_right,
)
from chronorag.model import Granularity


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


# --- evidence recall: spans (TimeQA) and whole documents (LoCoMo) -------------------------

def _hits(*doc_ids: str) -> list[Span]:
    return [Span(d, 0, 10) for d in doc_ids]


def test_document_evidence_recall_is_the_share_of_gold_documents_in_the_top_k() -> None:
    gold = GoldEvidence(docs=("D1:3", "D2:8"))
    hits = _hits("D1:1", "D1:3", "D1:3", "D4:2", "D2:8")
    assert evidence_recall(hits, gold, k=1) == 0.0
    assert evidence_recall(hits, gold, k=2) == 0.5
    # Two chunks of one gold document count once: distinct documents, not hits.
    assert evidence_recall(hits, gold, k=4) == 0.5
    assert evidence_recall(hits, gold, k=5) == 1.0
    assert evidence_recall(hits, gold, k=50) == 1.0
    assert evidence_rank(hits, gold) == 2


def test_span_evidence_recall_keeps_the_first_hit_rule() -> None:
    gold = GoldEvidence(spans=(Span("a", 100, 120), Span("b", 0, 5)))
    hits = [Span("c", 0, 50), Span("a", 110, 200), Span("b", 0, 50)]
    # Two gold spans, one found by rank 2: a hit (1.0), not a share (0.5).
    assert [evidence_recall(hits, gold, k=k) for k in (1, 2, 3)] == [0.0, 1.0, 1.0]
    assert evidence_rank(hits, gold) == evidence_hit_rank(hits, gold.spans) == 2


def test_evidence_recall_of_span_gold_equals_recall_at_over_ranks() -> None:
    gold = GoldEvidence(spans=(Span("a", 0, 5),))
    runs = [[Span("a", 0, 5)], [Span("b", 0, 5), Span("a", 3, 9)], [Span("b", 0, 5)]]
    ranks = [evidence_hit_rank(h, gold.spans) for h in runs]
    for k in (1, 2, 5):
        assert mean([evidence_recall(h, gold, k=k) for h in runs]) == recall_at(ranks, k)


def test_no_gold_evidence_scores_zero_and_no_values_have_no_mean() -> None:
    assert not GoldEvidence()
    assert evidence_recall(_hits("a"), GoldEvidence(), k=5) == 0.0
    assert evidence_rank(_hits("a"), GoldEvidence()) is None
    assert mean([]) is None
    assert mean([1.0, 0.0, 0.5]) == 0.5


# --- short answers ------------------------------------------------------------------------

SHORT_ANSWERS = [json.loads(line) for line in
                 (Path(__file__).parents[1] / "cases" / "short_answers.jsonl")
                 .read_text("utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("case", SHORT_ANSWERS,
                         ids=[f"{c['golds'][0]}|{c['answer']}" for c in SHORT_ANSWERS])
def test_short_answer_case(case: dict[str, Any]) -> None:
    tz = ZoneInfo(case["tz"]) if "tz" in case else UTC
    verdict = judge_short_answer(case["answer"], case["golds"],
                                 now=datetime.fromisoformat(case["now"]), tz=tz)
    assert verdict == ShortAnswerVerdict(case["right"], case["time_golds"]), case["why"]


def test_gold_time_is_one_whole_year_month_or_day() -> None:
    now = datetime(2023, 5, 8, tzinfo=UTC)
    day = gold_time("7 May 2023", now=now)
    assert day is not None and day.granularity is Granularity.DAY
    assert day.start == datetime(2023, 5, 7, tzinfo=UTC)
    for not_one_unit in ("2019 to 2021", "before 1981", "Q2 2023", "last week", "Melanie",
                         "three days", ""):
        assert gold_time(not_one_unit, now=now) is None, not_one_unit


def test_time_and_text_matching_directly() -> None:
    now = datetime(2023, 5, 8, tzinfo=UTC)
    may = gold_time("May 2023", now=now)
    assert may is not None
    assert time_answer_right("on 7 May 2023", may, now=now)
    assert not time_answer_right("in 2023", may, now=now)
    assert text_answer_right("adopted a dog named Max", "dog named Max")
    assert not text_answer_right("Max", "dog named Max")
    assert not text_answer_right("anything", "")  # an empty gold matches nothing


def test_a_stated_answer_time_is_judged_instead_of_the_text() -> None:
    from chronorag.evaluate.metrics import judge_short_answer
    from chronorag.model import Granularity, Interval

    now = datetime(2024, 1, 13, tzinfo=UTC)
    year = Interval(datetime(2018, 1, 1, tzinfo=UTC), datetime(2019, 1, 1, tzinfo=UTC),
                    Granularity.YEAR)
    text = '2018 ("five years ago", recorded on 16 July 2023)'
    # Read from its text, the first time is "five years ago" from the question's now: 2019.
    assert not judge_short_answer(text, ["2018"], now=now).right
    assert judge_short_answer(text, ["2018"], now=now, stated=year).right
