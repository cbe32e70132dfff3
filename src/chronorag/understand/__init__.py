"""Question understanding: content, intent and time constraint.

``understand("Who was the last winner of the Tour before 2022?", now=...)`` gives content
"Who was the winner of the Tour?", intent CONTENT and the constraint
``before / last / [None, 2022-01-01)``. The first time expression of the question sets the
constraint; with no relation word it is ``in``; with no time at all the relation is
``none``. See ``chronorag.timex.relations`` for the interval each relation selects.
``resolve_as_of`` turns the constraint into the time the question is about (its ``as_of``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo

from chronorag.model import Intent, Understanding
from chronorag.people.model import Directory
from chronorag.timex import parse
from chronorag.timex.engine import Found
from chronorag.timex.pipeline import context, find
from chronorag.timex.relations import Related, relate
from chronorag.understand.anchor import anchor_of
from chronorag.understand.constraint import build, order_of, resolve_as_of, time_constraint
from chronorag.understand.content import remove_spans
from chronorag.understand.doubt import borrows_now, compares, doubts_of
from chronorag.understand.entities import find_entities
from chronorag.understand.event import named_time
from chronorag.understand.intent import detect_intent
from chronorag.understand.present import names_present, present_word_spans

__all__ = ["resolve_as_of", "understand"]


_POSSESSIVE = re.compile(r"['’]s\b")


def _span(question: str, related: Related) -> tuple[int, int]:
    """The span of a time with its relation word, and its possessive ("today's")."""
    end = related.end
    m = _POSSESSIVE.match(question, end)
    return related.start, m.end() if m else end


def _split_present(question: str, every: list[Found], *, now: datetime,
                   intent: Intent) -> tuple[list[Found], list[tuple[int, int]]]:
    """The times that constrain the question, and the spans of those that name the present.

    "now", "currently", 目前 (and "today" in a question about a state, see
    :mod:`chronorag.understand.present`): a question about the present asks what any
    question without a time asks (as_of is now), so the word sets no constraint; it and
    its relation word ("as of now") leave the content.
    """
    found, present = [], []
    for f in every:
        related = relate(question, f)
        if names_present(question, f, related, now=now, intent=intent):
            present.append(_span(question, related))
        else:
            found.append(f)
    return found, present + present_word_spans(question)


def understand(question: str, *, now: datetime, tz: tzinfo = UTC,
               people: Directory | None = None, user: str | None = None) -> Understanding:
    """Content, intent, constraint, time expressions and people of ``question``.

    ``people`` names the persons the question may mention; 我/I/my/me mean ``user``.
    """
    intent = detect_intent(question)
    ctx = context(now, tz)
    # "…当月，" is the month of the event the clause names, not now's.
    event = named_time(question)
    every = [f for f in find(question, ctx) if f.interval is not None
             and not (event and event.holds_unit(f.start))]
    found, spans = _split_present(question, every, now=ctx.now or now, intent=intent)
    # After an event's clause, a time without its year or month ("至10日", "前三季度") is of
    # the event's month or year, which is not known, not of now's: it sets no constraint.
    timing = [f for f in found if not (event and borrows_now(f))]
    relation, related = time_constraint(question, timing)
    spans += [_span(question, relate(question, f)) for f in found]
    blanked = list(question)
    for start, end in spans:
        blanked[start:end] = " " * (end - start)
    # "哪个最早发生" picks one of the events it lists: not an order over the answers.
    compared = compares(question)
    order, order_spans = (None, []) if compared else order_of("".join(blanked))
    # "…当天，" names the question's time by an event: it is no more content than a date.
    content = remove_spans(question, spans + order_spans + ([event.span] if event else []))
    return Understanding(
        question=question,
        content=content,
        intent=intent,
        constraint=build(relation, related, order, anchor_of(question, related),
                         doubts_of(timing, related, compared=compared)),
        time_expressions=tuple(parse(question, now=now, tz=tz)),
        entities=find_entities(question, directory=people, user=user),
        event=event.time if event else None,
    )
