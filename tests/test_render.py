"""The text output of ``ask``: evidence grouped by document, with its id and validity."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from chronorag.answer.context import context_for_generation
from chronorag.flags import Flag
from chronorag.model import Answer, AnswerStatus, Evidence, Understanding
from chronorag.render import print_answer
from chronorag.understand import understand

from .answer.test_decide import typed

NOW = datetime(2026, 11, 5, tzinfo=UTC)


def _evidence(doc_id: str, chunk: int, text: str, *, score: float, **fields: object
              ) -> Evidence:
    values: dict[str, object] = {
        "doc_id": doc_id, "chunk_id": f"{doc_id}#{chunk}", "title": "", "text": text,
        "start": 0, "end": len(text), "source_type": "policy", "status": "approved",
        "valid_from": None, "valid_to": None, "occurred_at": None, "applicable": True,
        "flags": (), "score": score, "scores": {}}
    values.update(fields)
    return Evidence(**typed(values))


def _printed(answer: Answer) -> str:
    out = io.StringIO()
    print_answer(answer, file=out)
    return out.getvalue()


def test_chunks_of_one_document_are_one_item_with_its_id_and_validity() -> None:
    evidence = (
        _evidence("returns-v2", 0, "Refunds within 14 days.", score=0.9, title="Returns",
                  owner="support", valid_from="2026-01-01T00:00:00+00:00"),
        _evidence("returns-v1", 0, "Refunds within 30 days.", score=0.7, applicable=False,
                  flags=("superseded",), valid_from="2020-01-01T00:00:00+00:00",
                  valid_to="2026-01-01T00:00:00+00:00"),
        _evidence("returns-v2", 3, "Keep the receipt.", score=0.5, title="Returns",
                  owner="support", valid_from="2026-01-01T00:00:00+00:00"),
    )
    upcoming = (_evidence("returns-v3", 0, "Refunds within 7 days.", score=0.4,
                          valid_from="2027-01-01T00:00:00+00:00"),)
    answer = Answer("How long?", NOW, NOW, Understanding("How long?", "How long?"),
                    AnswerStatus.ANSWERED, "14 days", evidence, upcoming)
    lines = _printed(answer).splitlines()
    assert lines[3:] == [
        "  1. Returns [returns-v2] (policy, support; valid [2026-01-01T00:00:00+00:00, +inf))",
        "     - score 0.900: Refunds within 14 days.",
        "     - score 0.500: Keep the receipt.",
        "  2. [returns-v1] (policy; valid [2020-01-01T00:00:00+00:00, "
        "2026-01-01T00:00:00+00:00))",
        "     - score 0.700 (not applicable) [superseded]: Refunds within 30 days.",
        "  upcoming from 2027-01-01T00:00:00+00:00: [returns-v3] (policy; valid "
        "[2027-01-01T00:00:00+00:00, +inf))",
        "     - score 0.400: Refunds within 7 days.",
    ]


def test_a_document_without_dates_says_so() -> None:
    answer = Answer("q", NOW, NOW, Understanding("q", "q"), AnswerStatus.UNCERTAIN, None,
                    (_evidence("[note]", 0, "Parking on B2.", score=0.3),))
    assert "  1. [[note]] (policy; no validity dates)" in _printed(answer).splitlines()


def test_an_unsure_reading_of_the_questions_time_says_why() -> None:
    question = "2024年巴黎奥运会中郭清获得银牌和公众咨询开始哪个事件更早发生？"
    understanding = understand(question, now=NOW)
    answer = Answer(question, NOW, NOW, understanding, AnswerStatus.UNCERTAIN, None, ())
    header = _printed(answer).splitlines()[1]
    assert header.endswith("constraint in [2024-01-01T00:00:00+00:00, "
                           "2025-01-01T00:00:00+00:00) (unsure: comparison)"), header
    sure = Answer("2024年谁是德国总理？", NOW, NOW, understand("2024年谁是德国总理？", now=NOW),
                  AnswerStatus.UNCERTAIN, None, ())
    assert "unsure" not in _printed(sure)


def test_the_owners_of_parallel_views_are_shown_with_their_flag() -> None:
    answer = Answer("q", NOW, NOW, Understanding("q", "q"), AnswerStatus.UNCERTAIN, "a; b",
                    flags=(Flag.PARALLEL_VIEWS, Flag.UPCOMING_UNCHANGED),
                    owners=("legal", "marketplace"))
    shown = "flags: parallel_views, owner:legal, owner:marketplace, upcoming_unchanged"
    assert f"  {shown}" in _printed(answer).splitlines()
    assert f"; {shown}" in context_for_generation(answer)


def test_a_time_named_by_an_event_is_printed() -> None:
    question = "杭州亚运会延期当月，孙颖的案件在哪个法院公开审理？"
    answer = Answer(question, NOW, NOW, understand(question, now=NOW), AnswerStatus.NOT_FOUND,
                    None, (), ())
    assert "the month of 杭州亚运会延期" in _printed(answer).splitlines()[1]
