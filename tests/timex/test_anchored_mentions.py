"""Ingest reads a text's relative phrases at the text's own time (its reference time)."""

from __future__ import annotations

import itertools
import json
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.model import Granularity
from chronorag.timex import sentence_mentions
from chronorag.timex.pipeline import context, find

SAID = datetime(2023, 1, 20, 16, 4, tzinfo=UTC)  # a Friday


def _one(text: str, anchor: datetime | None = SAID, **kw: object) -> list[tuple[str, date, str]]:
    [mentions] = sentence_mentions(text, [(0, len(text))], anchor=anchor,
                                   **kw)  # type: ignore[arg-type]
    out = []
    for m in mentions:
        assert m.interval.start is not None and m.interval.granularity is not None
        out.append((m.text, m.interval.start.date(), m.interval.granularity.value))
    return out


@pytest.mark.parametrize(("text", "expected"), [
    ("Lost my job as a banker yesterday.", [("yesterday", date(2023, 1, 19), "day")]),
    ("I painted that lake sunrise last year!", [("last year", date(2022, 1, 1), "year")]),
    ("We met last Friday.", [("last Friday", date(2023, 1, 13), "day")]),
    ("Three weeks ago I started.", [("Three weeks ago", date(2022, 12, 26), "week")]),
    ("我上周五去了医院。", [("上周五", date(2023, 1, 13), "day")]),
    ("去年十月我们搬家了。", [("去年十月", date(2022, 10, 1), "month")]),
    ("今天中午吃了面。", [("今天中午", date(2023, 1, 20), "hour")]),
    ("On 7 May 2021 we married.", [("7 May 2021", date(2021, 5, 7), "day")]),
    ("I met the team again on the 15th after my trip.", [("the 15th", date(2023, 1, 15),
                                                          "day")]),
])
def test_relative_phrases_are_read_against_the_anchor(
        text: str, expected: list[tuple[str, date, str]]) -> None:
    assert _one(text) == expected


def test_a_relative_mention_keeps_its_anchor_and_an_absolute_one_has_none() -> None:
    text = "Yesterday, on 7 May 2021, we married."
    [mentions] = sentence_mentions(text, [(0, len(text))], anchor=SAID)
    assert [(m.text, m.anchor) for m in mentions] == [("Yesterday", SAID), ("7 May 2021", None)]


@pytest.mark.parametrize("text", [
    "I am currently a teacher.", "She is now the chair.", "目前我在北京工作。",
    "In the past I lived there.", "We left three days later.",
])
def test_phrases_that_do_not_date_a_statement_are_left_out(text: str) -> None:
    assert _one(text) == []


def test_without_an_anchor_only_absolute_phrases_are_read() -> None:
    assert _one("Lost my job yesterday, on 19 January 2023.", anchor=None) == [
        ("19 January 2023", date(2023, 1, 19), "day")]


def test_the_anchor_is_read_in_the_documents_time_zone() -> None:
    # 01:00 in Shanghai on the 20th is still the 19th in UTC: "yesterday" is the 19th there.
    shanghai = timezone(timedelta(hours=8))
    said = datetime(2023, 1, 19, 17, 0, tzinfo=UTC)
    assert _one("昨天去了医院。", anchor=said, tz=shanghai) == [
        ("昨天", date(2023, 1, 19), "day")]
    assert _one("昨天去了医院。", anchor=said) == [("昨天", date(2023, 1, 18), "day")]


def test_a_sentence_without_a_phrase_inherits_the_previous_one_with_its_anchor() -> None:
    text = "Lost my job yesterday. It was tough."
    _, second = sentence_mentions(text, [(0, 22), (23, len(text))], anchor=SAID)
    assert [(m.text, m.inherited, m.anchor) for m in second] == [("yesterday", True, SAID)]
    assert second[0].interval.granularity is Granularity.DAY


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=120), cuts=st.lists(st.integers(0, 120), max_size=3),
       anchor=st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30),
                           timezones=st.just(UTC)))
def test_anchored_mentions_never_raise(text: str, cuts: list[int], anchor: datetime) -> None:
    bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    spans = list(itertools.pairwise(bounds))
    result = sentence_mentions(text, spans, anchor=anchor)
    assert len(result) == len(spans)
    for (start, end), mentions in zip(spans, result, strict=True):
        for m in mentions:
            assert text[m.start:m.end] == m.text
            assert m.inherited or start <= m.start < m.end <= end


def _golden_texts() -> list[tuple[str, str]]:
    cases = Path(__file__).parents[1] / "cases"
    out = []
    for name, key in (("timex_parse.jsonl", "text"), ("understand_questions.jsonl", "question")):
        for line in (cases / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.append((row[key], row["now"]))
    return out


def test_scanning_at_word_starts_finds_what_scanning_every_position_finds() -> None:
    # Ingest tries the rules only where a word, number or Han character begins
    # (benchmarks/anchored_mentions.py: 4x the sentences a second); every golden text
    # must read the same.
    for text, now in _golden_texts():
        ctx = context(datetime.fromisoformat(now).replace(tzinfo=UTC), UTC)
        full = [(f.start, f.end, f.interval) for f in find(text, ctx)]
        fast = [(f.start, f.end, f.interval) for f in find(text, ctx, word_starts=True)]
        assert fast == full, text


def test_a_word_start_scan_does_not_read_inside_a_word() -> None:
    # Every position would read "coming fall" inside "upcoming fall 2011".
    text = "his upcoming fall 2011 campaign"
    ctx = context(SAID, UTC)
    assert [text[f.start:f.end] for f in find(text, ctx, word_starts=True)] == ["fall 2011"]


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=200))
def test_relative_phrases_never_raise_and_are_spans_of_the_text(text: str) -> None:
    from chronorag.timex import relative_phrases

    for phrase in relative_phrases(text):
        assert phrase and phrase in text
