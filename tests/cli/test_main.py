"""The command line's own edges: what it does with an empty question and with a reader
that leaves before the output ends (``chronorag ... | head``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chronorag import cli
from chronorag.store.sqlite import SQLiteStore


@pytest.mark.parametrize("command", ["ask", "context"])
@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
def test_an_empty_question_is_a_usage_error_and_opens_no_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
        question: str) -> None:
    db = tmp_path / "kb.db"
    with pytest.raises(SystemExit) as exited:
        cli.main([command, question, "--db", str(db)])
    assert exited.value.code == 2
    assert "the question is empty" in capsys.readouterr().err
    assert not db.exists()


def test_a_reader_that_leaves_early_ends_the_command_quietly(tmp_path: Path) -> None:
    news = tmp_path / "news.txt"
    news.write_text("We met yesterday at noon. " * 4000, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "chronorag.cli", "time", "--extract", str(news),
         "--now", "2026-11-25T10:00:00+00:00"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.read(100)  # the output is far more than a pipe holds
    process.stdout.close()
    err = process.stderr.read().decode()
    code = process.wait(timeout=120)
    assert first.startswith(b"{")
    assert code == 1 and err == "", err


@pytest.mark.slow  # the models start loading before the answer is printed
def test_ask_into_a_closed_pipe_ends_quietly_after_the_models_have_loaded(
        tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "empty.db").close()  # a store without documents
    process = subprocess.Popen(
        [sys.executable, "-m", "chronorag.cli", "ask", "anything at all", "--json",
         "--db", str(tmp_path / "empty.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # gone before the process has written a byte
    err = process.stderr.read().decode()
    assert process.wait(timeout=300) == 1 and err == "", err
