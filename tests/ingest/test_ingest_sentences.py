"""Sentence splitting: golden cases per language (tests/ingest/data/sentences_*.jsonl) and
the invariants of ``chronorag.ingest.sentences`` over arbitrary text."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.ingest.sentences import asked_sentence, ends_inside_sentence, split_sentences

DATA = Path(__file__).parent / "data"


def _cases(language: str) -> list[Any]:
    lines = (DATA / f"sentences_{language}.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [pytest.param(row, id=f"{language}-{i:02d}-{row['why']}") for i, row in enumerate(rows)]


@pytest.mark.parametrize("case", [*_cases("en"), *_cases("zh")])
def test_golden_sentences(case: dict[str, Any]) -> None:
    text = case["text"]
    assert [text[a:b] for a, b in split_sentences(text)] == case["sentences"]


def test_an_initialism_cut_needs_no_space_at_the_break() -> None:
    assert ends_inside_sentence("the EU-U.", "S. Data")
    assert not ends_inside_sentence("the EU-U. ", "S. Data")
    assert not ends_inside_sentence("in the U.S. ", "He works there.")


def test_a_suffix_abbreviation_may_end_a_sentence_before_a_capital() -> None:
    assert ends_inside_sentence("Acme LLC. ", "operates it.")
    assert not ends_inside_sentence("Acme LLC. ", "The company operates it.")
    assert ends_inside_sentence("Write to Mx. ", "Taylor.")


def test_markdown_layout_still_breaks_sentences() -> None:
    text = "## Data transfers\n\nGitHub complies with the EU-U.S. Data Privacy Framework.\n"
    assert [text[a:b] for a, b in split_sentences(text)] == [
        "## Data transfers", "GitHub complies with the EU-U.S. Data Privacy Framework."]


_PIECES = st.sampled_from([
    "U.S.", "EU-U.", "S.", "e.g.", "Mx.", "LLC.", "approx.", "“你好！”", "他说。", "第3.2条",
    "1.5亿", "v2.1.0", " ", "\n", "\n\n", "# ", "| ", "Dr.", "Wang", "the", "。", ".", "3",
    "a.m.", "Jan.", "\u3000", "”", "\t", "(d) ", "(iv) ", "（2）", "(12)"])
ABBREVIATED_TEXT = st.lists(_PIECES, max_size=40).map("".join)


@settings(deadline=None, max_examples=300)
@given(text=st.one_of(ABBREVIATED_TEXT, st.text(max_size=200)))
def test_every_non_space_character_is_in_exactly_one_span(text: str) -> None:
    spans = split_sentences(text)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(e1 <= s2 for (_, e1), (s2, _) in itertools.pairwise(spans))
    assert all(text[a:b] == text[a:b].strip() for a, b in spans)
    covered = "".join(text[a:b] for a, b in spans)
    assert "".join(covered.split()) == "".join(text.split())


@pytest.mark.parametrize(("question", "ask"), [
    ("I bought Pocket Premium through Google Play. Will Pocket refund me?",
     "Will Pocket refund me?"),
    ("Firefox 会把 DNS 请求交给解析器服务。这样做能额外防护哪些问题？",
     "这样做能额外防护哪些问题？"),
    ("In 1994 the Rams moved to St. Louis. Where did they play? Thanks.", "Where did they play?"),
    ("Do U.S. users get a refund?", None),
    ("Who published it? (Answer: Pyotr Pletnyov)", None),
    ("Tell me about refunds. I bought it in May.", None),
    ("", None),
])
def test_the_asking_sentence_is_the_last_question_after_a_premise(question: str,
                                                                  ask: str | None) -> None:
    assert asked_sentence(question) == ask


@given(st.text(max_size=120))
def test_the_asking_sentence_is_a_question_mark_sentence_of_the_text(text: str) -> None:
    ask = asked_sentence(text)
    assert ask is None or (ask in text and ask.endswith(("?", "？")))
