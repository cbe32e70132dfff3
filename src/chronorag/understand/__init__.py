"""Question understanding: content, intent and time constraint.

``understand("Who was the last winner of the Tour before 2022?", now=...)`` gives content
"Who was the winner of the Tour?", intent CONTENT and the constraint
``before / last / [None, 2022-01-01)``. The first time expression of the question sets the
constraint; with no relation word it is ``in``; with no time at all the relation is
``none``. See ``chronorag.timex.relations`` for the interval each relation selects.
``resolve_as_of`` turns the constraint into the time the question is about (its ``as_of``).
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo

from chronorag.model import Understanding
from chronorag.people.model import Directory
from chronorag.timex import parse
from chronorag.timex.engine import Found
from chronorag.timex.pipeline import context, find
from chronorag.timex.relations import relate
from chronorag.understand.anchor import anchor_of
from chronorag.understand.constraint import build, order_of, resolve_as_of, time_constraint
from chronorag.understand.content import remove_spans
from chronorag.understand.entities import find_entities
from chronorag.understand.intent import detect_intent

__all__ = ["resolve_as_of", "understand"]


def _names_present(found: Found, now: datetime) -> bool:
    interval = found.interval
    return (found.kind == "ref" and interval is not None and interval.start is not None
            and interval.end is not None and interval.start <= now < interval.end)


def understand(question: str, *, now: datetime, tz: tzinfo = UTC,
               people: Directory | None = None, user: str | None = None) -> Understanding:
    """Content, intent, constraint, time expressions and people of ``question``.

    ``people`` names the persons the question may mention; 我/I/my/me mean ``user``.
    """
    every = [f for f in find(question, context(now, tz)) if f.interval is not None]
    # "now", "currently", 目前: a question about the present asks what any question without
    # a time asks (as_of is now), so the word sets no constraint; it leaves the content.
    present = [f for f in every if _names_present(f, now)]
    found = [f for f in every if f not in present]
    relation, related = time_constraint(question, found)
    spans = [(r.start, r.end) for r in (relate(question, f) for f in found)]
    spans += [(f.start, f.end) for f in present]
    blanked = list(question)
    for start, end in spans:
        blanked[start:end] = " " * (end - start)
    order, order_spans = order_of("".join(blanked))
    content = remove_spans(question, spans + order_spans)
    return Understanding(
        question=question,
        content=content,
        intent=detect_intent(question),
        constraint=build(relation, related, order, anchor_of(question, related)),
        time_expressions=tuple(parse(question, now=now, tz=tz)),
        entities=find_entities(question, directory=people, user=user),
    )
