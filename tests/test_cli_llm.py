"""``--llm`` options of the command line: refused before anything is opened when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronorag import cli


@pytest.mark.parametrize(("args", "said"), [
    (["--llm-model", "smol"], "--llm-model names a model of an endpoint"),
    (["--llm", "127.0.0.1:8080"], "--llm: '127.0.0.1:8080' is not an http(s) URL"),
    (["--llm", "ftp://host/v1"], "is not an http(s) URL"),
])
@pytest.mark.parametrize("command", [["ask", "How long?"], ["serve"], ["mcp"]])
def test_a_wrong_llm_option_is_one_line_and_exit_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str],
        args: list[str], said: str) -> None:
    db = tmp_path / "kb.db"
    assert cli.main([*command, "--db", str(db), *args]) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err
    assert not db.exists()  # refused before the store was opened


def test_llm_timeout_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["ask", "q", "--llm", "http://h/v1", "--llm-timeout", "0"])
    assert exit_.value.code == 2 and "must be a whole number above 0" in \
        capsys.readouterr().err
