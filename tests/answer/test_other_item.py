"""The item of a list a question leaves out when it names the others and asks for another,
and the line of a list that answers when the question sets one item aside
(``answer.other_item`` through ``answer.evidence.best_sentence``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.evidence import best_sentence
from chronorag.answer.other_item import aside_item, asks_other, other_item, set_aside
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


SUCCESSOR = ["Name of the deceased account holder",
             "GitHub username of the deceased account holder",
             "Your relationship to the deceased account holder",
             "If designated as account successor, the username of your GitHub account",
             "What action you are seeking (e.g. transfer public repositories)"]
PURPOSES = ["We use the Candidate Personal Information for the following purposes:",
            "To communicate with you about your application, including other opportunities;",
            "If you are offered a position, to prepare your offer letter and conduct a "
            "background check;",
            "If you are offered a position and where requested by you, to assist you with "
            "obtaining an immigration visa or work permit;"]
SUCCESSOR_ASKED = ("I'm the designated account successor of a user who died. Apart from my "
                   "relationship to them, what detail about my own account should I include?")
PURPOSES_ASKED = ("Apart from helping with a visa or work permit, what did the candidate "
                  "policy say my information would be used for once I was offered a position?")


@pytest.mark.parametrize(("question", "lines", "best", "answer"), [
    (SUCCESSOR_ASKED, SUCCESSOR, 2, 3),
    # A lead-in says nothing alone; of two items as close in words, the nearest.
    (PURPOSES_ASKED, PURPOSES, 3, 2),
])
def test_the_line_beside_the_item_set_aside_answers(question: str, lines: list[str],
                                                    best: int, answer: int) -> None:
    assert best_sentence(question, _chunk(lines), best) == lines[answer]


def test_in_running_prose_the_set_aside_sentence_stays() -> None:
    # "Aside from firebox, what is another name …": prose says both in one breath.
    prose = " ".join(SUCCESSOR)
    sentences, at = [], 0
    for i, line in enumerate(SUCCESSOR):
        sentences.append(Sentence("d", i, at, at + len(line), line))
        at += len(line) + 1
    chunk = Chunk("d#0", "d", 0, 0, len(prose), prose, tuple(sentences))
    assert best_sentence(SUCCESSOR_ASKED, chunk, 2) == SUCCESSOR[2]


@pytest.mark.parametrize("question", [
    # Nothing set aside.
    "What detail about my own account should I include as the designated successor?",
    # The best line is not about what is set aside.
    "Apart from the repositories, what detail about my own account should I include as "
    "the designated successor?",
])
def test_otherwise_the_chosen_line_stays(question: str) -> None:
    assert best_sentence(question, _chunk(SUCCESSOR), 2) == SUCCESSOR[2]


@pytest.mark.parametrize(("question", "aside"), [
    ("Apart from my relationship to them, what detail should I include?",
     "my relationship to them"),
    ("Other than his scientific achievements what was Tesla famous for?",
     "his scientific achievements"),
    ("What other location did Apollo 1 test at besides Kennedy Space Center?",
     "Kennedy Space Center"),
    # A list named past its commas, up to the question word.
    ("Besides Google, Bing and DuckDuckGo, which providers are listed?",
     "Google, Bing and DuckDuckGo"),
    ("Mozilla Monitor 除了扫描我的信息有没有被泄露，还能帮我做什么？", "扫描我的信息有没有被泄露"),
    ("除了 Twilio 之外，还有哪家公司也是短信通知服务商？", "Twilio"),
    ("What else did the terms forbid?", None),
])
def test_what_a_question_sets_aside(question: str, aside: str | None) -> None:
    assert set_aside(question) == aside


@given(st.text(max_size=120), st.lists(st.text(max_size=40), min_size=1, max_size=8),
       st.integers(min_value=0, max_value=7))
def test_any_set_aside_question_and_lines_are_survived(question: str, lines: list[str],
                                                       best: int) -> None:
    chunk = _chunk(lines)
    set_aside(question)
    at = chunk.sentences[min(best, len(lines) - 1)]
    found = aside_item(question, at, chunk.sentences, line=lambda s: True)
    assert found is None or found in lines
