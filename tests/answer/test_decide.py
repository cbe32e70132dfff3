"""Answer rules on hand-made evidence items (no models): decide, shape, context."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.check import check_short
from chronorag.answer.context import context_for_generation
from chronorag.answer.decide import AnswerRules, decide
from chronorag.answer.differ import stated_numbers, states_differ
from chronorag.answer.shape import short_answer
from chronorag.flags import Flag
from chronorag.model import Answer, AnswerStatus, Evidence, Status, Understanding

AS_OF = datetime(2026, 11, 5, tzinfo=UTC)
Q = "How many days do I have to return an item?"


def ev(doc_id: str, sentence: str, *, semantic: float = 0.99, applicable: bool = True,
       flags: tuple[str, ...] = (), **fields: Any) -> Evidence:
    values: dict[str, Any] = {
        "doc_id": doc_id, "chunk_id": f"{doc_id}#0", "title": doc_id, "text": sentence,
        "start": 0, "end": len(sentence), "source_type": "policy", "status": "approved",
        "valid_from": None, "valid_to": None, "occurred_at": None, "applicable": applicable,
        "flags": flags, "score": semantic, "scores": {"semantic": semantic},
        "owner": "care", "sentence": sentence,
    }
    values.update(fields)
    return Evidence(**typed(values))


def typed(values: dict[str, Any]) -> dict[str, Any]:
    """Evidence fields as the answer stage holds them, from the JSON's spelling (an ISO
    time, a status word), so cases read like the contract."""
    out = dict(values)
    for name in ("valid_from", "valid_to", "occurred_at", "published_at", "valid_until"):
        if isinstance(out.get(name), str):
            out[name] = datetime.fromisoformat(out[name])
    if isinstance(out.get("status"), str):
        out["status"] = Status(out["status"])
    return out


def test_short_answers() -> None:
    text = "Customers may return any unused item within 45 days of delivery."
    assert short_answer(Q, text) == "45 days"
    assert short_answer("How long is the return window?", "It is 30 days.") == "30 days"
    assert short_answer("Refunds within 5 business days? how long", "within 5 business days") \
        == "5 business days"
    assert short_answer("Who is the chancellor?", "Olaf Scholz is.") == "Olaf Scholz"


def test_stated_facts() -> None:
    assert stated_numbers("two years or 24 months") == {"2", "24"}
    assert states_differ("a warranty of 2 years", "a warranty of 1 year")
    assert not states_differ("within 45 days", "45 days from delivery")
    assert states_differ("Pay by card only", "Pay with bitcoin accepted", question="pay")
    assert not states_differ("Pay by card", "Pay by card", question="pay")


def test_applicable_original_decides_before_copy_and_forum() -> None:
    items = [ev("forum", "60 days", source_type="forum", owner="community"),
             ev("faq", "45 days", flags=("derived_copy",), source_type="faq", owner="support"),
             ev("policy", "45 days", semantic=0.9)]
    decision = decide(Q, items, as_of=AS_OF)
    assert decision.status is AnswerStatus.ANSWERED
    assert decision.deciding[0].doc_id == "policy"
    assert decision.answer == "45 days"


def test_not_applicable_never_answers() -> None:
    items = [ev("old", "45 days", applicable=False, flags=("superseded",))]
    decision = decide(Q, items, as_of=AS_OF)
    assert (decision.status, decision.answer) == (AnswerStatus.NOT_FOUND, None)
    assert decision.flags == ("no_applicable_evidence",)


def test_forum_alone_is_not_found() -> None:
    decision = decide(Q, [ev("forum", "60 days", source_type="forum")], as_of=AS_OF)
    assert decision.status is AnswerStatus.NOT_FOUND
    assert decision.flags == ("only_non_decisive",)


def test_irrelevant_evidence_is_ignored() -> None:
    decision = decide(Q, [ev("x", "45 days", semantic=0.01)], as_of=AS_OF)
    assert decision.status is AnswerStatus.NOT_FOUND and decision.flags == ()


def test_undated_is_uncertain() -> None:
    decision = decide(Q, [ev("p", "30 days", flags=("undated",))], as_of=AS_OF)
    assert decision.status is AnswerStatus.UNCERTAIN
    assert decision.flags == ("rests_on_undated",)


def test_parallel_views_of_two_owners() -> None:
    items = [ev("a", "within 45 days", owner="care"), ev("b", "within 30 days", owner="shop"),
             ev("c", "within 30 days", owner="care")]
    decision = decide(Q, items, as_of=AS_OF)
    assert decision.status is AnswerStatus.UNCERTAIN
    assert decision.flags == (Flag.PARALLEL_VIEWS,)
    assert decision.owners == ("care", "shop")
    answer = Answer(Q, AS_OF, AS_OF, Understanding(Q, Q), decision.status, decision.answer,
                    flags=(*decision.flags, Flag.UPCOMING_UNCHANGED), owners=decision.owners)
    # The JSON keeps its contract: each owner a flag right after ``parallel_views``.
    assert answer.to_json()["flags"] == ["parallel_views", "owner:care", "owner:shop",
                                         "upcoming_unchanged"]
    assert decision.answer == "45 days (care); 30 days (shop)"


def test_same_facts_or_outside_margin_is_no_disagreement() -> None:
    same = decide(Q, [ev("a", "45 days", owner="care"), ev("b", "45 days", owner="shop")],
                  as_of=AS_OF)
    far = decide(Q, [ev("a", "45 days"), ev("b", "30 days", owner="shop", semantic=0.5)],
                 as_of=AS_OF)
    draft = decide(Q, [ev("a", "45 days"), ev("b", "30 days", owner="shop", status=None)],
                   as_of=AS_OF)
    assert {same.status, far.status, draft.status} == {AnswerStatus.ANSWERED}


def test_upcoming_versions_are_reported_beside_the_answer_not_in_it() -> None:
    later = ev("new", "within 21 days", applicable=False, flags=("not_yet_valid",),
               valid_from="2026-11-30T16:00:00+00:00")
    unrelated = ev("other", "3 days", applicable=False, semantic=0.02,
                   valid_from="2027-01-01T00:00:00+00:00")
    shanghai = datetime.fromisoformat("2026-11-25T10:00:00+08:00")
    decision = decide(Q, [ev("old", "within 45 days"), later, unrelated],
                      upcoming=[later, unrelated], as_of=shanghai)
    assert decision.answer == "45 days"
    assert [u.doc_id for u in decision.upcoming] == ["new"]
    assert "upcoming_unchanged" not in decision.flags


def test_an_upcoming_version_that_says_the_same_is_reported_once() -> None:
    same = ev("same", "Returns within 45 days.", applicable=False,
              valid_from="2026-12-01T00:00:00+00:00")
    again = ev("again", "Returns within 21 days.", applicable=False,
               valid_from="2027-01-01T00:00:00+00:00")
    twice = ev("twice", "Returns within 21 days!", applicable=False,
               valid_from="2027-02-01T00:00:00+00:00")
    decision = decide(Q, [ev("old", "Returns within 45 days.")],
                      upcoming=[same, again, twice], as_of=AS_OF)
    assert decision.answer == "45 days"
    assert [u.doc_id for u in decision.upcoming] == ["again"]
    assert "upcoming_unchanged" in decision.flags


def test_an_answer_that_is_a_heading_or_lacks_its_number_is_uncertain() -> None:
    heading = decide(Q, [ev("h", "#### Returns")], as_of=AS_OF)
    assert heading.status is AnswerStatus.UNCERTAIN and "answer_is_heading" in heading.flags
    bare = ev("b", "Return policy", flags=("only_headings",))
    assert "answer_is_heading" in decide(Q, [bare], as_of=AS_OF).flags
    vague = decide(Q, [ev("v", "Items may be returned within a reasonable time.")],
                   as_of=AS_OF)
    assert vague.status is AnswerStatus.UNCERTAIN and "answer_incomplete" in vague.flags
    # A length of time said in words is whole without a number.
    worded = decide("How long do you keep my profile?",
                    [ev("p", "Your profile is kept for as long as your membership is active.")],
                    as_of=AS_OF)
    assert worded.status is AnswerStatus.ANSWERED
    assert worded.answer == "for as long as your membership is active"
    # So is the cell of a table's column of time, whatever its words; another cell is not.
    row = "Cookie Name: tz; Description: Your time zone; Expiration: session"
    cell = decide("How long does the tz cookie last?", [ev("t", row)], as_of=AS_OF)
    assert cell.status is AnswerStatus.ANSWERED and cell.answer == "session"
    described = decide("How long does the tz cookie last?",
                       [ev("d", "Cookie Name: tz; Description: kept for your session")],
                       as_of=AS_OF)
    assert "answer_incomplete" in described.flags
    # "Immediately" and a count of none or without limit say it without a number.
    soon = decide("How soon is my account suspended?",
                  [ev("s", "If you stop paying, we will immediately suspend your account.")],
                  as_of=AS_OF)
    assert soon.status is AnswerStatus.ANSWERED and soon.answer == "immediately"
    none = decide("How many phone masks do I get with the free plan?",
                  [ev("n", "The free plan has up to 5 email masks and no phone masks.")],
                  as_of=AS_OF)
    assert none.status is AnswerStatus.ANSWERED and none.answer == "no phone masks"
    # A when is said by a time or a condition; a sentence that says neither is no answer.
    welcome = decide("When can I see the permissions an app requests?",
                     [ev("w", "Welcome to GitHub Marketplace!")], as_of=AS_OF)
    assert welcome.status is AnswerStatus.UNCERTAIN and "answer_incomplete" in welcome.flags
    for said in ["You will be charged the subscription fee when the free trial ends.",
                 "We only use non-essential cookies after obtaining your consent.",
                 "您的套餐在每个订阅期结束时自动续订。",
                 "Business customers reach support around the clock, every day of the year."]:
        condition = decide("When will I be charged?", [ev("c", said)], as_of=AS_OF)
        assert condition.status is AnswerStatus.ANSWERED, said
    text = "GitHub complies with the EU-U.S. Data Privacy Framework."
    cut = decide("Does GitHub comply with the Data Privacy Framework?",
                 [ev("c", "GitHub complies with the EU-U.", text=text)], as_of=AS_OF)
    assert cut.status is AnswerStatus.UNCERTAIN and cut.flags == ("answer_incomplete",)
    whole = decide("Does GitHub comply with the Data Privacy Framework?", [ev("w", text)],
                   as_of=AS_OF)
    assert whole.status is AnswerStatus.ANSWERED and whole.answer == text


def test_custom_margin() -> None:
    items = [ev("a", "45 days"), ev("b", "30 days", owner="shop", semantic=0.5)]
    decision = decide(Q, items, as_of=AS_OF, rules=AnswerRules(margin=0.6))
    assert decision.status is AnswerStatus.UNCERTAIN


def test_context_for_generation_has_metadata_headers() -> None:
    item = ev("policy-v2", "Customers may return items within 30 days.",
              valid_from="2026-11-01T00:00:00+00:00", title="Return policy 2026")
    old = ev("policy-v1", "45 days", applicable=False, flags=("superseded",))
    answer = Answer(Q, AS_OF, AS_OF, Understanding(Q, Q), AnswerStatus.ANSWERED, "30 days",
                    evidence=(item, old))
    text = context_for_generation(answer)
    assert text.startswith(f"Question: {Q}\nAs of: 2026-11-05T00:00:00+00:00")
    assert "[policy-v2] Return policy 2026\ndoc_id: policy-v2\nsource_type: policy\n" in text
    assert "valid_from: 2026-11-01T00:00:00+00:00" in text
    assert "applicable: no\nflags: superseded\n45 days" in text
    assert context_for_generation(answer, max_items=1).count("doc_id:") == 1


def test_a_period_that_does_not_begin_at_the_asked_time_is_uncertain() -> None:
    question = "Who was appointed chief executive after 2015?"
    items = [ev("wiki", "Anna Berg served as chief executive from 2010 to 2018.",
                flags=("edge_unverified",), source_type="wiki")]
    decision = decide(question, items, as_of=AS_OF)
    assert decision.status is AnswerStatus.UNCERTAIN
    assert "time_unverified" in decision.flags


APPLICANT = "Which email address should a job applicant use for privacy questions?"


def _notice(*, stated: float, other: float) -> tuple[Evidence, Evidence, Evidence]:
    """A notice's passage naming "email address", its passage stating the address (at
    ``stated``) and another document's address (at ``other``)."""
    listed = ev("notice", "We collect your name, email address and phone number.",
                semantic=0.997, chunk_id="notice#3")
    address = ev("notice", "Privacy questions should be directed to dpo@example.com.",
                 semantic=stated, chunk_id="notice#9")
    elsewhere = ev("other", "Write to privacy@other.example for anything else.",
                   semantic=other)
    return listed, address, elsewhere


