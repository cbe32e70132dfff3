"""Human-readable rendering for the CLI (the library itself never prints)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from rich.markup import escape

from chronorag.model import Answer, Evidence
from chronorag.people.model import Directory
from chronorag.pipeline.accept import Accepted
from chronorag.pipeline.ingest import IngestReport
from chronorag.store.base import ApiKey

if TYPE_CHECKING:
    from chronorag.review import ReviewReport
    from chronorag.store.migrate import MigrationReport


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
            task.append(bar.add_task("ingesting documents", total=total))
        bar.update(task[0], completed=done)
        if done >= total:
            bar.stop()

    return update


def ingest_report(report: IngestReport) -> str:
    counts = (f"{report.files} file(s): {len(report.added)} added, {len(report.replaced)} "
              f"replaced, {len(report.unchanged)} unchanged; {report.chunks} chunk(s) written")
    return "\n".join([*report.notes, counts])


def accepted_dates(accepted: Accepted) -> str:
    """One line per document whose fields were filled from its text."""
    lines = [f"  {doc_id}: " + ", ".join(f"{name} {value}" for name, value in fields.items())
             for doc_id, fields in sorted(accepted.fields.items())]
    return "\n".join([f"accepted the dates their texts state for {len(lines)} document(s)",
                      *lines])


def people_report(directory: Directory) -> str:
    """One line per person with aliases, then who may see whose records."""
    lines = [f"{len(directory.people)} people loaded"]
    for person in directory.people:
        aliases = f" ({', '.join(person.aliases)})" if person.aliases else ""
        lines.append(f"  {person.id}: {person.name}{aliases}")
    for reader, subjects in sorted(directory.access.items()):
        lines.append(f"  {reader} may also see: {', '.join(subjects) or 'nobody'}")
    return "\n".join(lines)


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
    console.print(f"[bold {style}]{answer.status.value}[/bold {style}]: "
                  f"{escape(answer.answer or '—')}")
    for i, ev in enumerate(answer.evidence, 1):
        console.print(f"  {i}. {_evidence_line(ev)}")
    for ev in answer.upcoming:
        console.print(f"  [cyan]upcoming[/cyan] from {ev.valid_from}: {_evidence_line(ev)}")
    if answer.flags:
        console.print(f"  flags: {escape(', '.join(answer.flags))}")
    if "generation" in answer.extras:
        console.print(f"  {escape(_generation_line(answer.extras['generation']))}")


def _generation_line(info: Mapping[str, Any]) -> str:
    """What the model did: its answer used, not used and why, or why it was not asked."""
    who = info.get("model") or "the model"
    if info.get("used"):
        return f"written by {who}; every citation, number and date checked"
    if info.get("error"):
        return f"{who} failed ({info['error']}); the extractive answer stands"
    if info.get("skipped"):
        return f"not sent to {who}: {info['skipped']}"
    problems = "; ".join(p["detail"] for p in info.get("problems", ())[:3])
    return f"{who} wrote {info.get('text')!r}, not used: {problems}"


def review_report(report: ReviewReport) -> str:
    """Plain-text review: one section per kind of finding, one line per finding."""
    lines = [f"Review as of {report.as_of.isoformat()} "
             f"(similarity threshold {report.threshold:g})"]
    sections = (("Undated documents", report.undated),
                ("Dates and predecessors the texts state (chronorag review --accept-dates "
                 "[ID ...] writes them in)", report.proposed_dates),
                ("Relative phrases with no time to read them against", report.unanchored),
                ("Copies of documents that no longer apply", report.stale_copies),
                ("Identical documents", report.duplicates),
                ("Documents that look like versions of one another", report.versions),
                ("Links to documents that are not stored", report.dangling_links),
                ("Similar documents of different owners without a link",
                 report.similar_pairs))
    for heading, items in sections:
        lines.append(f"\n{heading}: {len(items) or 'none'}")
        for item in items:
            owners = ", ".join(o or "?" for o in item.owners)
            measure = "cosine" if item.kind == "similar_unlinked" else "overlap"
            sim = "" if item.similarity is None else f" {measure} {item.similarity:.3f}"
            lines.append(f"  - {' <> '.join(item.doc_ids)} (owners: {owners}){sim}")
            lines.append(f"    {item.reason}")
    return "\n".join(lines)


def _interval(c: dict[str, Any]) -> str:
    if c["start"] is None and c["end"] is None:
        return ""
    return f" [{c['start'] or '-inf'}, {c['end'] or '+inf'})"


def _evidence_line(ev: Evidence) -> str:
    text = ev.text if len(ev.text) <= 110 else ev.text[:107] + "..."
    flags = f" [{', '.join(ev.flags)}]" if ev.flags else ""
    mark = "" if ev.applicable else " (not applicable)"
    owner = f", {ev.owner}" if ev.owner else ""
    # escape(): rich would swallow "[superseded, derived_copy]" as markup.
    return escape(f"{ev.title or ev.doc_id} ({ev.source_type or '?'}{owner}, "
                  f"score {ev.score:.3f}){mark}{flags}\n     {text}")


def keys_table(keys: Sequence[ApiKey], *, as_json: bool = False) -> str:
    """``chronorag keys list``: id, user, admin, created and revoked (never a key)."""
    rows = [{"id": k.id, "user": k.user, "admin": k.admin,
             "created_at": k.created_at.isoformat(),
             "revoked_at": None if k.revoked_at is None else k.revoked_at.isoformat()}
            for k in keys]
    if as_json:
        return json.dumps(rows, ensure_ascii=False)
    if not rows:
        return "no keys; make one with: chronorag keys add --user ID [--admin]"
    return "\n".join(f"{r['id']}  {r['user']}  {'admin' if r['admin'] else 'asker'}  "
                     f"made {r['created_at']}"
                     + (f"  REVOKED {r['revoked_at']}" if r["revoked_at"] else "")
                     for r in rows)


def migration_report(report: MigrationReport) -> str:
    """Rows per table on both stores, then whether the copy is verified."""
    tables = sorted(set(report.source) | set(report.target))
    width = max((len(t) for t in tables), default=5)
    lines = [f"{'table':<{width}}  {'source':>9}  {'target':>9}"]
    lines += [f"{t:<{width}}  {report.source.get(t, 0):>9}  {report.target.get(t, 0):>9}"
              for t in tables]
    lines.append(f"{report.copied} document(s) copied, {report.unchanged} already there; "
                 + ("verified: both stores hold the same" if report.verified
                    else "NOT verified"))
    return "\n".join(lines)
