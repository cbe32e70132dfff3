"""The ingest and reindex progress bar: on a terminal only, never with --quiet."""

from __future__ import annotations

import io
import re

from chronorag.cli.progress import progress_bar
from chronorag.pipeline.ingest import IngestProgress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_shows_file_documents_chunks_and_rate() -> None:
    stream = _Terminal()
    bar = progress_bar(stream)
    assert bar is not None
    bar(IngestProgress(0, 40, 0, 1, 2, "privacy/"))
    bar(IngestProgress(25, 40, 130, 2, 2, "tos/terms.md"))
    bar.close()
    shown = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue()).split())
    assert "ingesting file 2/2 tos/terms.md" in shown
    assert "25/40 documents" in shown and "130 chunks" in shown and "/s" in shown


def test_reindex_has_no_files() -> None:
    stream = _Terminal()
    bar = progress_bar(stream, what="reindexing")
    assert bar is not None
    bar(IngestProgress(3, 9, 12))
    bar.close()
    assert "reindexing" in stream.getvalue() and "file" not in stream.getvalue()


def test_quiet_or_not_a_terminal_is_no_bar() -> None:
    assert progress_bar(_Terminal(), quiet=True) is None
    assert progress_bar(io.StringIO()) is None
