"""CLI fixtures: the default models replaced by the hash embedder, so commands that embed
(ingest, delete's index refresh) run in process without loading a model."""

from __future__ import annotations

import pytest

from chronorag import cli
from chronorag.config import get_preset
from chronorag.retrieve.embedders import EMBEDDERS

from ..conftest import HashEmbedder


@pytest.fixture
def no_models(monkeypatch: pytest.MonkeyPatch) -> None:
    config = get_preset("default")
    for name in {config.embedder, *config.judges}:
        monkeypatch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``chronorag ARGV`` in process: (exit code, stdout, stderr)."""
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
