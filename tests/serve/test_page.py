"""The web page in a real browser: headless Chromium (Playwright) against `chronorag serve`.

The `served` fixture (tests/serve/conftest.py) is a running server over the demo corpus
(`chronorag.demo.demo_corpus()`) and people (`demo_people()`), with `.url`, `.admin_key` and
`.user_key` (both keys of user "me"; only the first may write).

Every question is asked at the demo's moment, 2026-11-25 10:00 in Asia/Shanghai, the zone
the browser runs in, so the page's time-zone field defaults to it. One full-page screenshot
per case goes to $CHRONORAG_ARTIFACTS, else tests/serve/artifacts/ (page.png is for the README).

Without Chromium or Playwright the module is skipped, except under CI (env CI set), where
that is a failure: CI installs both.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browsing import ZONE, browser_tab, expect

pytestmark = pytest.mark.slow

NOW = "2026-11-25T10:00"  # chronorag.demo.DEMO_NOW as the datetime-local input takes it
# In the first person on purpose: every key asks as a user ("me" here), and a question
# that names only "I" must still reach the public policies, not only the asker's records.
RETURN_QUESTION = "How many days do I have to return an item?"
LUNCH_QUESTION = "上周二我几点吃的午饭？"  # last Tuesday = 2026-11-17; rec-001 says 12:30
ASK_TIMEOUT_MS = 240_000  # the first question loads the models in the server


# --- browser plumbing (browsing.py; the browser and artifacts fixtures: conftest.py) ---

@pytest.fixture
def page(browser, served):
    with browser_tab(browser, served.url) as tab:
        yield tab


def open_page(page, served, key: str, *, tab: str = "") -> None:
    page.goto(f"{served.url}/{tab}")
    page.get_by_test_id("key").fill(key)
    expect(page.get_by_test_id("whoami")).to_have_text(re.compile(r"^me\b"))


def ask(page, question: str, *, now: str = NOW, as_of: str = "") -> None:
    """Ask the way a person does: fill the fields, press Enter in the question box."""
    page.get_by_test_id("now").fill(now)
    page.get_by_test_id("as-of").fill(as_of)
    box = page.get_by_test_id("question")
    box.fill(question)
    box.press("Enter")
    view = page.locator("#view-ask")
    page.wait_for_selector("#view-ask[data-state=done], #view-ask[data-state=error]",
                           timeout=ASK_TIMEOUT_MS)
    if view.get_attribute("data-state") == "error":
        pytest.fail(f"the page shows an error: {page.get_by_test_id('ask-error').inner_text()}")
    expect(page.get_by_test_id("status")).to_be_visible()


def card(page, doc_id: str, kind: str = "evidence-card"):
    return page.locator(f'[data-testid="{kind}"][data-doc-id="{doc_id}"]')


def timeline_row(page, doc_id: str, group: str):
    return page.get_by_test_id("timeline").locator(
        f'.tl-row[data-doc-id="{doc_id}"][data-group="{group}"]')


def center_x(locator) -> float:
    box = locator.bounding_box()
    assert box is not None, "element is not rendered"
    return box["x"] + box["width"] / 2


def shoot(page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / name), full_page=True)


# --- the cases ----------------------------------------------------------------------------

def test_ask_shows_answer_evidence_validity_and_timeline(page, served, artifacts):
    open_page(page, served, served.user_key)
    expect(page.get_by_test_id("whoami")).to_have_text("me")  # not an admin key
    expect(page.get_by_test_id("tz")).to_have_value(ZONE)  # the browser's zone by default
    ask(page, RETURN_QUESTION)

    status = page.get_by_test_id("status")
    expect(status).to_have_attribute("data-status", "answered")
    expect(status).to_have_text(re.compile("answered", re.I))
    # returns-2024 (45 days, valid from 2024-01-01) applies on 2026-11-25.
    expect(page.get_by_test_id("answer")).to_contain_text("45 days")
    expect(page.get_by_test_id("as-of-shown")).to_have_text("2026-11-25 10:00")

    policy = card(page, "returns-2024")
    expect(policy).to_have_count(1)
    expect(policy).to_have_attribute("data-applicable", "true")
    expect(policy.get_by_test_id("validity")).to_have_text("applicable")
    expect(policy.locator("mark")).to_contain_text("45 days")
    expect(policy.locator(".dates")).to_contain_text("valid from")
    expect(policy.get_by_test_id("doc-id")).to_have_text("returns-2024")
    # The FAQ and the call-centre script copy the 2024 policy: each shows it with a badge.
    copies = page.locator('[data-testid="evidence-card"][data-doc-id="returns-faq"], '
                          '[data-testid="evidence-card"][data-doc-id="returns-script"]')
    assert copies.count() >= 1, "neither copy of the 2024 policy is among the evidence"
    for i in range(copies.count()):
        expect(copies.nth(i).locator('.badge[data-flag="derived_copy"]')).to_be_visible()

    # returns-2026 (21 days from 2026-12-01) is approved but starts later: upcoming only.
    upcoming = card(page, "returns-2026", "upcoming-card")
    expect(upcoming).to_have_count(1)
    expect(upcoming.locator('.badge[data-flag="not_yet_valid"]')).to_be_visible()
    expect(upcoming.get_by_test_id("validity")).to_have_text("upcoming")
    expect(upcoming.locator("mark")).to_contain_text("21 days")

    timeline = page.get_by_test_id("timeline")
    expect(timeline).to_be_visible()
    cards = page.locator('[data-testid="evidence-card"], [data-testid="upcoming-card"]')
    documents = {cards.nth(i).get_attribute("data-doc-id") for i in range(cards.count())}
    expect(timeline.locator(".tl-row")).to_have_count(len(documents))  # one row a document
    assert timeline.locator(".tl-bar").count() >= 1
    as_of_line = timeline.get_by_test_id("asof-line")
    expect(as_of_line).to_have_attribute("data-time", re.compile(r"^2026-11-25T10:00"))
    old = timeline_row(page, "returns-2024", "evidence")
    new = timeline_row(page, "returns-2026", "upcoming")
    # The 2024 policy ends where its successor starts (2026-12-01), not "to this day".
    expect(old.locator('.tl-bar[data-open-end="false"]').first).to_be_visible()
    # Drawn to scale: 2024-01-01 < as of 2026-11-25 < 2026-12-01.
    line = center_x(as_of_line)
    assert center_x(old.locator(".tl-edge").first) < line < center_x(new.locator(".tl-edge"))
    assert abs(center_x(old.locator(".tl-edge").last) - center_x(new.locator(".tl-edge"))) < 1.5

    shoot(page, artifacts, "ask-now.png")
    page.screenshot(path=str(artifacts / "page.png"))  # 1280x800, for the README

    page.reload()  # the key stays in localStorage
    expect(page.get_by_test_id("key")).to_have_value(served.user_key)
    assert page.evaluate("localStorage.getItem('chronorag.key')") == served.user_key


def test_as_of_after_the_new_policy_changes_the_answer(page, served, artifacts):
    open_page(page, served, served.user_key)
    ask(page, RETURN_QUESTION, as_of="2026-12-20T10:00")

    expect(page.get_by_test_id("status")).to_have_attribute("data-status", "answered")
    answer = page.get_by_test_id("answer")
    expect(answer).to_contain_text("21 days")
    expect(answer).not_to_contain_text("45")
    expect(page.get_by_test_id("as-of-shown")).to_have_text("2026-12-20 10:00")

    new = card(page, "returns-2026")
    expect(new).to_have_count(1)
    expect(new).to_have_attribute("data-applicable", "true")
    expect(new.locator("mark")).to_contain_text("21 days")
    # returns-2026 supersedes returns-2024 from 2026-12-01 on.
    old = card(page, "returns-2024")
    if old.count():
        expect(old).to_have_attribute("data-applicable", "false")
        expect(old.get_by_test_id("validity")).to_have_text("not applicable")
        expect(old.locator('.badge[data-flag="superseded"]')).to_be_visible()
    expect(card(page, "returns-2026", "upcoming-card")).to_have_count(0)

    timeline = page.get_by_test_id("timeline")
    as_of_line = timeline.get_by_test_id("asof-line")
    expect(as_of_line).to_have_attribute("data-time", re.compile(r"^2026-12-20T10:00"))
    row = timeline_row(page, "returns-2026", "evidence")
    assert center_x(row.locator(".tl-edge")) < center_x(as_of_line)
    shoot(page, artifacts, "ask-as-of.png")


def test_what_changed_lists_the_changed_sentences_of_each_version(page, served, artifacts):
    open_page(page, served, served.user_key)
    ask(page, "What changed in the return policy?")

    expect(page.get_by_test_id("status")).to_have_attribute("data-status", "answered")
    breakdown = page.get_by_test_id("breakdown")
    expect(breakdown).to_be_visible()
    change = breakdown.get_by_test_id("change")
    expect(change).to_have_count(1)
    expect(change).to_have_attribute("data-upcoming", "yes")  # takes effect on 1 December
    expect(change).to_contain_text("returns-2024 → returns-2026")
    expect(change.locator(".changed").first).to_contain_text("45 days")
    expect(change.locator(".changed").first).to_contain_text("21 days")
    shoot(page, artifacts, "ask-what-changed.png")


def test_a_comparison_shows_one_part_per_time(page, served):
    open_page(page, served, served.user_key)
    # "the return window" scores the refund sentence within 0.005 of the return sentence,
    # a tie INT8 batch noise decides differently on different CPUs; this wording does not.
    ask(page, "Compare how long I have to return an item in 2025 and 2027.")

    parts = page.get_by_test_id("breakdown").get_by_test_id("part")
    expect(parts).to_have_count(2)
    expect(parts.nth(0)).to_contain_text("2025: 45 days")
    expect(parts.nth(0)).to_contain_text("returns-2024")
    expect(parts.nth(1)).to_contain_text("returns-2026")


def test_a_plain_question_shows_no_breakdown(page, served):
    open_page(page, served, served.user_key)
    ask(page, RETURN_QUESTION)
    expect(page.get_by_test_id("breakdown")).to_be_hidden()


def test_upload_of_an_invalid_file_shows_each_problem(page, served, artifacts):
    open_page(page, served, served.admin_key, tab="#documents")
    expect(page.get_by_test_id("whoami")).to_have_text("me · admin")
    lines = [
        {"id": "page-test-ok", "title": "Fine", "source_type": "note", "valid_from": "2026-01-01",
         "text": "A valid document in a file that is rejected whole."},
        {"id": "page-test-bad", "title": "Broken date", "source_type": "note",
         "valid_from": "next tuesday-ish", "text": "This one has a date nobody can read."},
    ]
    payload = "\n".join(json.dumps(line) for line in lines).encode() + b"\n"
    page.get_by_test_id("files").set_input_files(
        [{"name": "bad.jsonl", "mimeType": "application/x-ndjson", "buffer": payload}])
    page.get_by_test_id("upload-button").click()

    problems = page.get_by_test_id("upload-errors").locator("li")
    expect(problems).to_have_count(1)
    expect(problems.first).to_have_text(re.compile(r"^bad\.jsonl:2: valid_from: \S"))
    expect(problems.first).to_contain_text("next tuesday-ish")
    expect(page.get_by_test_id("upload-report")).to_be_hidden()
    shoot(page, artifacts, "upload-error.png")


def test_upload_with_a_key_that_may_not_write_is_refused(page, served):
    open_page(page, served, served.user_key, tab="#documents")
    expect(page.locator("#upload-note")).to_contain_text("not an admin key")
    page.get_by_test_id("files").set_input_files(
        [{"name": "note.md", "mimeType": "text/markdown", "buffer": b"# Note\n\nHello.\n"}])
    page.get_by_test_id("upload-button").click()
    message = page.get_by_test_id("upload-error-message")
    expect(message).to_be_visible()
    expect(message).to_contain_text("admin key")
    expect(page.get_by_test_id("upload-errors").locator("li")).to_have_count(0)


def test_chinese_question_renders(page, served, artifacts):
    open_page(page, served, served.user_key)
    ask(page, LUNCH_QUESTION)
    expect(page.get_by_test_id("question")).to_have_attribute("lang", "zh")
    expect(page.get_by_test_id("status")).to_have_attribute("data-status", "answered")
    expect(page.get_by_test_id("answer")).to_contain_text("12:30")
    lunch = card(page, "rec-001")
    expect(lunch).to_have_count(1)
    expect(lunch.locator(".text")).to_have_attribute("lang", "zh")
    expect(lunch.locator("mark")).to_contain_text("牛肉面")
    expect(lunch.locator(".dates")).to_contain_text("2026-11-17 12:30")
    # A record has an event time, not a validity: a dot on its row, inside the asked day.
    row = timeline_row(page, "rec-001", "evidence")
    expect(row.locator(".tl-dot")).to_be_visible()
    span = page.get_by_test_id("question-span")
    expect(span).to_be_visible()
    box, dot = span.bounding_box(), center_x(row.locator(".tl-dot"))
    assert box is not None and box["x"] <= dot <= box["x"] + box["width"]
    shoot(page, artifacts, "ask-chinese.png")


def test_server_text_is_shown_as_text_never_as_markup(page, served):
    """Evidence is user content: markup in any field must show literally, never run."""
    open_page(page, served, served.user_key)
    evil = '<img src=x onerror="window.__pwned=1"><b>bold</b>'
    item: dict[str, Any] = {
        "doc_id": f"doc{evil}", "chunk_id": "c#0", "title": f"T {evil}",
        "text": f"before {evil} after",
        "start": 0, "end": 10, "source_type": f"note{evil}", "status": "approved",
        "valid_from": "2026-01-01T00:00:00+08:00", "valid_to": None, "occurred_at": None,
        "applicable": True, "flags": [f"odd{evil}"], "score": 0.5, "scores": {evil: 1.0},
        "owner": evil, "published_at": None, "sentence": evil,
    }
    crafted = {"question": evil, "now": "2026-11-25T10:00:00+08:00",
               "as_of": "2026-11-25T10:00:00+08:00",
               "understanding": {"content": evil, "intent": "content",
                                 "constraint": {"relation": "none", "order": None,
                                                "start": None, "end": None},
                                 "time_expressions": [], "entities": [{"text": evil, "id": "x"}]},
               "status": "answered", "answer": evil, "evidence": [item], "upcoming": [],
               "flags": [evil]}
    page.route("**/v1/ask/stream", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(crafted)))
    ask(page, "anything")
    expect(page.get_by_test_id("answer")).to_have_text(evil)
    expect(page.locator('[data-testid="evidence-card"] mark')).to_have_text(evil)
    assert page.locator("main img, main b, svg img").count() == 0
    assert page.evaluate("window.__pwned") is None


def _item(doc_id: str, chunk: int, **fields: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "doc_id": doc_id, "chunk_id": f"{doc_id}#{chunk}", "title": doc_id,
        "text": f"text {chunk} of {doc_id}", "start": 0, "end": 10, "source_type": "policy",
        "status": "approved", "valid_from": None, "valid_to": None, "occurred_at": None,
        "applicable": True, "flags": [], "score": 0.5, "scores": {}, "owner": None,
        "published_at": None, "sentence": None, "superseded_by": [], "valid_until": None}
    return {**item, **fields}


def _crafted(evidence: list[dict[str, Any]], upcoming: list[dict[str, Any]], *,
             now: str, as_of: str) -> dict[str, Any]:
    return {"question": "q", "now": now, "as_of": as_of,
            "understanding": {"content": "q", "intent": "content",
                              "constraint": {"relation": "none", "order": None,
                                             "start": None, "end": None},
                              "time_expressions": [], "entities": []},
            "status": "answered", "answer": "a", "evidence": evidence, "upcoming": upcoming,
            "flags": []}


def test_timeline_ends_a_replaced_version_and_names_later_versions(page, served):
    """One row a document; a superseded version's bar ends where its successor starts; a
    version after the asked time that now has already reached is a later version."""
    open_page(page, served, served.user_key)
    v1 = "2024-01-01T00:00:00+08:00"
    v2, v3 = "2025-01-01T00:00:00+08:00", "2026-01-01T00:00:00+08:00"
    evidence = [
        _item("terms-2024", 0, valid_from=v1, valid_until=v2),
        _item("terms-2024", 3, valid_from=v1, valid_until=v2),
        _item("terms-2023", 0, valid_from="2023-01-01T00:00:00+08:00", valid_until=v1,
              applicable=False, flags=["superseded"], superseded_by=["terms-2024"]),
        _item("terms-2025", 0, valid_from=v2, valid_until=v3, applicable=False,
              flags=["not_yet_valid"]),
    ]
    upcoming = [_item("terms-2025", 0, valid_from=v2, valid_until=v3, applicable=False,
                      flags=["not_yet_valid"]),
                _item("terms-2027", 0, valid_from="2027-01-01T00:00:00+08:00",
                      applicable=False, flags=["not_yet_valid"])]
    crafted = _crafted(evidence, upcoming, now="2026-11-25T10:00:00+08:00",
                       as_of="2024-06-01T00:00:00+08:00")
    page.route("**/v1/ask/stream", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(crafted)))
    ask(page, "anything")
    timeline = page.get_by_test_id("timeline")
    expect(timeline.locator(".tl-row")).to_have_count(4)
    expect(timeline.locator('.tl-row[data-doc-id="terms-2024"]')).to_have_count(1)
    # The replaced version is not drawn as valid to this day: its bar ends at 2024-01-01,
    # where the bar of its successor starts.
    old = timeline_row(page, "terms-2023", "evidence")
    expect(old.locator('.tl-bar[data-open-end="false"]').first).to_be_visible()
    new = timeline_row(page, "terms-2024", "evidence")
    old_end = old.locator(".tl-edge").last.bounding_box()
    new_start = new.locator(".tl-edge").first.bounding_box()
    assert old_end is not None and new_start is not None
    assert abs(old_end["x"] - new_start["x"]) < 1.5
    # terms-2025 starts after as_of but before now: a later version, drawn once.
    expect(timeline_row(page, "terms-2025", "later")).to_have_count(1)
    expect(timeline_row(page, "terms-2025", "evidence")).to_have_count(0)
    expect(timeline_row(page, "terms-2027", "upcoming")).to_have_count(1)
    expect(timeline.locator(".tl-group")).to_have_text(["evidence", "later versions",
                                                        "upcoming"])
    later = card(page, "terms-2025", "upcoming-card")
    expect(later.get_by_test_id("validity")).to_have_text("later version")
    expect(card(page, "terms-2027", "upcoming-card").get_by_test_id("validity")
           ).to_have_text("upcoming")
    expect(card(page, "terms-2023").locator(".dates")).to_contain_text(
        "replaced by terms-2024 from")


def test_a_rejected_key_is_explained(page, served):
    page.goto(f"{served.url}/")
    page.get_by_test_id("key").fill("not-a-key")
    expect(page.get_by_test_id("whoami")).to_have_text("key rejected")
    page.get_by_test_id("question").fill(RETURN_QUESTION)
    page.get_by_test_id("ask-button").click()
    expect(page.locator("#view-ask")).to_have_attribute("data-state", "error")
    expect(page.get_by_test_id("ask-error")).to_contain_text("API key")


def test_an_unsure_reading_of_the_questions_time_is_shown_with_its_doubts(page, served):
    open_page(page, served, served.user_key)
    crafted = _crafted([_item("news", 0)], [], now="2024-08-30T12:00:00+08:00",
                       as_of="2024-01-01T00:00:00+08:00")
    crafted["understanding"]["constraint"] = {
        "relation": "in", "order": None, "start": "2024-01-01T00:00:00+08:00",
        "end": "2025-01-01T00:00:00+08:00", "anchor": None, "confidence": "unsure",
        "doubts": ["comparison"]}
    page.route("**/v1/ask/stream", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(crafted)))
    ask(page, "2024年巴黎奥运会中郭清获得银牌和公众咨询开始哪个更早？")
    expect(page.locator("#understanding-list")).to_contain_text("(unsure: comparison)")


def test_a_time_named_by_an_event_is_shown(page, served):
    open_page(page, served, served.user_key)
    crafted = _crafted([_item("news", 0)], [], now="2024-08-30T12:00:00+08:00",
                       as_of="2024-08-30T12:00:00+08:00")
    crafted["understanding"]["event"] = {"event": "杭州亚运会延期", "unit": "month"}
    page.route("**/v1/ask/stream", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(crafted)))
    ask(page, "杭州亚运会延期当月，孙颖的案件在哪个法院公开审理？")
    expect(page.locator("#understanding-list")).to_contain_text("the month of “杭州亚运会延期”")


def test_a_period_no_version_covers_is_named(page, served):
    open_page(page, served, served.user_key)
    evidence = [_item("fees-2020", 0, valid_from="2020-01-01T00:00:00+08:00",
                      valid_to="2023-01-01T00:00:00+08:00", applicable=False,
                      flags=["expired"])]
    crafted = {**_crafted(evidence, [], now="2026-11-25T10:00:00+08:00",
                          as_of="2023-06-01T00:00:00+08:00"),
               "status": "not_found", "answer": None,
               "flags": ["no_applicable_evidence", "time_not_covered"],
               "uncovered": {"doc_id": "fees-2020", "title": "Late fees",
                             "start": "2023-01-01T00:00:00+08:00", "end": None}}
    page.route("**/v1/ask/stream", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(crafted)))
    ask(page, "anything")
    shown = page.get_by_test_id("uncovered")
    expect(shown).to_contain_text("no version of fees-2020 covers [")
    expect(shown).to_contain_text("…)")
    expect(page.locator("#flags")).to_contain_text("time not covered")
