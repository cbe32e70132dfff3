"""Context packing for a generator: evidence text under its metadata header.

A language model that writes the answer must see what the retrieval engine saw: whether a
passage applies at ``as_of``, why not, who owns it and when it is valid. Otherwise it
would happily quote a superseded policy.
"""

from __future__ import annotations

from chronorag.model import Answer, Evidence
from chronorag.model import iso as _iso


def context_for_generation(answer: Answer, *, max_items: int | None = None) -> str:
    """The answer's evidence and upcoming items as text blocks with metadata headers.

    Each block starts with ``[doc_id] title`` (the id an answer cites) and one
    ``key: value`` line per known field (doc id, source type, status, owner, valid from/to,
    occurred at, published, applicable, flags), then the passage. A first line states the
    question, ``as_of`` and the status; upcoming versions follow under their own heading.
    """
    lines = [f"Question: {answer.question}",
             f"As of: {answer.as_of.isoformat()} (asked {answer.now.isoformat()})",
             f"Status: {answer.status.value}"
             + (f"; flags: {', '.join(answer.flag_labels())}" if answer.flags else ""), ""]
    evidence = list(answer.evidence)[:max_items] if max_items else list(answer.evidence)
    for item in evidence:
        lines.extend(_block(f"[{item.doc_id}]", item))
    if answer.upcoming:
        lines.extend(["Upcoming versions (they do not apply yet at the asked time):", ""])
    for item in answer.upcoming:
        lines.extend(_block(f"(upcoming) {item.doc_id}:", item))
    return "\n".join(lines).rstrip() + "\n"


def _block(label: str, item: Evidence) -> list[str]:
    fields = {
        "doc_id": item.doc_id, "source_type": item.source_type, "status": item.status,
        "owner": item.owner, "valid_from": _iso(item.valid_from),
        "valid_to": _iso(item.valid_to), "occurred_at": _iso(item.occurred_at),
        "published_at": _iso(item.published_at),
        "applicable": "yes" if item.applicable else "no",
        "flags": ", ".join(item.flags) or None,
    }
    header = [f"{label} {item.title or item.doc_id}"]
    header.extend(f"{key}: {value}" for key, value in fields.items() if value is not None)
    return [*header, item.text, ""]
