"""Human-readable rendering for the CLI (the library itself never prints)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, TextIO

from rich.markup import escape

from chronorag.conditions import label
from chronorag.contract import to_json
from chronorag.model import Answer, Constraint, Document, Evidence, Interval, NamedTime, Status
from chronorag.model import iso as _iso
from chronorag.people.model import Directory
from chronorag.pipeline.accept import Accepted, Linked
from chronorag.pipeline.ingest import IngestReport
from chronorag.store.base import ApiKey

if TYPE_CHECKING:
    from chronorag.review import ReviewReport
    from chronorag.store.migrate import MigrationReport


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


def linked_versions(linked: Linked) -> str:
    """One line per document given predecessors, then each chain left unlinked and why."""
    lines = [f"  {doc_id} supersedes {', '.join(older)}" + (
                 f" (valid from its last edit, {linked.dated[doc_id]})"
                 if doc_id in linked.dated else "")
             for doc_id, older in sorted(linked.links.items())]
    rest = [f"  not linked: {', '.join(item['doc_ids'])}: {item['why']}"
            for item in linked.skipped]
    return "\n".join([f"linked {len(lines)} document(s) to the version before them",
                      *lines, *rest])


def people_report(directory: Directory) -> str:
    """One line per person with aliases, then who may see whose records."""
    lines = [f"{len(directory.people)} people loaded"]
    for person in directory.people:
        aliases = f" ({', '.join(person.aliases)})" if person.aliases else ""
        attributes = "".join(f"  {k}={v}" for k, v in person.attributes.items())
        lines.append(f"  {person.id}: {person.name}{aliases}{attributes}")
    for reader, subjects in sorted(directory.access.items()):
        lines.append(f"  {reader} may also see: {', '.join(subjects) or 'nobody'}")
    return "\n".join(lines)


def time_line(payload: dict[str, Any]) -> str:
    start = payload["start"] or "-inf"
    end = payload["end"] or "+inf"
    return f"{payload['text']}: [{start}, {end}) {payload['granularity']}"


def _doubts(constraint: Constraint) -> str:
    """What makes the reading of the question's time unsure, for the header line."""
    if constraint.sure:
        return ""
    return f" (unsure: {', '.join(d.value for d in constraint.doubts)})"


def print_answer(answer: Answer, *, file: TextIO) -> None:
    from rich.console import Console

    console = Console(file=file, highlight=False, soft_wrap=True)
    u = answer.understanding
    c = u.constraint
    console.print(f"[bold]Q:[/bold] {answer.question}")
    console.print(f"   now {answer.now.isoformat()}  as_of {answer.as_of.isoformat()}  "
                  f"intent {u.intent.value}  constraint {c.relation.value}"
                  f"{' ' + c.order.value if c.order else ''}"
                  f"{_interval(c.to_json())}{_doubts(c)}"
                  f"{escape(_named_time(u.event))}")
    if answer.context:
        console.print("   asker " + escape("  ".join(f"{k}={v}" for k, v in
                                                    answer.context.items())))
    style = {"answered": "green", "uncertain": "yellow", "not_found": "red"}[answer.status.value]
    console.print(f"[bold {style}]{answer.status.value}[/bold {style}]: "
                  f"{escape(answer.answer or '—')}")
    for i, group in enumerate(_by_document(answer.evidence), 1):
        console.print(f"  {i}. {_evidence_block(group)}")
    for group in _by_document(answer.upcoming):
        console.print(f"  [cyan]upcoming[/cyan] from {_iso(group[0].valid_from)}: "
                      f"{_evidence_block(group)}")
    if answer.flags:
        console.print(f"  flags: {escape(', '.join(answer.flag_labels()))}")
    if answer.uncovered is not None:
        hole = answer.uncovered
        console.print(escape(f"  no version of {hole.doc_id} covers "
                             f"[{_iso(hole.start) or '-inf'}, {_iso(hole.end) or '+inf'})"))
    if "generation" in answer.extras:
        console.print(f"  {escape(_generation_line(answer.extras['generation']))}")


def _named_time(named: NamedTime | None) -> str:
    """"  the day of 博鳌亚洲论坛2019年年会": the time the question names by an event."""
    return "" if named is None else f"  the {named.unit.value} of {named.event}"


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
                 report.similar_pairs),
                ("Documents without the token vectors late interaction reads",
                 report.unindexed))
    for heading, items in sections:
        lines.append(f"\n{heading}: {len(items) or 'none'}")
        for item in items:
            owners = ", ".join(o or "?" for o in item.owners)
            measure = "cosine" if item.kind == "similar_unlinked" else "overlap"
            sim = "" if item.similarity is None else f" {measure} {item.similarity:.3f}"
            if item.kind == "unindexed":  # one finding for many documents: name a few
                shown = ", ".join(item.doc_ids[:5]) + (", ..." if len(item.doc_ids) > 5 else "")
                lines.append(f"  - {shown}")
            else:
                lines.append(f"  - {' <> '.join(item.doc_ids)} (owners: {owners}){sim}")
            lines.append(f"    {item.reason}")
    return "\n".join(lines)


