"""Golden retrieval through the real Engine (real embedder and cross-encoder, fixed ``now``).

One small English + Chinese corpus (tests/cases/golden_retrieval/corpus.jsonl: Wikipedia-
like pages whose periods live in the text, versioned policies with supersedes, drafts and
retired rules, news with an event date) and one question file (questions.jsonl). Each
question names the expected top document, status, answer-level flags, upcoming documents
and a substring of the short answer (and one it must not hold, ``answer_excludes``).
``xfail`` / ``answer_xfail`` mark known wrong behaviour (strict: the test fails once it is
fixed, so the mark gets removed).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from chronorag.engine import Engine
from chronorag.model import Answer

# Every test asks the real Engine: e5-small embeddings and the cross-encoder.
pytestmark = pytest.mark.slow

CASES = Path(__file__).parent / "cases" / "golden_retrieval"
NOW = datetime.fromisoformat("2026-06-15T12:00:00+00:00")


def _questions() -> list[dict[str, Any]]:
    lines = (CASES / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


QUESTIONS = _questions()


def _params(xfail_key: str, *, only_with: str | None = None) -> list[Any]:
    params = []
    for number, case in enumerate(QUESTIONS):
        if only_with is not None and only_with not in case:
            continue
        reason = case.get("xfail") or case.get(xfail_key)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(number, id=f"{number:02d}-{case['question']}", marks=marks))
    return params


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The golden corpus in each backend: every golden case holds on both."""
    if request.param == "postgres":
        server = request.getfixturevalue("pg_server")
        database = server.new_database()
        db: str | Path = server.uri(database)
    else:
        db = tmp_path_factory.mktemp("golden") / "kb.db"
    with Engine(db) as opened:
        report = opened.ingest([CASES / "corpus.jsonl"], now=NOW)
        assert len(report.added) == sum(1 for _ in (CASES / "corpus.jsonl").open())
        yield opened
    if request.param == "postgres":
        server.drop(database)


@pytest.fixture(scope="module")
def answers(engine: Engine) -> dict[int, Answer]:
    """Answers by question number, asked once and shared by both tests."""
    return {}


def _answer(engine: Engine, answers: dict[int, Answer], number: int) -> Answer:
    if number not in answers:
        case = QUESTIONS[number]
        as_of = datetime.fromisoformat(case["as_of"]) if "as_of" in case else None
        answers[number] = engine.ask(case["question"], now=NOW, as_of=as_of)
    return answers[number]


def _describe(answer: Answer) -> str:
    top = [(e.doc_id, e.applicable, round(e.scores.get("semantic", 0.0), 3), e.flags)
           for e in answer.evidence[:3]]
    return (f"status={answer.status.value} answer={answer.answer!r} flags={answer.flags} "
            f"upcoming={[u.doc_id for u in answer.upcoming]} top3={top}")


@pytest.mark.parametrize("number", _params("xfail"))
def test_golden_retrieval(engine: Engine, answers: dict[int, Answer], number: int) -> None:
    case = QUESTIONS[number]
    answer = _answer(engine, answers, number)
    seen = _describe(answer)

    assert answer.status.value == case["status"], seen
    if "top" in case:
        assert answer.evidence, seen
        top = answer.evidence[0]
        assert top.doc_id == case["top"], seen
        assert top.applicable is case.get("top_applicable", True), seen
    assert set(case.get("flags", [])) <= set(answer.flags), seen
    assert [u.doc_id for u in answer.upcoming] == case.get("upcoming", []), seen
    if case["status"] == "not_found":
        assert answer.answer is None, seen
    else:
        assert answer.answer, seen
    if "as_of" in case:
        assert answer.as_of == datetime.fromisoformat(case["as_of"])


@pytest.mark.parametrize("number", _params("answer_xfail", only_with="answer_contains"))
def test_golden_answer_text(engine: Engine, answers: dict[int, Answer], number: int) -> None:
    case = QUESTIONS[number]
    answer = _answer(engine, answers, number)
    assert case["answer_contains"] in (answer.answer or ""), _describe(answer)
    assert case.get("answer_excludes", "\0") not in (answer.answer or ""), _describe(answer)


def test_mrag_trap_news_with_the_exact_date_ranks_below_the_period(
        engine: Engine, answers: dict[int, Answer]) -> None:
    """The news story dated 6 May 2021 is about elections, not about who was prime minister;
    the wiki page's "from July 2019 to September 2022" answers."""
    number = next(i for i, c in enumerate(QUESTIONS) if "MRAG trap" in c.get("note", ""))
    answer = _answer(engine, answers, number)
    ids = [e.doc_id for e in answer.evidence]
    assert ids[0] == "wiki-uk-prime-ministers"
    assert "Boris Johnson" in (answer.answer or "")
    assert "Keir Starmer" not in (answer.answer or "")
    top = answer.evidence[0]
    assert "time_verified" in top.flags


def test_every_corpus_document_is_stored(engine: Engine) -> None:
    lines = (CASES / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    ids = {json.loads(line)["id"] for line in lines if line.strip()}
    assert {d.id for d in engine.store.documents()} == ids
    expected = {c["top"] for c in QUESTIONS if "top" in c}
    assert expected <= ids
