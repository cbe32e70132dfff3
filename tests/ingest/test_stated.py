"""Dates and predecessors a text states: golden cases (English and Chinese) and any text."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.ingest.stated import Proposal, is_date_line, proposals_of, propose

CASES = [json.loads(line) for line in
         (Path(__file__).parents[1] / "cases" / "stated" / "proposals.jsonl")
         .read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case: dict[str, Any]) -> None:
    found = propose(case["text"])
    assert [(p.field, p.value, p.granularity) for p in found] == [
        (e["field"], e["value"], e["granularity"]) for e in case["expect"]]
    for proposal, expected in zip(found, case["expect"], strict=True):
        assert case["text"][proposal.start:proposal.end] == proposal.sentence
        if "sentence" in expected:
            assert proposal.sentence == expected["sentence"]


def test_proposals_round_trip_through_metadata() -> None:
    found = propose("Effective date: February 1, 2024\n\nThis replaces the Old Policy.")
    kept = {"_proposed": [p.to_json() for p in found]}
    assert proposals_of(json.loads(json.dumps(kept))) == found
    assert proposals_of({"_proposed": [{"field": "valid_from"}, 3]}) == ()
    assert proposals_of({}) == ()


ANY = st.characters(exclude_categories=("Cs",))
STEERING = st.sampled_from(["Effective date: ", "Last updated ", "生效日期：", "施行", "自",
                            "起", "修订于", "replaces ", "《", "》", "同时废止", "年", "月", "日",
                            "\n", "**", "> ", "February 1, 2024", "2024", "-", ":", "。",
                            # Lines past the top, where a date label line is read alone.
                            "\n" * 9, "x\n" * 9, "Updated: ", "修订日期："])
TEXT = st.lists(st.one_of(ANY, STEERING), max_size=200).map("".join)


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=None)
@given(text=TEXT)
def test_any_text_gives_proposals_that_quote_it(text: str) -> None:
    for proposal in propose(text):
        assert isinstance(proposal, Proposal)
        assert text[proposal.start:proposal.end] == proposal.sentence
        assert proposal.field in ("valid_from", "modified_at", "supersedes")
        assert proposal.value


def test_a_date_line_is_a_date_label_with_its_value() -> None:
    for line in ["Effective date: November 16, 2020", "**Last Updated:** June 2025",
                 "> Last updated: October 20, 2025", "生效日期：2024年2月1日"]:
        assert is_date_line(line), line
    for line in ["In order to use Marketplace, you must be 13 years of age or older.",
                 "These terms are effective immediately.",
                 "Effective date: " + "the day after the long list of conditions is met " * 3]:
        assert not is_date_line(line), line


@given(st.text(max_size=200))
def test_any_text_is_a_date_line_or_not(text: str) -> None:
    assert is_date_line(text) in (True, False)