def test_a_tied_passage_of_the_same_document_that_states_the_asked_span_decides() -> None:
    question = APPLICANT
    listed, stated, other = _notice(stated=0.995, other=0.996)
    decision = decide(question, [listed, other, stated], as_of=AS_OF)
    assert decision.answer == "dpo@example.com"
    assert decision.deciding[0] is stated
    # Another document is never chosen this way.
    assert decide(question, [listed, other], as_of=AS_OF).deciding[0] is listed
    # A question that asks for no span keeps the band's first.
    assert decide("Does the notice list my phone number?", [listed, stated],
                  as_of=AS_OF).deciding[0] is listed
    # A length of time said in words is a span: the band's first keeps the decision.
    words = ev("terms", "Your price stays fixed for the duration of the payment term.",
               semantic=0.998, chunk_id="terms#2")
    counted = ev("terms", "We give at least 30 days notice of a price change.",
                 semantic=0.990, chunk_id="terms#5")
    fixed = decide("How long is my subscription price guaranteed?", [words, counted],
                   as_of=AS_OF)
    assert fixed.answer == "for the duration of the payment term"


def test_a_rule_for_the_askers_case_decides_before_the_general_one() -> None:
    general = ev("returns", "Customers may return any item within 14 days.", semantic=0.99)
    eu = ev("returns-eu", "EU customers may return any item within 30 days.", semantic=0.90,
            applies_to={"region": ("EU",)})
    decision = decide(Q, [general, eu], as_of=AS_OF)
    assert decision.answer == "30 days" and decision.flags == ()
    assert decision.deciding == (eu,)


