"""Headings and markup lines are never answers: layout offsets, markup, bare short lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.answer.headings import (
    heading_spans,
    is_heading,
    is_markup_line,
    is_run_in,
    titled_headings,
)

SOURCE = ("Return window\n\nCustomers may return items within 30 days.\nShipping fees\n"
          "We pay shipping.\n\n#### Cross-border data transfers\n\n| a | b |\n|---|---|\n\n"
          "Effective date: February 1, 2024\n\n- Returns within 30 days\n\n退货期限\n\n"
          "Share. We may share your data for advertising.\nYes. Refunds are paid in 30 days.\n"
          "We keep logs. Thanks.\nSee you.\n")


def _heading(text: str) -> bool:
    at = SOURCE.index(text)
    return is_heading(text, at, at + len(text), source=SOURCE)


def test_markup_and_bare_lines_are_headings() -> None:
    for text in ("Return window", "#### Cross-border data transfers", "| a | b |", "|---|---|",
                 "退货期限", "Share."):
        assert _heading(text), text


def test_statements_labels_and_list_items_are_not() -> None:
    # A short sentence inside a paragraph or alone on its line is no run-in heading.
    for text in ("Customers may return items within 30 days.", "Shipping fees",
                 "Effective date: February 1, 2024", "- Returns within 30 days", "Thanks.",
                 "See you."):
        assert not _heading(text), text


def test_a_readers_layout_marks_headings_without_markup() -> None:
    metadata = {"_layout": {"headings": [[0, 13, 2], ["bad"], [5, 1, 1], [True, 3, 1]]}}
    spans = heading_spans(metadata)
    assert spans == ((0, 13),)
    assert is_heading("Return policy", 0, 13, headings=spans)
    assert not is_heading("Return policy", 0, 13)
    assert heading_spans({"_layout": "nonsense"}) == () == heading_spans(None)


def test_titled_headings_pair_each_valid_heading_with_its_title() -> None:
    layout = {"headings": [[0, 13, 2], ["bad"], [20, 35, 3]],
              "titles": ["Return policy", "x", 7]}
    assert titled_headings({"_layout": layout}) == ((0, 13, "Return policy"),)
    # Titles that do not run parallel to the headings name none of them.
    assert titled_headings({"_layout": {"headings": [[0, 13, 2]], "titles": []}}) == ()
    assert titled_headings({"_layout": {"headings": 5}}) == () == titled_headings(None)


def test_markup_lines() -> None:
    assert is_markup_line("## Refunds") and is_markup_line("---") and is_markup_line("<div>")
    assert not is_markup_line("Refunds take 10-14 days.") and not is_markup_line("#1 seller")


@settings(deadline=None, max_examples=200)
@given(source=st.text(max_size=200), start=st.integers(0, 200), size=st.integers(0, 60))
def test_any_text_is_judged_without_error(source: str, start: int, size: int) -> None:
    start = min(start, len(source))
    end = min(len(source), start + size)
    assert isinstance(is_heading(source[start:end], start, end, source=source), bool)


def test_a_sentence_its_kept_emphasis_marks_enclose_is_a_run_in_heading() -> None:
    source = ("更新或终止本条款\n\n__Mozilla 可以更新本条款。__Mozilla 可能会每隔一段时间决定"
              "更新本条款。\n\n__Mozilla VPN__是与 Mullvad 联合推出的虚拟专用网络。\n\n"
              "**Payment.** We bill monthly.")
    for text, label in [("__Mozilla 可以更新本条款。", True),
                        ("__Mozilla VPN__是与 Mullvad 联合推出的虚拟专用网络。", False),
                        ("**Payment.", True),
                        ("Mozilla 可能会每隔一段时间决定更新本条款。", False)]:
        at = source.index(text)
        assert is_run_in(text, at, at + len(text), source=source) is label, text


@given(st.text(max_size=80), st.integers(0, 80), st.integers(0, 80))
def test_any_run_in_question_is_answered(source: str, start: int, end: int) -> None:
    assert is_run_in(source[start:end], start, end, source=source) in (True, False)
