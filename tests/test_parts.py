"""Questions that compare times are answered per time (``chronorag.parts``): each part
retrieved and answered at its own time, the answer listing each part under its time."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.engine import Engine
from chronorag.model import Asking, Query, Relation
from chronorag.parts import comparison_entities, comparison_times, part_query
from chronorag.people import Directory
from chronorag.understand import understand

from .conftest import VERSIONS_NOW as NOW


@pytest.fixture
def engine(versions_engine: Engine) -> Engine:
    return versions_engine


@pytest.mark.parametrize(("question", "times"), [
    ("How did the return window change between 2022 and 2024?", ["2022", "2024"]),
    ("Compare the return window in 2025 and 2023.", ["2023", "2025"]),
    ("2023年和2025年的退货期限有什么不同？", ["2023年", "2025年"]),
    ("对比2023年和2025年的退货期限", ["2023年", "2025年"]),
    ("Who held the office between 1998 and 2010?", []),  # a range, no comparison
    ("与2022年相比，2023年GDP增长了多少？", []),  # one value, said against another
    ("When did the return window change, in 2022 or 2024?", []),  # asks a time
    ("How did the return window change in 2024?", []),  # one time
])
def test_which_questions_compare_which_times(engine: Engine, question: str,
                                             times: list[str]) -> None:
    query = engine.query(question, Asking(now=NOW))
    assert [label for label, _ in comparison_times(query)] == times


def test_each_part_is_answered_at_its_own_time(engine: Engine) -> None:
    answer = engine.ask("Compare the return window in 2023 and 2025.", now=NOW).to_json()
    parts = answer["parts"]
    assert [(p["time"], p["evidence"]["doc_id"]) for p in parts] == [
        ("2023", "returns-2022"), ("2025", "returns-2024")]
    assert answer["status"] == "answered"
    assert answer["answer"] == "2023: 60 days; 2025: 45 days"
    # Each part's answer is a span of that part's evidence.
    for part in parts:
        assert part["answer"] in part["evidence"]["text"]
    assert parts[0]["start"] == "2023-01-01T00:00:00+00:00"


def test_a_range_is_compared_at_its_two_ends(engine: Engine) -> None:
    answer = engine.ask("How did the return window change between 2022 and 2024?", now=NOW)
    assert answer.answer == "2022: 60 days; 2024: 45 days"


@given(st.integers(2000, 2030))
def test_a_part_is_about_the_state_at_its_end_or_now(year: int) -> None:
    text = f"What was the window in {year}?"
    query = Query(text, NOW, NOW, understand(text, now=NOW, tz=UTC, people=Directory()))
    interval = query.understanding.time_expressions[0].interval
    asked = part_query(query, interval)
    assert asked.constraint.relation is Relation.IN and asked.constraint.interval == interval
    assert interval.end is not None
    expected = NOW if interval.contains(NOW) else interval.end - timedelta(microseconds=1)
    assert asked.as_of == expected and interval.contains(asked.as_of)


@given(st.text(max_size=160))
def test_any_question_is_split_into_at_most_its_times(text: str) -> None:
    query = Query(text, NOW, NOW, understand(text, now=NOW, tz=UTC, people=Directory()))
    times = comparison_times(query)
    assert len(times) <= max(2, len(query.understanding.time_expressions))
    for _, interval in times:
        assert interval.contains(part_query(query, interval).as_of)


def _query(question: str, **fields: object) -> Query:
    understanding = understand(question, now=NOW, tz=UTC, people=Directory(), user=None)
    return Query(question, NOW, NOW, understanding, **fields)  # type: ignore[arg-type]


DECLARED = {"region": ("CN", "EU", "HK", "US"), "segment": ("business", "consumer")}
REGIONS = [{"term": t, "asset_id": "dim_region.region_name", "asset_type": "column",
            "matched": t} for t in ("华东", "华北")]
GMV = {"term": "GMV", "asset_id": "gmv_v2", "asset_type": "metric", "matched": "gmv"}


@pytest.mark.parametrize(("question", "bindings", "parts"), [
    ("Compare the return window for EU and US customers.", [],
     [("region: EU", "the return window for EU customers.", {"region": "EU"}),
      ("region: US", "the return window for US customers.", {"region": "US"})]),
    ("How does support differ for business and consumer customers?", [],
     [("segment: business", "How does support differ for business customers?",
       {"segment": "business"}),
      ("segment: consumer", "How does support differ for consumer customers?",
       {"segment": "consumer"})]),
    ("对比华东和华北的 GMV 趋势", [*REGIONS, GMV],
     [("华东", "华东的 GMV 趋势", {}), ("华北", "华北的 GMV 趋势", {})]),
    ("What is the return window for EU customers?", [], []),  # compares nothing
    ("Compare the EU return window with the one of Europe.", [], []),  # one value
    ("华东 GMV 趋势对比", [REGIONS[0], GMV], []),  # one region
])
def test_which_questions_compare_which_entities(
        question: str, bindings: list[dict[str, str]],
        parts: list[tuple[str, str, dict[str, str]]]) -> None:
    found = comparison_entities(_query(question), conditions=lambda: DECLARED,
                                bindings=bindings)
    assert [(p.label, p.query.text, dict(p.query.context)) for p in found] == parts


def test_an_entity_part_keeps_the_askers_other_attributes() -> None:
    query = _query("Compare the return window for EU and US customers.",
                   context={"segment": "business", "region": "EU"})
    [eu, us] = comparison_entities(query, conditions=lambda: DECLARED, bindings=[])
    assert dict(us.query.context) == {"segment": "business", "region": "US"}
    assert eu.query.as_of == query.as_of and eu.query.user == query.user


@given(st.text(max_size=60))
def test_any_question_is_split_into_named_entities_only(text: str) -> None:
    found = comparison_entities(_query(f"compare {text}"), conditions=lambda: DECLARED,
                                bindings=[])
    for part in found:
        assert part.label.split(": ")[1].lower() in f"compare {text}".lower()
