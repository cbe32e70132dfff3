"""Human-readable rendering for the CLI (the library itself never prints)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from chronorag.indexer import IngestReport
from chronorag.model import Answer, Evidence


def progress_callback(stream: TextIO) -> Callable[[int, int], None] | None:
    """A rich progress bar on a terminal; nothing when output is not a TTY."""
    if not stream.isatty():
        return None
    from rich.progress import Progress

    bar = Progress(transient=True)
    task: list[Any] = []

    def update(done: int, total: int) -> None:
        if not task:
            bar.start()
            task.append(bar.add_task("embedding documents", total=total))
        bar.update(task[0], completed=done)
        if done >= total:
            bar.stop()

    return update


def ingest_report(report: IngestReport) -> str:
    return (f"{report.files} file(s): {len(report.added)} added, {len(report.replaced)} "
            f"replaced, {len(report.unchanged)} unchanged; {report.chunks} chunk(s) written")


def time_line(payload: dict[str, Any]) -> str:
    start = payload["start"] or "-inf"
    end = payload["end"] or "+inf"
    return f"{payload['text']}: [{start}, {end}) {payload['granularity']}"


def print_answer(answer: Answer, *, file: TextIO) -> None:
    from rich.console import Console

    console = Console(file=file, highlight=False, soft_wrap=True)
    u = answer.understanding
    c = u.constraint
    console.print(f"[bold]Q:[/bold] {answer.question}")
    console.print(f"   now {answer.now.isoformat()}  as_of {answer.as_of.isoformat()}  "
                  f"intent {u.intent.value}  constraint {c.relation.value}"
                  f"{' ' + c.order.value if c.order else ''}"
                  f"{_interval(c.to_json())}")
    style = {"answered": "green", "uncertain": "yellow", "not_found": "red"}[answer.status.value]
    console.print(f"[bold {style}]{answer.status.value}[/bold {style}]: {answer.answer or '—'}")
    for i, ev in enumerate(answer.evidence, 1):
        console.print(f"  {i}. {_evidence_line(ev)}")
    for ev in answer.upcoming:
        console.print(f"  [cyan]upcoming[/cyan] from {ev.valid_from}: {_evidence_line(ev)}")
    if answer.flags:
        console.print(f"  flags: {', '.join(answer.flags)}")


def _interval(c: dict[str, Any]) -> str:
    if c["start"] is None and c["end"] is None:
        return ""
    return f" [{c['start'] or '-inf'}, {c['end'] or '+inf'})"


def _evidence_line(ev: Evidence) -> str:
    text = ev.text if len(ev.text) <= 110 else ev.text[:107] + "..."
    flags = f" [{', '.join(ev.flags)}]" if ev.flags else ""
    mark = "" if ev.applicable else " (not applicable)"
    return (f"{ev.title or ev.doc_id} ({ev.source_type or '?'}, score {ev.score:.3f})"
            f"{mark}{flags}\n     {text}")