def test_an_open_condition_gives_every_variant_labelled() -> None:
    general = ev("returns", "Customers may return any item within 14 days.", semantic=0.99)
    eu = ev("returns-eu", "EU customers may return any item within 30 days.", semantic=0.60,
            applies_to={"region": ("EU",)}, flags=(Flag.CONDITION_UNKNOWN,))
    far = ev("shipping-uk", "UK orders ship within 2 days.", semantic=0.30,
             applies_to={"region": ("UK",)}, flags=(Flag.CONDITION_UNKNOWN,))
    decision = decide(Q, [general, eu, far], as_of=AS_OF)
    assert decision.status is AnswerStatus.ANSWERED
    assert decision.answer == "14 days (otherwise); 30 days (region: EU)"
    assert decision.flags == (Flag.VARIANTS,) and decision.owners == ()
    assert [e.doc_id for e in decision.deciding] == ["returns", "returns-eu"]
    chinese = decide("退货期限是几天？", [ev("t", "客户可在7天内退货。"), ev(
        "t-hk", "香港客户可在14天内退货。", applies_to={"region": ("HK",)},
        flags=(Flag.CONDITION_UNKNOWN,))], as_of=AS_OF)
    assert chinese.answer == "7天 (其他情况); 14天 (region: HK)"


def test_variants_that_say_the_same_are_one_answer() -> None:
    general = ev("returns", "Customers may return any item within 30 days.")
    eu = ev("returns-eu", "EU customers may return any item within 30 days.",
            applies_to={"region": ("EU",)}, flags=(Flag.CONDITION_UNKNOWN,))
    decision = decide(Q, [general, eu], as_of=AS_OF)
    assert decision.answer == "30 days" and decision.flags == ()


