"""The document a question names by its title decides first (``answer.titled``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.answer.test_decide import ev

from chronorag.answer.build import build_answer
from chronorag.answer.titled import named_first, says_title
from chronorag.flags import Flag
from chronorag.model import Chunk, Document, Evidence, Hit, Query, Status, Understanding

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def item(title: str, text: str, *, n: int = 0) -> Evidence:
    return ev(f"{title}-{n}", text, title=title, chunk_id=f"{title}#{n}")


@pytest.mark.parametrize(("question", "title", "said"), [
    ("What is the effective date of the GitHub Marketplace Terms of Service in force today?",
     "GitHub Marketplace Terms of Service", True),
    ("What is the effective date of the GitHub Marketplace Terms of Service in force today?",
     "GitHub Terms of Service", False),
    ("When did the Firefox Focus Terms of Use take effect?", "Firefox Terms of Use", False),
    ("How long do the Firefox Terms of Use stay in effect for me?", "Firefox Terms of Use",
     True),
    ("What do GitHub's Terms of Service say?", "GitHub Terms of Service", True),
    ("what do the firefox terms of use say?", "Firefox Terms of Use", False),
    ("What do the Terms of Service say about refunds?", "Terms of Service", False),
    ("我要给 Mozilla 发法律通知，Firefox 使用条款里留的电子邮箱是哪个？", "Firefox 使用条款", True),
    ("Firefox 的使用条款里怎么说？", "Firefox 使用条款", False),
])
def test_a_title_is_said_whole_in_order_and_as_written(question: str, title: str,
                                                        said: bool) -> None:
    assert says_title(question, title) is said


Q = "What is the effective date of the GitHub Marketplace Terms of Service in force today?"


def test_the_named_documents_relevant_passages_go_first_flagged() -> None:
    items = [item("GitHub Terms of Service", "Effective date: November 16, 2020"),
             item("GitHub Marketplace Terms of Service", "Effective date: August 1, 2024"),
             item("GitHub Marketplace Terms of Service", "Marketplace terms.", n=1)]
    out = named_first(Q, items, relevant=[True, True, False])
    assert [e.chunk_id for e in out] == ["GitHub Marketplace Terms of Service#0",
                                         "GitHub Terms of Service#0",
                                         "GitHub Marketplace Terms of Service#1"]
    assert Flag.TITLE_NAMED in out[0].flags and Flag.TITLE_NAMED not in out[1].flags


@pytest.mark.parametrize("first", [
    # of the document named
    item("GitHub Marketplace Terms of Service", "Effective date: August 1, 2024", n=5),
    # naming it itself
    item("Developer Guide", "These follow the GitHub Marketplace Terms of Service."),
])
def test_a_first_passage_that_speaks_about_the_named_document_stays(first: Evidence) -> None:
    items = [first, item("GitHub Marketplace Terms of Service", "Effective date: August 1")]
    assert named_first(Q, items, relevant=[True, True]) == items


def test_a_more_specific_first_title_the_question_says_in_pieces_stays() -> None:
    question = ("Which section of the GitHub Terms of Service governs payment for GitHub "
                "Marketplace purchases?")
    items = [item("GitHub Marketplace Terms of Service", "Governed by Section K. Payment."),
             item("GitHub Terms of Service", "K. Payment")]
    assert named_first(question, items, relevant=[True, True]) == items


def test_two_titles_of_one_length_move_nothing() -> None:
    question = "Do the Firefox Terms of Use or the Pocket Terms of Use say more?"
    items = [item("Other", "x"), item("Firefox Terms of Use", "a"),
             item("Pocket Terms of Use", "b")]
    assert named_first(question, items, relevant=[True] * 3) == items


@given(question=st.text(max_size=60), title=st.text(max_size=30))
def test_any_text_is_judged_without_error(question: str, title: str) -> None:
    assert says_title(question, title) in (True, False)
    items = [item(title, "text"), item("Other", "text")]
    out = named_first(question, items, relevant=[True, True])
    assert sorted(e.chunk_id for e in out) == sorted(e.chunk_id for e in items)


def test_a_chinese_first_title_the_question_does_not_say_gives_way() -> None:
    question = "我要给 Mozilla 发法律通知，Firefox 使用条款里留的电子邮箱是哪个？"
    items = [item("Mozilla 订阅服务 | 服务条款", "legal-notices@mozilla.com"),
             item("Firefox 使用条款", "legal-notices@mozilla.com")]
    out = named_first(question, items, relevant=[True, True])
    assert [e.title for e in out] == ["Firefox 使用条款", "Mozilla 订阅服务 | 服务条款"]


def _query(text: str) -> Query:
    return Query(text=text, now=NOW, as_of=NOW,
                 understanding=Understanding(question=text, content=text))


def test_build_answer_answers_from_the_named_document() -> None:
    texts = {"tos": ("Acme Terms of Service", "Developers may cancel within 30 days."),
             "market": ("Acme Marketplace Terms of Service",
                        "Developers may cancel a listing within 14 days.")}
    documents = {i: Document(id=i, title=t, text=x, source_type="policy",
                             status=Status.APPROVED) for i, (t, x) in texts.items()}
    hits = [Hit(chunk=Chunk(id=f"{i}#0", doc_id=i, index=0, start=0, end=len(texts[i][1]),
                            text=texts[i][1]), score=s, scores={"semantic": s})
            for i, s in (("tos", 0.99), ("market", 0.9))]
    named = build_answer(_query("Under the Acme Marketplace Terms of Service, how long do "
                                "developers have to cancel?"),
                         hits, documents=documents, min_semantic=0.5)
    assert named.answer == "14 days" and named.evidence[0].doc_id == "market"
    assert Flag.TITLE_NAMED in named.evidence[0].flags
    plain = build_answer(_query("How long do developers have to cancel?"), hits,
                         documents=documents, min_semantic=0.5)
    assert plain.answer == "30 days" and plain.evidence[0].doc_id == "tos"


def test_a_document_the_search_found_named_in_another_script_goes_first() -> None:
    asked = "如果有人违反了 Mozilla 的可接受使用政策，Mozilla 保留了采取哪些措施的权利？"
    aup = item("Acceptable Use Policy", "Mozilla reserves the right to remove any content.")
    tos = item("Mozilla 订阅服务 | 服务条款", "您对本服务的使用将遵守 Mozilla 的可接受使用政策。")
    items = [tos, replace(aup, flags=(Flag.TITLE_NAMED,))]
    out = named_first(asked, items, relevant=[True, True])
    assert [e.title for e in out] == ["Acceptable Use Policy", "Mozilla 订阅服务 | 服务条款"]
    assert out[0].flags.count(Flag.TITLE_NAMED) == 1
    # Unflagged, the title is only a kind of document and names nothing.
    assert named_first(asked, [items[0], aup], relevant=[True, True]) == [items[0], aup]
