"""Chinese coverage: relations and references (open intervals), and properties of the
Chinese rules for times of day, bare months and days, era years and week numbers."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.timex import parse, parse_one, sentence_mentions

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
FAST = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "200")), deadline=None)


def _day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(("text", "start", "end"), [
    ("2018年以前", None, "2018-01-01"),
    ("自2018年以来", "2018-01-01", None),
    ("2010年1月10日或之前", None, "2010-01-11"),
    ("2015年1月1日及之后", "2015-01-01", None),
    ("07年以后", "2008-01-01", None),
])
def test_relations_open_one_side(text: str, start: str | None, end: str | None) -> None:
    interval = parse_one(text, now=NOW).interval
    assert interval.start == (start and _day(start))
    assert interval.end == (end and _day(end))


@pytest.mark.parametrize(("text", "start", "end"), [
    ("目前", "2026-11-30", "2026-12-01"),
    ("现在", "2026-11-30", "2026-12-01"),
    ("如今", "2026-11-30", "2026-12-01"),
    ("过去", None, NOW.isoformat()),
    ("近年来", None, NOW.isoformat()),
    ("将来", NOW.isoformat(), None),
])
def test_references(text: str, start: str | None, end: str | None) -> None:
    [found] = parse(text, now=NOW)
    assert found.interval.start == (start and datetime.fromisoformat(start).replace(tzinfo=UTC))
    assert found.interval.end == (end and datetime.fromisoformat(end).replace(tzinfo=UTC))


@pytest.mark.parametrize("text", ["三年半过去了", "过去三天", "未来三年", "嫦娥六号", "两点建议"])
def test_no_reference_or_day_inside_other_words(text: str) -> None:
    assert all(e.interval.end is not None and e.interval.start is not None
               for e in parse(text, now=NOW))
    assert "六号" not in [e.text for e in parse(text, now=NOW)]


def test_era_years_are_found_at_ingest() -> None:
    text = "民国三年，康熙二十年。"
    [mentions] = sentence_mentions(text, [(0, len(text))])
    assert [(m.text, m.interval.start.year) for m in mentions] == [("民国三年", 1914),
                                                                   ("康熙二十年", 1681)]


PIECES = st.sampled_from(["今晚", "明天", "下午", "中午", "夜里", "凌晨", "五点", "一刻", "半",
                          "到", "至", "6", "12", "29", ":", "：", "00", "点", "分", "钟", "月",
                          "日", "号", "年", "08", "98", "民国", "康熙", "元", "三", "十",
                          "九", "世纪", "年代", "的", "第", "周", "週", "禮拜", "个", "個",
                          "小时", "上", "下", "本", "去年", "前", "最后", "季度", "Q", "半年",
                          "半月", "春", "天", "目前", "过去", "未来", "马上", "或之前", "以后"])


@FAST
@given(st.lists(PIECES, max_size=8).map("".join), st.text(max_size=4))
def test_chinese_pieces_never_crash(text: str, noise: str) -> None:
    for candidate in (text, noise + text, text + noise):
        for found in parse(candidate, now=NOW):
            assert candidate[found.start:found.end] == found.text
            if found.interval.start is not None and found.interval.end is not None:
                assert found.interval.start < found.interval.end
        sentence_mentions(candidate, [(0, len(candidate))])
