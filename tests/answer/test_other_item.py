"""The item of a list a question leaves out when it names the others and asks for another
(``answer.other_item`` through ``answer.evidence.best_sentence``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.evidence import best_sentence
from chronorag.answer.other_item import asks_other, other_item
from chronorag.model import Chunk, Sentence

PROVIDERS = ["Privacy notices of some search providers", "Google", "Microsoft (Bing)",
             "DuckDuckGo", "Amazon.com", "eBay.com", "Wikipedia", "Perplexity"]


def _chunk(lines: list[str]) -> Chunk:
    text = "\n".join(lines)
    sentences, at = [], 0
    for i, line in enumerate(lines):
        sentences.append(Sentence("d", i, at, at + len(line), line))
        at += len(line) + 1
    return Chunk("d#0", "d", 0, 0, len(text), text, tuple(sentences))


@pytest.mark.parametrize(("question", "item"), [
    ("Besides Google, Microsoft (Bing), DuckDuckGo, Amazon.com, eBay.com and Wikipedia, "
     "which search provider does the notice list?", "Perplexity"),
    ("除了 Google、Microsoft (Bing)、DuckDuckGo、Amazon.com、eBay.com 和 Wikipedia，还列了哪一家？",
     "Perplexity"),
])
def test_the_item_the_question_leaves_out_answers(question: str, item: str) -> None:
    assert best_sentence(question, _chunk(PROVIDERS), headings=[0]) == item


@pytest.mark.parametrize("question", [
    # No other one asked for: the best sentence stays.
    "Does the notice list Google and Microsoft (Bing)?",
    # Two items left out: no one of them is the answer.
    "Besides Google, Microsoft (Bing), DuckDuckGo and Amazon.com, which providers are listed?",
])
def test_otherwise_the_best_sentence_stays(question: str) -> None:
    chosen = best_sentence(question, _chunk(PROVIDERS), headings=[0])
    assert chosen in PROVIDERS[1:7]


def test_one_item_said_is_no_list() -> None:
    sentences = _chunk(["Google", "Perplexity"]).sentences
    assert asks_other("Besides Google, which one?")
    assert other_item("Besides Google, which one?", sentences[0], sentences,
                      said=lambda t: t == "Google") is None


@given(st.text(max_size=120), st.lists(st.text(max_size=40), min_size=1, max_size=8))
def test_any_question_and_lines_are_survived(question: str, lines: list[str]) -> None:
    chunk = _chunk(lines)
    found = best_sentence(question, chunk)
    assert found in chunk.text or found == chunk.text