def test_one_source_for_an_open_condition_is_labelled() -> None:
    business = ev("support-b", "Business customers may return items within 60 days.",
                  applies_to={"segment": ("business",)}, flags=(Flag.CONDITION_UNKNOWN,))
    decision = decide(Q, [business], as_of=AS_OF)
    assert decision.answer == "60 days (segment: business)"
    assert decision.flags == (Flag.CONDITION_UNKNOWN,)


def test_a_rule_for_other_askers_never_decides() -> None:
    eu = ev("returns-eu", "EU customers may return any item within 30 days.",
            applicable=False, applies_to={"region": ("EU",)}, flags=(Flag.NOT_APPLICABLE,))
    decision = decide(Q, [eu], as_of=AS_OF)
    assert decision.status is AnswerStatus.NOT_FOUND
    assert decision.flags == (Flag.NO_APPLICABLE_EVIDENCE,)


def test_past_the_band_only_a_span_only_the_asked_thing_can_be_decides() -> None:
    # The address asked for, or a count of the very noun asked about, from a less
    # relevant passage of the same document; a duration or a date there is as likely
    # another period's.
    question = APPLICANT
    listed, far, elsewhere = _notice(stated=0.5, other=0.6)
    decision = decide(question, [listed, elsewhere, far], as_of=AS_OF)
    assert decision.answer == "dpo@example.com" and decision.deciding[0] is far
    assert decide(question, [listed, elsewhere], as_of=AS_OF).deciding[0] is listed

    plans = ev("pocket", "Premium is sold on monthly and yearly plans.", semantic=0.27,
               chunk_id="pocket#4")
    valid = ev("pocket", "Each paid subscription is valid for only one user account.",
               semantic=0.21, chunk_id="pocket#5")
    size = ev("pocket", "Saved pages may hold up to 10 megabytes.", semantic=0.2,
              chunk_id="pocket#6")
    asked = "How many user accounts is a single paid subscription valid for?"
    assert decide(asked, [plans, size, valid], as_of=AS_OF).answer == "one user account"
    assert decide(asked, [plans, size], as_of=AS_OF).deciding[0] is plans

    refund = ev("mdn", "30-Day Refund Policy.", semantic=0.8, chunk_id="mdn#2")
    version = ev("mdn", "Version 1.1, Effective May 24, 2023", semantic=0.56, chunk_id="mdn#0")
    assert decide("What version number did the MDN Plus terms have?", [refund, version],
                  as_of=AS_OF).answer == "1.1"

    fees = ev("tos", "You must pay the fees of the GitHub invoice in full.", semantic=0.95,
              chunk_id="tos#1")
    notice = ev("tos", "We give at least 30 days notice of any change.", semantic=0.4,
                chunk_id="tos#8")
    assert decide("How long do I have to pay an invoice?", [fees, notice],
                  as_of=AS_OF).deciding[0] is fees


