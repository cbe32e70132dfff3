"""The web page with a model writing the answers: headless Chromium (Playwright) against a
real server over the fast store whose llm is a replaying llama.cpp endpoint.

The page asks through ``POST /v1/ask/stream``: the evidence shows at once, the model's
text shows live apart from the answer (not yet checked), then the checked answer and a
note of what the model did. The browser: browsing.py; the helpers: test_page.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browsing import browser_tab, expect
from serving import Served

from chronorag.answer.openai_chat import OpenAIChat

from ..answer.recorded_llm import Reply
from .test_page import ask, open_page, shoot
from .test_stream import ACCEPTED, QUESTION, SUPERSEDED, _closed_port, serving, with_model

pytestmark = pytest.mark.slow

LATER = "2026-12-20T10:00"  # returns-2026 supersedes returns-2024 (21 days, not 45)
GAP_S = 0.25  # between the model's pieces (one a word): ACCEPTED takes about 3 s

# Every change to the ask view, as the person sees it: the live text, whether it shows,
# the answer slot and the view's state.
RECORD = """() => {
  window.__seen = [];
  const $ = (id) => document.getElementById(id);
  const look = () => window.__seen.push({
    live: $("writing-text").textContent, shown: !$("writing").hidden,
    answer: $("answer").textContent, state: $("view-ask").dataset.state });
  new MutationObserver(look).observe($("view-ask"),
    { subtree: true, childList: true, characterData: true, attributes: true });
}"""


@contextmanager
def asking(browser: Any, served: Served) -> Iterator[Any]:
    """A tab on ``served``'s page with the user's key, recording what the view shows."""
    with browser_tab(browser, served.url) as tab:
        open_page(tab, served, served.user_key)
        tab.evaluate(RECORD)
        yield tab


def start(tab: Any, question: str = QUESTION, *, as_of: str = "") -> None:
    """Ask without waiting for the answer."""
    tab.get_by_test_id("now").fill("2026-11-25T10:00")
    tab.get_by_test_id("as-of").fill(as_of)
    tab.get_by_test_id("question").fill(question)
    tab.get_by_test_id("question").press("Enter")


def seen_live(tab: Any) -> list[dict[str, Any]]:
    return [s for s in tab.evaluate("window.__seen") if s["shown"] and s["live"]]


def note(tab: Any, outcome: str) -> Any:
    box = tab.get_by_test_id("generation")
    expect(box).to_be_visible()
    expect(box).to_have_attribute("data-outcome", outcome)
    return box


def test_the_model_writes_live_then_its_checked_text_is_the_answer(
        browser: Any, fast_served: Served, artifacts: Any) -> None:
    with with_model(fast_served, Reply(ACCEPTED, gap_s=GAP_S)) as (served, _), \
            asking(browser, served) as tab:
        start(tab)
        live = tab.get_by_test_id("writing-text")
        # The wait covers the retrieval and the model's first words, not a page change: on
        # a loaded machine that is more than the 5 s default (the text streams for ~3 s
        # after, so the partial text below is still caught).
        expect(live).to_contain_text("You have 45", timeout=30_000)
        # While the model writes: its text apart, marked unchecked; the slot is the
        # extractive answer and the view waits.
        partial = live.text_content() or ""
        assert ACCEPTED.startswith(partial) and partial != ACCEPTED, partial
        expect(tab.get_by_test_id("writing")).to_contain_text("not yet checked")
        expect(tab.get_by_test_id("answer")).to_have_text("45 days")
        expect(tab.locator("#view-ask")).to_have_attribute("data-state", "evidence")
        shoot(tab, artifacts, "ask-writing.png")

        ask_done = tab.locator("#view-ask[data-state=done]")
        expect(ask_done).to_have_count(1, timeout=30_000)
        expect(tab.get_by_test_id("answer")).to_have_text(ACCEPTED)
        expect(tab.get_by_test_id("status")).to_have_attribute("data-status", "answered")
        expect(tab.get_by_test_id("writing")).to_be_hidden()
        expect(note(tab, "used")).to_have_text(
            "Written by SmolLM2-135M-Instruct; citations, numbers and dates checked.")
        expect(tab.locator('[data-testid="evidence-card"][data-doc-id="returns-2024"]')) \
            .to_have_count(1)
        shoot(tab, artifacts, "ask-written.png")
        seen = seen_live(tab)
    # The live text grew piece by piece, each a beginning of the model's text, and the
    # answer slot never showed it before it was checked.
    assert len({s["live"] for s in seen}) >= 3, seen
    assert all(ACCEPTED.startswith(s["live"]) and s["answer"] == "45 days" for s in seen)


def test_a_rejected_answer_shows_the_extractive_one_and_why(
        browser: Any, fast_served: Served, artifacts: Any) -> None:
    with with_model(fast_served, Reply(SUPERSEDED, gap_s=0.05)) as (served, _), \
            asking(browser, served) as tab:
        ask(tab, QUESTION, as_of=LATER)
        expect(tab.get_by_test_id("status")).to_have_attribute("data-status", "uncertain")
        expect(tab.get_by_test_id("answer")).to_have_text("21 days")
        expect(tab.locator('#flags [data-flag="generated_answer_rejected"]')).to_be_visible()
        box = note(tab, "rejected")
        expect(box).to_contain_text("failed the checks")
        expect(box.locator("s")).to_have_text(SUPERSEDED)  # struck: not the answer
        problems = box.get_by_test_id("generation-problem")
        expect(problems.first).to_be_visible()
        expect(problems.filter(has_text="returns-2024")).not_to_have_count(0)
        expect(tab.get_by_test_id("writing")).to_be_hidden()
        shoot(tab, artifacts, "ask-rejected.png")
        assert seen_live(tab), "the model's text never showed while it was written"


def test_an_endpoint_that_is_down_is_a_flag_and_a_note(
        browser: Any, fast_served: Served) -> None:
    down = OpenAIChat(f"http://127.0.0.1:{_closed_port()}/v1", timeout_s=5)
    with serving(fast_served, down) as served, asking(browser, served) as tab:
        ask(tab, QUESTION)
        expect(tab.get_by_test_id("answer")).to_have_text("45 days")
        expect(tab.get_by_test_id("status")).to_have_attribute("data-status", "answered")
        expect(tab.locator('#flags [data-flag="generation_failed"]')).to_be_visible()
        expect(note(tab, "failed")).to_have_text(
            re.compile(r"^The model failed \(.+\): the extractive answer is shown\.$"))
        assert seen_live(tab) == []


def test_stop_and_asking_again_abort_the_stream(browser: Any, fast_served: Served) -> None:
    other = "Items may be returned within 45 days [returns-2024]."  # 11 lines, 3.3 s
    replies = [Reply(ACCEPTED, gap_s=0.5), Reply(other, gap_s=0.3), Reply(ACCEPTED)]
    with with_model(fast_served, replies) as (served, llm), asking(browser, served) as tab:
        live = tab.get_by_test_id("writing-text")
        start(tab)
        expect(live).to_contain_text("You have", timeout=30_000)  # a new server: retrieval first
        tab.get_by_test_id("stop-button").click()
        expect(tab.locator("#view-ask")).to_have_attribute("data-state", "done")
        expect(tab.get_by_test_id("writing")).to_be_hidden()
        expect(note(tab, "stopped")).to_contain_text("extractive answer")
        expect(tab.get_by_test_id("answer")).to_have_text("45 days")

        start(tab)
        expect(live).to_contain_text("Items may", timeout=30_000)
        tab.evaluate("window.__seen = []")
        start(tab, as_of="2026-11-26T10:00")  # asked again mid-writing: the last one shows
        expect(tab.locator("#view-ask[data-state=done]")).to_have_count(1, timeout=30_000)
        expect(tab.get_by_test_id("answer")).to_have_text(ACCEPTED)
        tab.wait_for_timeout(3500)  # the dropped stream would have written on and ended
        seen = tab.evaluate("window.__seen")
        seen = seen[[s["state"] for s in seen].index("loading"):]  # from the last ask on
        expect(tab.get_by_test_id("answer")).to_have_text(ACCEPTED)
        expect(note(tab, "used")).to_be_visible()
    assert not any("Items" in s["answer"] for s in seen), seen
    assert all(ACCEPTED.startswith(s["live"]) for s in seen), seen
    assert len(llm.requests) == 3


def _chunked_fetch(chunks: list[list[int]]) -> str:
    """A script replacing fetch for the stream: ``chunks`` of bytes, one per read."""
    return "(() => {\n  const chunks = " + json.dumps(chunks) + """, real = window.fetch;
  window.fetch = (url, init) => {
    if (!String(url).endsWith("v1/ask/stream")) return real(url, init);
    let i = 0;
    const body = new ReadableStream({ pull(c) {
      if (i < chunks.length) c.enqueue(new Uint8Array(chunks[i++])); else c.close(); } });
    return Promise.resolve(new Response(body,
      { headers: { "content-type": "text/event-stream; charset=utf-8" } }));
  };
})();"""


def test_events_split_anywhere_across_chunks_are_read_whole(
        browser: Any, fast_served: Served) -> None:
    """A byte per read, CRLF line ends, a comment between events and characters of
    several bytes: the page must show the same answer as the server's JSON."""
    written = "You have 45 days from delivery to return an unused item [returns-2024] — 退货。"
    with with_model(fast_served, Reply(written)) as (served, _):
        with served.client(served.user_key) as client:
            body = client.post("/v1/ask/stream", json={"question": QUESTION}).content
            final = client.post("/v1/ask", json={"question": QUESTION}).json()
        text = body.replace(b"\n", b"\r\n").replace(
            b"event: delta", b": ping\r\n\r\nevent: delta", 1)
        with asking(browser, served) as tab:
            tab.add_init_script(_chunked_fetch([[b] for b in text]))
            tab.reload()
            open_page(tab, served, served.user_key)
            tab.evaluate(RECORD)
            ask(tab, QUESTION)
            expect(tab.get_by_test_id("answer")).to_have_text(final["answer"])
            outcome = "used" if final["generation"]["used"] else "rejected"
            expect(note(tab, outcome)).to_be_visible()
            seen = seen_live(tab)
    assert seen and seen[-1]["live"] == final["generation"]["text"], seen[-1:]


