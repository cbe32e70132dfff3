"""The TempEval-3 scorer of benchmarks/timex_external.py on tiny hand-made gold."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from timex_external import gap_class, judge_en, judge_zh
from timex_scoring import Mention, match, score_doc, summary
from timex_systems import duration_value, infer_value, timex_value

NOW = datetime(1998, 2, 5, 10, 0)


def _m(start: int, end: int, value: str = "", **kw: object) -> Mention:
    return Mention(start, end, value=value, **kw)  # type: ignore[arg-type]


def test_strict_relaxed_and_value_counts() -> None:
    gold = [_m(0, 6, "1998-02-06"), _m(10, 20, "1998-Q1"), _m(30, 35, "P3D")]
    pred = [_m(0, 6, "1998-02-06"), _m(12, 20, "1998-Q2"), _m(40, 45, "1998")]
    tally, outcomes = score_doc(gold, pred, judge_en)
    assert (tally.gold, tally.pred, tally.strict, tally.relaxed, tally.value) == (3, 3, 1, 2, 1)
    s = summary(tally)
    assert round(s["relaxed_f1"], 4) == round(2 / 3, 4)
    assert s["value_acc"] == 0.5
    assert round(s["value_f1"], 4) == round(1 / 3, 4)
    assert [o.pred is not None for o in outcomes] == [True, True, False]


def test_matching_is_one_to_one_largest_overlap_first() -> None:
    gold = [_m(0, 10), _m(12, 20)]
    pred = [_m(5, 15)]  # overlaps both; the larger overlap (0-10: 5 chars) wins
    assert match(gold, pred, strict=False) == [(0, 0)]
    assert match(gold, [_m(0, 10), _m(0, 10)], strict=True) == [(0, 0)]


def test_timex_values_by_granularity() -> None:
    d = datetime(1998, 4, 1)
    cases = {"year": "1998", "quarter": "1998-Q2", "month": "1998-04", "day": "1998-04-01",
             "week": "1998-W14", "season": "1998-XX", "decade": "199", "century": "19",
             "hour": "1998-04-01T00:00"}
    for g, want in cases.items():
        assert timex_value(d, datetime(1999, 1, 1), g, NOW) == want
    assert timex_value(None, NOW, "day", NOW) == "PAST_REF"
    assert timex_value(NOW, None, "day", NOW) == "FUTURE_REF"
    assert timex_value(None, datetime(1981, 1, 1), "year", NOW) == ""
    assert duration_value(datetime(1995, 1, 1), datetime(1998, 1, 1), "year") == "P3Y"
    assert infer_value(datetime(1998, 7, 1), datetime(1998, 10, 1), NOW) == "1998-Q3"


def test_chinese_value_is_right_when_any_reading_matches() -> None:
    gold = _m(0, 3, "XXXX-XX-29", extra={"resolution": [
        {"timex": "XXXX-XX-29", "type": "date", "value": "2017-12-29"},
        {"timex": "XXXX-XX-29", "type": "date", "value": "2018-01-29"}]})
    judge = judge_zh(datetime(2018, 1, 22))
    assert judge(gold, _m(0, 3, "2018-01-29", lo="2018-01-29T00:00:00",
                          hi="2018-01-30T00:00:00"))
    assert not judge(gold, _m(0, 3, "2018-02-28", lo="2018-02-28T00:00:00",
                              hi="2018-03-01T00:00:00"))
    before = _m(0, 7, "2018", extra={"mod": "before", "resolution": [
        {"timex": "2018", "Mod": "before", "type": "daterange", "end": "2018-01-01"}]})
    assert judge(before, _m(0, 7, "", lo=None, hi="2018-01-01T00:00:00"))
    assert not judge(before, _m(0, 5, "2018", lo="2018-01-01T00:00:00",
                                hi="2019-01-01T00:00:00"))
    assert gap_class(before, "zh") == "open (before)"


def test_gap_classes_english() -> None:
    assert gap_class(Mention(0, 6, "Friday", "DATE", "1998-02-06"), "en") == "weekday"
    assert gap_class(Mention(0, 3, "now", "DATE", "PRESENT_REF"), "en") == "ref word"
    assert gap_class(Mention(0, 7, "April 7", "DATE", "1998-04-07"), "en") == "month-day"
    assert gap_class(Mention(0, 17, "the third quarter", "DATE", "1998-Q3"), "en") \
        == "quarter/fiscal"


_spans = st.lists(st.tuples(st.integers(0, 50), st.integers(1, 10)), max_size=8).map(
    lambda xs: [_m(a, a + n, "v") for a, n in xs])


@given(_spans, _spans)
def test_scores_are_bounded_and_matching_one_to_one(gold: list[Mention],
                                                    pred: list[Mention]) -> None:
    for strict in (True, False):
        pairs = match(gold, pred, strict)
        assert len({g for g, _ in pairs}) == len(pairs) == len({p for _, p in pairs})
    tally, _ = score_doc(gold, pred, judge_en)
    assert tally.value <= tally.relaxed <= min(tally.gold, tally.pred)
    assert tally.strict <= tally.relaxed
    assert all(0.0 <= v <= 1.0 for v in summary(tally).values())
