"""The progress bar of ``ingest`` and ``reindex`` on stderr (rich), imported only by them."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TimeRemainingColumn,
)
from rich.text import Text

from chronorag.pipeline.ingest import IngestProgress

__all__ = ["ProgressBar", "progress_bar"]


class _Chunks(ProgressColumn):
    """Chunks written so far and how many a second since the start."""

    def render(self, task: Task) -> Text:
        chunks = int(task.fields.get("chunks", 0))
        elapsed = task.elapsed or 0.0
        rate = f"{chunks / elapsed:.1f}" if elapsed > 0 else "?"
        return Text(f"{chunks} chunks, {rate}/s")


class ProgressBar:
    """Called with each ``IngestProgress``: the file being read, documents done of all,
    chunks a second and the time left. ``close`` takes the bar off the terminal."""

    def __init__(self, stream: TextIO, *, what: str) -> None:
        self._what = what
        self._bar = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                             "documents", _Chunks(), TimeRemainingColumn(),
                             console=Console(file=stream), transient=True)
        self._task: TaskID | None = None

    def __call__(self, state: IngestProgress) -> None:
        if self._task is None:
            self._bar.start()
            self._task = self._bar.add_task(self._what, total=state.total)
        where = (f"{self._what} file {state.file}/{state.files} {state.path}"
                 if state.files else self._what)
        self._bar.update(self._task, completed=state.done, total=state.total,
                         description=escape(where), chunks=state.chunks)

    def close(self) -> None:
        self._bar.stop()


def progress_bar(stream: TextIO, *, quiet: bool = False, what: str = "ingesting"
                 ) -> ProgressBar | None:
    """The bar on ``stream``; None (no output at all) when ``quiet`` or ``stream`` is not
    a terminal, so logs and pipes get only the final report."""
    if quiet or not stream.isatty():
        return None
    return ProgressBar(stream, what=what)
