"""Evidence items: the best sentence is never a heading."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chronorag.answer.evidence import to_evidence
from chronorag.flags import Flag
from chronorag.ingest import chunk_document
from chronorag.model import Document, Hit

TEXT = "# Returns\n\n## Return window\n\nCustomers may return items within 30 days.\n"


def _evidence(text: str, *, best: int | None, metadata: dict | None = None):
    doc = Document(id="d", text=text, source_type="policy", metadata=metadata or {})
    chunk = chunk_document(doc)[0]
    return to_evidence(Hit(chunk=chunk, score=1.0, best_sentence=best), doc,
                       question="What is the return window?")


def test_a_rankers_heading_gives_way_to_a_sentence() -> None:
    item = _evidence(TEXT, best=1)
    assert item.sentence == "Customers may return items within 30 days."
    assert Flag.ONLY_HEADINGS not in item.flags


def test_a_layout_heading_without_markup_is_skipped() -> None:
    marked = _evidence("Return window\n\nCustomers may return items within 30 days.",
                       best=0, metadata={"_layout": {"headings": [[0, 13, 2]]}})
    assert marked.sentence == "Customers may return items within 30 days."


def test_a_run_in_heading_is_skipped_in_a_document_read_without_its_text() -> None:
    """An answer is built from documents read without their text (``documents_for``):
    a run-in heading ("**Share**. We may share …" without its bold) is found in the
    chunk."""
    text = "Sale. We do not sell your data.\n\nShare. We may share your data for ads."
    doc = Document(id="d", text=text, source_type="policy")
    chunk = chunk_document(doc)[0]
    share = next(s.index for s in chunk.sentences if s.text == "Share.")
    item = to_evidence(Hit(chunk=chunk, score=1.0, best_sentence=share), replace(doc, text=""),
                       question="What data do you share?")
    assert item.sentence == "We may share your data for ads."


def test_a_chunk_of_headings_only_is_flagged() -> None:
    item = _evidence("# Returns\n\n## Return window\n", best=None)
    assert Flag.ONLY_HEADINGS in item.flags


LIST = ("You may not use any of our services to:\n\nSend spam or bulk mail,\n\n"
        "Engage in or promote illegal gambling,\n\nHarm minors.\n\nThat is all.")


def _asked(question: str, text: str, best: int | None):
    doc = Document(id="d", text=text, source_type="policy")
    chunk = chunk_document(doc)[0]
    return to_evidence(Hit(chunk=chunk, score=1.0, best_sentence=best), doc,
                       question=question)


RULES = "您不得利用我们的服务：\n\n发送垃圾邮件；\n\n推广赌博。"


@pytest.mark.parametrize(("question", "text", "item"), [
    ("Am I allowed to promote gambling through your services?", LIST,
     "Engage in or promote illegal gambling,"),
    ("可以推广赌博吗？", RULES, "推广赌博。"),
    # A question in another script names its item through the dictionary.
    ("可以通过你们的服务推广非法赌博吗？", LIST, "Engage in or promote illegal gambling,"),
    ("May I send spam through the services?", RULES, "发送垃圾邮件；"),
])
def test_a_list_lead_in_gives_way_to_the_item_the_question_names(question: str, text: str,
                                                                 item: str) -> None:
    assert _asked(question, text, best=0).sentence == item


def test_a_lead_in_stays_when_no_item_shares_a_word() -> None:
    item = _asked("Can I use the services at night?", LIST, best=0)
    assert item.sentence == "You may not use any of our services to:"


COOKIES = ("Cookie Name: org_transform_notice; Description: Notice during organization "
           "transforms; Expiration: one hour\n\n"
           "Cookie Name: saml_csrf_token; Description: Associates a token with the client; "
           "Expiration: until user closes browser\n\n"
           "Cookie Name: saml_csrf_token_legacy; Description: The same, for legacy paths; "
           "Expiration: until user closes browser or completes authentication")


def test_the_row_of_the_identifier_the_question_spells_is_the_best_sentence() -> None:
    item = _asked("How long does the saml_csrf_token cookie last?", COOKIES, best=0)
    assert item.sentence.startswith("Cookie Name: saml_csrf_token;")
    # A choice that holds the identifier stays, and so does one when none does.
    assert _asked("How long does the saml_csrf_token_legacy cookie last?", COOKIES,
                  best=2).sentence.startswith("Cookie Name: saml_csrf_token_legacy;")
    assert _asked("How long does the tz cookie last?", COOKIES,
                  best=0).sentence.startswith("Cookie Name: org_transform_notice;")


def test_a_quoted_term_leaves_the_rankers_choice() -> None:
    # The sentence introducing a term is seldom the one that answers about it.
    text = ("Under section 1798.83, also known as the “Shine the Light” law, customers may "
            "ask for information.\n\nBusinesses must respond to one request per customer "
            "each year.")
    question = "How many “Shine the Light” requests a year must a business answer?"
    assert _asked(question, text, best=1).sentence.startswith("Businesses must respond")