@given(st.text(max_size=120), st.text(max_size=80))
def test_any_short_answer_is_checked_into_known_flags(answer: str, question: str) -> None:
    flags = check_short(answer, ev("any", answer + " and more."), question=question)
    assert set(flags) <= {Flag.ANSWER_IS_HEADING, Flag.ANSWER_INCOMPLETE}


def test_a_link_or_label_does_not_answer_a_question_asking_for_a_statement() -> None:
    # A list of links is relevant by its page's title; it states nothing a yes/no or a
    # sentence question asks, so the first decider that states something answers.
    link = ev("notice", "Google", semantic=0.79, chunk_id="notice#40")
    states = ev("notice", "这些数据仅由您选择启用该功能的网站从您的设备访问，"
                "不会被发送到 Mozilla 的服务器。", semantic=0.32, chunk_id="notice#12")
    asked = "这个位置信息会被发到 Mozilla 的服务器吗？"
    decision = decide(asked, [link, states], as_of=AS_OF)
    assert decision.deciding[0] is states and decision.answer == states.sentence
    heading = ev("mdn", "30-Day Refund Policy.", semantic=0.8, chunk_id="mdn#2")
    rule = ev("mdn", "You may request a refund within the first 30 days.", semantic=0.5,
              chunk_id="mdn#3")
    assert decide("Can I get my money back?", [heading, rule], as_of=AS_OF).deciding[0] is rule
    # A name may be a whole answer, and nothing that states is there to answer instead.
    last = ev("notice", "Perplexity", semantic=0.9, chunk_id="notice#40")
    assert decide("Which search provider is listed last?", [last, states],
                  as_of=AS_OF).answer == "Perplexity"
    assert decide(asked, [link], as_of=AS_OF).deciding[0] is link
    lone = decide(asked, [link], as_of=AS_OF)
    assert lone.status is AnswerStatus.UNCERTAIN and Flag.ANSWER_INCOMPLETE in lone.flags
    # A short reply decides a yes/no question; it states no sentence asked for.
    reply = ev("faq", "No.", semantic=0.9, chunk_id="faq#2")
    assert decide("Can I cancel by phone?", [reply, rule], as_of=AS_OF).answer == "No."
    assert decide("What can I cancel by phone?", [reply, rule], as_of=AS_OF).deciding[0] is rule


def test_another_owners_link_is_no_parallel_view() -> None:
    asked = "Can I get a refund after a month?"
    ours = ev("a", "You can get a refund within 45 days of delivery.", owner="care")
    theirs = ev("b", "Refunds Policy", owner="sales", semantic=0.98)
    decision = decide(asked, [ours, theirs], as_of=AS_OF)
    assert Flag.PARALLEL_VIEWS not in decision.flags and decision.deciding == (ours,)
    other = ev("c", "You can get a refund within 14 days of delivery.", owner="sales",
               semantic=0.98)
    assert Flag.PARALLEL_VIEWS in decide(asked, [ours, other], as_of=AS_OF).flags
