"""What the command line prints with ``--json``, byte for byte against its recordings
(``tests/contract_golden.py``): ``ask`` over English and Chinese questions, a user's own
records, parallel views, upcoming versions and answers not found, a written answer, and
``documents``, ``time`` and ``review``. The default pipeline runs without its
cross-encoder (``without_models``): the rules decide, no model loads."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from chronorag import cli

from ..answer.recorded_llm import RecordedLLM, Reply
from ..contract_golden import (
    GOLDEN,
    NOW,
    QUESTIONS,
    ZONE,
    Asked,
    build_store,
    check,
    shows,
    without_models,
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("contract") / "kb.db"
    with without_models():
        build_store(path)
        yield path


def _printed(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def _ask_argv(db: Path, asked: Asked) -> list[str]:
    argv = ["ask", asked.question, "--db", str(db), "--now", NOW, "--tz", ZONE, "--json"]
    if asked.user is not None:
        argv += ["--user", asked.user]
    if asked.as_of is not None:
        argv += ["--as-of", asked.as_of]
    return argv + (["--admin"] if asked.admin else [])


@pytest.mark.parametrize("asked", QUESTIONS, ids=[a.name for a in QUESTIONS])
def test_ask_json(db: Path, capsys: pytest.CaptureFixture[str], asked: Asked) -> None:
    out = _printed(capsys, *_ask_argv(db, asked))
    assert shows(asked, json.loads(out)), f"{asked.name} no longer shows {asked.shows}"
    check(f"cli/ask_{asked.name}.json", out)


@pytest.mark.parametrize("reply", ["You have 45 days [returns-2024].", "About 60 days."],
                         ids=["accepted", "rejected"])
def test_ask_json_with_a_written_answer(db: Path, capsys: pytest.CaptureFixture[str],
                                        reply: str) -> None:
    asked = QUESTIONS[0]
    with RecordedLLM(Reply(reply)) as llm:
        out = _printed(capsys, *_ask_argv(db, asked), "--llm", llm.url)
    assert '"generation": {' in out
    name = "accepted" if "45" in reply else "rejected"
    check(f"cli/ask_written_{name}.json", out)


STORE_COMMANDS = {
    "documents_list": ["documents", "list"],
    "documents_show": ["documents", "show", "returns-2026"],
    "documents_show_headings": ["documents", "show", "handbook"],
    "review": ["review", "--as-of", NOW],
}


@pytest.mark.parametrize("name", list(STORE_COMMANDS))
def test_store_commands_json(db: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    out = _printed(capsys, *STORE_COMMANDS[name], "--db", str(db), "--tz", ZONE, "--json")
    check(f"cli/{name}.json", out)


TIMES = {"zh_last_tuesday": "上周二", "en_last_tuesday": "last Tuesday",
         "en_before": "before 1981", "zh_month": "2021年5月"}


@pytest.mark.parametrize("name", list(TIMES))
def test_time_json(capsys: pytest.CaptureFixture[str], name: str) -> None:
    out = _printed(capsys, "time", TIMES[name], "--now", NOW, "--tz", ZONE, "--json")
    check(f"cli/time_{name}.json", out)


def test_time_extract_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    news = tmp_path / "news.txt"
    news.write_text("Since 2013 the office opened every Monday; it closed for three days "
                    "last week, and 上周二 it reopened between 1994 and 1997 prices.",
                    encoding="utf-8")
    out = _printed(capsys, "time", "--extract", str(news), "--now", NOW, "--tz", ZONE)
    check("cli/time_extract.jsonl", out)


def test_no_recording_is_left_unchecked() -> None:
    """A recording no test produces pins nothing: remove it or check it."""
    produced = {f"ask_{a.name}.json" for a in QUESTIONS}
    produced |= {"ask_written_accepted.json", "ask_written_rejected.json",
                 "time_extract.jsonl"}
    produced |= {f"{name}.json" for name in STORE_COMMANDS}
    produced |= {f"time_{name}.json" for name in TIMES}
    assert {p.name for p in (GOLDEN / "cli").iterdir()} == produced
