"""List answers from hand-made hits (``answer.listing``): which questions ask for a list,
which sentences give entries, in what order; no model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.evidence import to_evidence
from chronorag.answer.listing import asks_list, list_answer
from chronorag.flags import Flag
from chronorag.model import (
    Chunk,
    Document,
    Granularity,
    Hit,
    Interval,
    Mention,
    Query,
    Sentence,
)
from chronorag.people import Directory
from chronorag.understand import understand

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def years(a: int, b: int) -> Interval:
    return Interval(datetime(a, 1, 1, tzinfo=UTC), datetime(b + 1, 1, 1, tzinfo=UTC),
                    Granularity.YEAR)


def query(question: str) -> Query:
    understanding = understand(question, now=NOW, tz=UTC, people=Directory(), user=None)
    return Query(question, NOW, NOW, understanding)


def hit(doc: str, *facts: tuple[str, str, Interval], semantic: float = 0.9) -> Hit:
    sentences, at = [], 0
    for i, (text, phrase, interval) in enumerate(facts):
        where = text.index(phrase)
        sentences.append(Sentence(doc, i, at, at + len(text), text, (
            Mention(phrase, at + where, at + where + len(phrase), interval),)))
        at += len(text) + 1
    chunk = Chunk(f"{doc}#0", doc, 0, 0, at, " ".join(t for t, _, _ in facts),
                  tuple(sentences))
    return Hit(chunk, semantic, {"semantic": semantic, "combined": semantic})


CHANCELLORS = hit(
    "chancellors",
    ("Angela Merkel served as Chancellor of Germany from 2005 to 2021.", "from 2005 to 2021",
     years(2005, 2021)),
    ("Gerhard Schröder was Chancellor of Germany from 1998 to 2005.", "from 1998 to 2005",
     years(1998, 2005)),
    ("In 1990 Helmut Kohl won the first all-German election.", "1990", years(1990, 1990)),
    ("Konrad Adenauer was Chancellor of Germany from 1949 to 1963.", "from 1949 to 1963",
     years(1949, 1963)),
)


def answer(question: str, *hits: Hit) -> str | None:
    docs = {h.chunk.doc_id: Document(h.chunk.doc_id, text=h.chunk.text) for h in hits}
    items = [to_evidence(h, docs[h.chunk.doc_id], question=question) for h in hits]
    decision = list_answer(query(question), hits, items, min_semantic=0.05)
    if decision is not None:
        assert decision.flags == (Flag.LISTED,)
    return None if decision is None else decision.answer


@pytest.mark.parametrize(("question", "asks"), [
    ("Who were the chancellors of Germany between 1998 and 2010?", True),
    ("Which clubs did he play for after 2012?", True),
    ("List all chancellors before 2000.", True),
    ("1998年到2010年间，德国总理都有谁？", True),
    ("2020年以来有哪些新规定？", True),
    ("Who was the chancellor in 2000?", False),
    ("What status did Jorge Cori achieve in 2004?", False),
    ("What postal address did GitHub give in 2021?", False),
    ("How many days do I have to return an item?", False),
])
def test_which_questions_ask_for_a_list(question: str, asks: bool) -> None:
    assert asks_list(question) is asks


def test_entries_in_time_order_from_sentences_that_meet_the_period() -> None:
    assert answer("Who were the chancellors of Germany between 1998 and 2010?", CHANCELLORS) \
        == "Gerhard Schröder (from 1998 to 2005); Angela Merkel (from 2005 to 2021)"
    # The election sentence states 1990 but names no chancellor: it shares no word asked.
    assert answer("Who were the chancellors of Germany before 1995?", CHANCELLORS) is None


def test_no_list_without_a_period_or_for_a_singular_question() -> None:
    assert answer("Who were the chancellors of Germany?", CHANCELLORS) is None
    assert answer("Who was the chancellor of Germany between 1998 and 2010?",
                  CHANCELLORS) is None


def test_an_irrelevant_or_inapplicable_item_gives_no_entry() -> None:
    weak = hit("other", ("Olaf Scholz was Chancellor of Germany from 2021 to 2025.",
                         "from 2021 to 2025", years(2021, 2025)), semantic=0.01)
    assert answer("Who were the chancellors of Germany after 2000?", CHANCELLORS, weak) == \
        "Gerhard Schröder (from 1998 to 2005); Angela Merkel (from 2005 to 2021)"


@given(st.text(max_size=80), st.text(max_size=80))
def test_any_text_gives_a_span_of_it_or_no_list(question: str, sentence: str) -> None:
    text = f"{sentence} from 1998 to 2005." if sentence.strip() else "x from 1998 to 2005."
    second = "Later Angela Merkel held it from 2005 to 2021."
    found = answer(question, hit("d", (text, "from 1998 to 2005", years(1998, 2005)),
                                 (second, "from 2005 to 2021", years(2005, 2021))))
    if found is not None:
        assert found.split(" (")[0].split("（")[0] in f"{text} {second}"