def test_streamed_server_text_is_shown_as_text_never_as_markup(
        browser: Any, fast_served: Served) -> None:
    evil = '<img src=x onerror="window.__pwned=1"><b>bold</b>'
    with serving(fast_served, None) as served, asking(browser, served) as tab:
        with served.client(served.user_key) as client:
            answer = client.post("/v1/ask", json={"question": QUESTION}).json()
        rejected = {**answer, "status": "uncertain", "generation": {
            "used": False, "model": evil, "text": evil, "cited": [evil],
            "problems": [{"rule": evil, "detail": evil}], "extractive": {}, "ms": 1.0}}
        frames = [("evidence", answer), ("delta", {"text": evil}), ("answer", rejected)]
        sse = "".join(f"event: {n}\ndata: {json.dumps(d)}\n\n" for n, d in frames)
        tab.route("**/v1/ask/stream", lambda route: route.fulfill(
            status=200, content_type="text/event-stream", body=sse))
        ask(tab, QUESTION)
        box = note(tab, "rejected")
        expect(box.locator("s")).to_have_text(evil)
        expect(box.get_by_test_id("generation-problem")).to_have_text(f"{evil} {evil}")
        assert any(s["live"] == evil for s in seen_live(tab))
        assert tab.locator("main img, main b, svg img").count() == 0
        assert tab.evaluate("window.__pwned") is None


def test_an_error_event_after_the_evidence_is_shown_as_an_error(
        browser: Any, fast_served: Served) -> None:
    with serving(fast_served, None) as served, asking(browser, served) as tab:
        with served.client(served.user_key) as client:
            evidence = client.post("/v1/ask", json={"question": QUESTION}).json()
        error = {"error": {"status": 500, "code": "internal",
                           "message": "internal error (RuntimeError)"}}
        sse = (f"event: evidence\ndata: {json.dumps(evidence)}\n\n"
               f"event: delta\ndata: {json.dumps({'text': 'You have'})}\n\n"
               f"event: error\ndata: {json.dumps(error)}\n\n")
        tab.route("**/v1/ask/stream", lambda route: route.fulfill(
            status=200, content_type="text/event-stream", body=sse))
        start(tab)
        expect(tab.locator("#view-ask")).to_have_attribute("data-state", "error")
        expect(tab.get_by_test_id("ask-error")).to_have_text("internal error (RuntimeError)")
        expect(tab.get_by_test_id("writing")).to_be_hidden()
        expect(tab.get_by_test_id("answer")).to_have_text("45 days")  # the evidence stays
