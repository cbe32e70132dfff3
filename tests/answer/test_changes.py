""""What changed" answered from a version chain: sentence diffs between consecutive
versions, the versions asked about chosen by the question's period (golden corpus in
tests/cases/changes)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.changes import changes_answer, compare, compared_pairs, took_effect
from chronorag.flags import Flag
from chronorag.model import Answer, AnswerStatus, Document, Granularity, Interval, Understanding

CASES = Path(__file__).parents[1] / "cases" / "changes"
NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _day(text: str) -> Interval:
    start = datetime.fromisoformat(text).replace(tzinfo=UTC)
    return Interval(start, start.replace(day=start.day + 1), Granularity.DAY)


def _versions() -> list[Document]:
    rows = [json.loads(line) for line in (CASES / "returns.jsonl").read_text().splitlines()]
    return [Document(id=r["id"], text=r["text"], title=r["title"],
                     valid_from=_day(r["valid_from"])) for r in rows if r["title"] == "Returns"]


def _answer(question: str, *, as_of: datetime = NOW) -> Answer:
    return Answer(question, NOW, as_of, Understanding(question, question),
                  AnswerStatus.ANSWERED, "Customers may return any unused item within 45 days.")


def test_sentences_changed_added_and_removed() -> None:
    old, new = _versions()[:2]
    change = compare(old, new)
    assert change.changed == (("Customers may return any unused item within 60 days.",
                               "Customers may return any unused item within 45 days."),
                              ("Shipping is free.", "Gift cards are not refundable."))
    assert change.added == change.removed == ()
    assert compare(new, new).changed == ()  # a version does not differ from itself


def test_without_a_period_the_change_in_force_and_the_announced_one() -> None:
    out = changes_answer(_answer("What changed in the return policy?"), _versions(),
                         period=None)
    assert out.status is AnswerStatus.ANSWERED and out.flags == ()
    changes = out.extras["changes"]
    assert [(c["from"]["doc_id"], c["to"]["doc_id"], c["upcoming"]) for c in changes] == [
        ("returns-2022", "returns-2024", False), ("returns-2024", "returns-2027", True)]
    assert changes[1]["to"]["took_effect"] == "2027-01-01T00:00:00+00:00"
    assert out.answer is not None and out.answer.startswith(
        "returns-2022 → returns-2024, 2024-03-01: Customers may return any unused item within "
        "60 days. → Customers may return any unused item within 45 days.")
    # Every sentence shown is a span of one of the versions.
    texts = " ".join(v.text for v in _versions())
    for line in out.answer.split(" ; "):
        said = line.split(": ", 1)[-1]
        for part in said.split(" → "):
            assert part.lstrip("+− ") in texts


def test_a_period_picks_the_versions_that_took_effect_in_it() -> None:
    in_2024 = Interval(datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))
    out = changes_answer(_answer("What changed in 2024?"), _versions(), period=in_2024)
    assert [c["to"]["doc_id"] for c in out.extras["changes"]] == ["returns-2024"]
    in_2025 = Interval(datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))
    none = changes_answer(_answer("What changed in 2025?"), _versions(), period=in_2025)
    assert none.status is AnswerStatus.UNCERTAIN
    assert Flag.NO_VERSION_IN_PERIOD in none.flags and none.extras["changes"] == []


def test_before_a_second_version_only_the_announced_change() -> None:
    early = changes_answer(_answer("What changed?", as_of=datetime(2023, 1, 1, tzinfo=UTC)),
                           _versions()[:2], period=None)
    assert [(c["to"]["doc_id"], c["upcoming"]) for c in early.extras["changes"]] == [
        ("returns-2024", True)]


def test_one_version_cannot_say_what_changed() -> None:
    alone = changes_answer(_answer("What changed?"), _versions()[:1], period=None)
    assert alone.status is AnswerStatus.UNCERTAIN
    assert Flag.NO_EARLIER_VERSION in alone.flags


def test_identical_versions_say_so() -> None:
    old = _versions()[1]
    same = Document(id="returns-copy", text=old.text, title="Returns",
                    valid_from=_day("2025-05-01"))
    out = changes_answer(_answer("What changed?"), [old, same], period=None)
    assert (out.status, out.answer, out.flags) == (AnswerStatus.ANSWERED, None,
                                                   (Flag.VERSIONS_IDENTICAL,))


@given(st.lists(st.sampled_from(["A one.", "B two.", "C three.", "D four."]), max_size=6),
       st.lists(st.sampled_from(["A one.", "B two.", "C three.", "E five."]), max_size=6))
def test_the_diff_accounts_for_every_sentence(old: list[str], new: list[str]) -> None:
    before = Document(id="a", text=" ".join(old), valid_from=_day("2020-01-01"))
    after = Document(id="b", text=" ".join(new), valid_from=_day("2021-01-01"))
    change = compare(before, after)
    kept = len(old) - len(change.changed) - len(change.removed)
    assert kept == len(new) - len(change.changed) - len(change.added) >= 0
    assert compared_pairs([after, before], period=None, as_of=NOW) == [(before, after)]
    assert took_effect(after) == datetime(2021, 1, 1, tzinfo=UTC)


@given(st.text(max_size=300), st.text(max_size=300))
def test_any_two_texts_compare_into_spans_of_theirs(old: str, new: str) -> None:
    change = compare(Document(id="a", text=old), Document(id="b", text=new))
    assert all(b in old and a in new for b, a in change.changed)
    assert all(s in new for s in change.added) and all(s in old for s in change.removed)