def _interval(c: dict[str, Any]) -> str:
    if c["start"] is None and c["end"] is None:
        return ""
    return f" [{c['start'] or '-inf'}, {c['end'] or '+inf'})"


def _by_document(evidence: Sequence[Evidence]) -> list[list[Evidence]]:
    """Evidence grouped by document, each group where its best chunk ranked."""
    groups: dict[str, list[Evidence]] = {}
    for ev in evidence:
        groups.setdefault(ev.doc_id, []).append(ev)
    return list(groups.values())


def _evidence_block(group: Sequence[Evidence]) -> str:
    """A document's header (title, id, source, owner, validity), then each of its chunks
    with score, flags and text."""
    first = group[0]
    owner = f", {first.owner}" if first.owner else ""
    title = f"{first.title} " if first.title and first.title != first.doc_id else ""
    applies = f"; for {label(first.applies_to)}" if first.applies_to else ""
    lines = [f"{title}[{first.doc_id}] ({first.source_type or '?'}{owner}; "
             f"{validity(_iso(first.valid_from), _iso(first.valid_to))}{applies})"]
    for ev in group:
        text = ev.text if len(ev.text) <= 110 else ev.text[:107] + "..."
        flags = f" [{', '.join(ev.flags)}]" if ev.flags else ""
        mark = "" if ev.applicable else " (not applicable)"
        lines.append(f"     - score {ev.score:.3f}{mark}{flags}: {text}")
    # escape(): rich would swallow "[superseded, derived_copy]" or an id as markup.
    return escape("\n".join(lines))


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


# -- stored documents (``chronorag documents``, ``GET /v1/documents``) ---------------------


def document_json(doc: Document, *, tz: tzinfo) -> dict[str, Any]:
    """Every field of a stored document (``Document.to_json``), its time fields in ``tz``
    (the zone naive times are read in)."""
    return doc.astimezone(tz).to_json()


@dataclass(frozen=True)
class DocumentRow:
    """One row of the document list: id, title, source, validity (the starts of
    ``valid_from`` and of the exclusive ``valid_to``, as evidence shows them), status,
    supersedes and the number of chunks."""

    id: str
    title: str
    source: str
    valid_from: datetime | None
    valid_to: datetime | None
    status: Status | None
    supersedes: tuple[str, ...]
    chunks: int

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


def _start(value: Interval | None, tz: tzinfo) -> datetime | None:
    return None if value is None or value.start is None else value.start.astimezone(tz)


def document_summary(doc: Document, chunks: int, *, tz: tzinfo) -> dict[str, Any]:
    """``doc``'s row of the document list as JSON, its times in ``tz``."""
    return DocumentRow(doc.id, doc.title, doc.source, _start(doc.valid_from, tz),
                       _start(doc.valid_to, tz), doc.status, doc.supersedes,
                       chunks).to_json()


def validity(valid_from: str | None, valid_to: str | None) -> str:
    """``[from, to)`` of a validity, or "no validity dates"."""
    if valid_from is None and valid_to is None:
        return "no validity dates"
    return f"valid [{valid_from or '-inf'}, {valid_to or '+inf'})"


def documents_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """``chronorag documents list``: one block per document."""
    if not rows:
        return "no documents; add some with: chronorag ingest PATH..."
    lines = [f"{len(rows)} document(s)"]
    for row in rows:
        extra = [row["status"] or "no status", validity(row["valid_from"], row["valid_to"]),
                 f"{row['chunks']} chunk(s)"]
        if row["supersedes"]:
            extra.append("supersedes " + ", ".join(row["supersedes"]))
        lines.append(f"{row['id']}  {row['title'] or '(untitled)'}")
        lines.append(f"    {'; '.join(extra)}")
        lines.append(f"    source: {row['source'] or '?'}")
    return "\n".join(lines)


def document_text(doc: Mapping[str, Any]) -> str:
    """``chronorag documents show``: each field that is set, then a blank line and the
    text."""
    lines = [f"id: {doc['id']}"]
    for name, value in doc.items():
        if name in ("id", "text") or value in (None, [], {}, ""):
            continue
        if isinstance(value, dict) and "granularity" in value:
            shown = (f"[{value['start'] or '-inf'}, {value['end'] or '+inf'}) "
                     f"{value['granularity'] or ''}").rstrip()
        elif isinstance(value, list | dict):
            shown = json.dumps(value, ensure_ascii=False)
        else:
            shown = str(value)
        lines.append(f"{name}: {shown}")
    return "\n".join([*lines, "", doc["text"]])
