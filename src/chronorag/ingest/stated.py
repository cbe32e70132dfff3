"""Dates and version links a document's own text states: proposed, never assumed.

A policy often says when it applies only in its body: "Effective date: February 1, 2024",
"> Last Updated: October 20, 2025", 生效日期：2024年2月1日, 本办法自2024年3月1日起施行，原《退货
办法》同时废止. ``propose(text)`` reads the statements near the top of a document (its first
``TOP_LINES`` lines, at most ``TOP_CHARS`` characters) and in its last ``TAIL_LINES`` lines
(where "Last updated" lines and a Chinese regulation's 施行 article stand) with the table of
cues below, and returns one ``Proposal`` per field found: ``valid_from`` (effective, valid
from, in effect as of, 生效, 施行), ``modified_at`` (last updated, revised, 修订于, 更新于) and
``supersedes`` (replaces, supersedes, 原《…》同时废止: the name as written, resolved to a
document id later and only when exactly one document has that id or title).

Dates are read by ``chronorag.timex`` with absolute rules only: "last week" names no date
without the moment the text was written. A date a relation word closes ("until 2020",
"before May") is not a start and is skipped.

Proposals are kept as JSON in ``Document.metadata[PROPOSED]`` (see ``Proposal.to_json``);
they change nothing until adopted (``adopt``: ``ingest --dates-from-text`` or
``review --accept-dates``), which fills only fields the document leaves empty and records
under ``metadata[FROM_TEXT]`` which fields came from text and from which sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from chronorag.contract import to_json
from chronorag.model import Granularity, Interval, Mention, Relation
from chronorag.timex import sentence_mentions

__all__ = [
    "FROM_TEXT",
    "PROPOSED",
    "TOP_CHARS",
    "TOP_LINES",
    "Proposal",
    "is_date_line",
    "proposals_of",
    "propose",
]

PROPOSED = "_proposed"
FROM_TEXT = "_from_text"
TOP_LINES = 15
TOP_CHARS = 1500
TAIL_LINES = 10
_LONG_LINE = 240  # longer lines are read sentence by sentence
# A line that is a date label and its value ("Effective date: November 16, 2020",
# "**Last updated:** …", "生效日期：…") states the document's date wherever it stands: a
# summary table or a table of contents may push it below the top lines.
_DATE_LINE = re.compile(r"[\W_]*(?:effective(?:\s+date)?|last\s+(?:updated|modified|revised)"
                        r"|(?:updated|revised|modified)(?:\s+on)?|生效(?:日期|时间)"
                        r"|(?:更新|修订|施行)(?:日期|时间))[\W_]*[:：]", re.IGNORECASE)
_DATE_LINE_CHARS = 80


@dataclass(frozen=True)
class _DateCue:
    field: str
    words: re.Pattern[str]


def _cue(field: str, pattern: str) -> _DateCue:
    return _DateCue(field, re.compile(pattern, re.IGNORECASE))


# The cue words of each date field. English cues are whole words; Chinese ones are the
# words 施行/生效/修订 with the forms regulations use. A statement may hold several cues
# ("Effective: 1 Feb 2024 · Last updated: 20 Jan 2024"): each takes its nearest date.
DATE_CUES: tuple[_DateCue, ...] = (
    _cue("modified_at", r"\b(?:last(?:ly)?[\s_-]+(?:updated|modified|revised|changed|edited)"
                        r"|(?:updated|revised|modified|amended)\s+(?:on|as\s+of)"
                        r"|revision\s+date|date\s+of\s+(?:last\s+)?revision)\b"
                        r"|(?<!\w)(?:updated|revised)(?=\s*[:：])"
                        r"|最后更新|最近更新|更新(?:日期|时间|于)|修订(?:日期|时间|于)|修改(?:日期|于)"
                        r"|于[^，。；\n]{0,16}修订"),
    _cue("valid_from", r"\b(?:effective(?:\s+(?:date|from|as\s+of|on))?|takes?\s+effect"
                       r"|comes?\s+into\s+(?:force|effect)|enters?\s+into\s+force"
                       r"|in\s+(?:effect|force)(?:\s+(?:as\s+of|from|since))?"
                       r"|valid\s+(?:from|as\s+of|since)|applies\s+from|in\s+force\s+from"
                       r"|commencement\s+date)\b"
                       r"|生效(?:日期|时间)?|施行|实施(?:日期)?|执行(?:日期)?|起效"),
)

# Version words and the name they take: an English name runs to the end of its clause, a
# Chinese one is the title in 《》 that the statement retires.
_SUPERSEDES = (
    # The document must be the subject ("This policy replaces …", "These terms supersede
    # …", "Supersedes: …"): prose replaces elevators and ministers too.
    re.compile(r"(?:\b(?:this|these|it)\b[^.;:\n]{0,60}?\b(?:replaces?|supersedes?|"
               r"takes\s+the\s+place\s+of)|^[\W_]*(?:replaces|supersedes)\s*:?)"
               r"\s+(?P<name>[^.;:\n]{2,120}?)\s*"
               r"(?=[.;:\n]|,\s|\s+(?:effective|as\s+of|from|on|which|dated)\b|$)",
               re.IGNORECASE),
    re.compile(r"(?:原|旧)?《(?P<name>[^》\n]{1,80})》[^。；\n]{0,20}?(?:同时|即行|随之)?"
               r"(?:废止|停止执行|失效|作废)"),
    re.compile(r"(?:代替|取代|替代)(?:原|旧)?《(?P<name>[^》\n]{1,80})》"),
)
# A name that points at no document in particular.
_VAGUE = re.compile(r"^(?:(?:all|any|the|our|its|this|these|those|every)\s+)*"
                    r"(?:previous|prior|earlier|former|old|older|existing|preceding)?\s*"
                    r"(?:versions?|editions?|policies|policy|terms|statements?|documents?"
                    r"|agreements?|notices?|ones?)?\s*$|^(?:it|them|this|that)$", re.IGNORECASE)
_ANY_CUE = re.compile("|".join(f"(?:{p.pattern})".replace("?P<name>", "")
                               for p in (*(c.words for c in DATE_CUES), *_SUPERSEDES)),
                      re.IGNORECASE)
_CLOSING = frozenset({Relation.UNTIL, Relation.BEFORE, Relation.AFTER})
_SENTENCE_END = re.compile(r"(?<=[。！？；!?])|(?<=[.;])\s+(?=[A-Z\"“(])")
# Markup and quote marks around a name or a heading: not part of what it names.
_MARKUP = re.compile(r"[*_`#>\[\]\"“”‘’'「」《》()（）]+")


@dataclass(frozen=True)
class Proposal:
    """A field value the text states: ``field`` is ``valid_from``, ``modified_at`` or
    ``supersedes``; ``value`` the date in ISO 8601 at its ``granularity`` ("2024-02-01",
    "2023-05") or, for ``supersedes``, the name as written; ``sentence`` the statement it
    came from, at ``[start, end)`` of the document text."""

    field: str
    value: str
    granularity: str | None
    sentence: str
    start: int
    end: int

    def to_json(self) -> dict[str, Any]:
        return to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Proposal:
        return cls(str(data["field"]), str(data["value"]), data.get("granularity"),
                   str(data["sentence"]), int(data["start"]), int(data["end"]))


def is_date_line(line: str) -> bool:
    """Whether ``line`` is a document's date label with its value ("Effective date:
    November 16, 2020", "Last updated: June 2025", "生效日期：2024年2月1日")."""
    line = line.strip()
    return len(line) <= _DATE_LINE_CHARS and _DATE_LINE.match(line) is not None


def proposals_of(metadata: Mapping[str, Any]) -> tuple[Proposal, ...]:
    """The proposals kept in a document's metadata (none when it holds none or bad ones)."""
    raw = metadata.get(PROPOSED)
    if not isinstance(raw, list):
        return ()
    out = []
    for item in raw:
        try:
            out.append(Proposal.from_json(item))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(out)


def propose(text: str, *, tz: tzinfo = UTC) -> tuple[Proposal, ...]:
    """What ``text`` states about its own dates and predecessors (see the module docstring):
    the first proposal of each date field, every distinct ``supersedes`` name, in text
    order. Never raises on any text."""
    found: dict[str, Proposal] = {}
    names: list[Proposal] = []
    spans = list(_statements(text))
    # Only statements with a cue (and the line after one) are read for dates: the time
    # parser is the cost, and most lines of most documents name no date of their own.
    cued = [i for i, (a, b) in enumerate(spans) if _ANY_CUE.search(text, a, b)]
    read = sorted({j for i in cued for j in (i, i + 1) if j < len(spans)})
    mentions = dict(zip(read, sentence_mentions(text, [spans[j] for j in read], tz=tz)
                        if read else [], strict=True))
    for index in cued:
        start, end = spans[index]
        own = [m for m in mentions[index] if not m.inherited]
        follower = _next_line_date(text, spans, mentions, index)
        for proposal in _date_proposals(text, start, end, own, follower):
            found.setdefault(proposal.field, proposal)
        for proposal in _supersedes(text, start, end):
            if all(p.value != proposal.value for p in names):
                names.append(proposal)
    return tuple(sorted((*found.values(), *names), key=lambda p: (p.start, p.field)))


def _statements(text: str) -> Iterator[tuple[int, int]]:
    """Spans of the non-blank lines (long ones cut into sentences) of the top and tail,
    then the date lines of the body (``_DATE_LINE``)."""
    lines = _lines(text)
    top = [s for s in lines[:TOP_LINES] if s[0] < TOP_CHARS]
    tail = [s for s in lines[-TAIL_LINES:] if s not in top and s[1] > len(text) - TOP_CHARS]
    yield from _near_ends(text, top, tail)
    ends = set(top) | set(tail)
    yield from (s for s in lines if s not in ends and s[1] - s[0] <= _DATE_LINE_CHARS
                and _DATE_LINE.match(text, s[0], s[1]))


def _near_ends(text: str, top: Sequence[tuple[int, int]], tail: Sequence[tuple[int, int]]
               ) -> Iterator[tuple[int, int]]:
    for start, end in (*top, *tail):
        if end - start <= _LONG_LINE:
            yield start, end
            continue
        # A long line is read where it is near the top or the end of the text, a sentence
        # at a time.
        if start < TOP_CHARS:
            end = min(end, TOP_CHARS)
        else:
            start = max(start, len(text) - TOP_CHARS)
        cut = start
        for m in _SENTENCE_END.finditer(text, start, end):
            if m.start() > cut:
                yield from _stripped(text, cut, m.start())
                cut = m.end()
        yield from _stripped(text, cut, end)


def _lines(text: str) -> list[tuple[int, int]]:
    out = []
    pos = 0
    for line in text.split("\n"):
        out.extend(_stripped(text, pos, pos + len(line)))
        pos += len(line) + 1
    return out


def _stripped(text: str, start: int, end: int) -> list[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return [(start, end)] if end > start else []


def _next_line_date(text: str, spans: Sequence[tuple[int, int]],
                    dated: Mapping[int, tuple[Mention, ...]], index: int
                    ) -> tuple[Mention, int] | None:
    """The date of the next statement, and where that statement ends, when it is the date
    alone ("Effective date:" on one line, "February 1, 2024" on the next)."""
    if index + 1 >= len(spans):
        return None
    start, end = spans[index + 1]
    own = [m for m in dated[index + 1] if not m.inherited]
    if len(own) != 1:
        return None
    rest = _MARKUP.sub("", text[start:own[0].start] + text[own[0].end:end]).strip(" :：.,")
    return (own[0], end) if not rest else None


def _date_proposals(text: str, start: int, end: int, mentions: Sequence[Mention],
                    follower: tuple[Mention, int] | None) -> Iterator[Proposal]:
    sentence = text[start:end]
    cues = sorted((m.start() + start, m.end() + start, c.field)
                   for c in DATE_CUES for m in c.words.finditer(sentence))
    cues = [c for i, c in enumerate(cues) if not i or c[0] >= cues[i - 1][1]]
    taken: set[int] = set()
    for number, (lo, hi, field) in enumerate(cues):
        nxt = cues[number + 1][0] if number + 1 < len(cues) else end
        prev = cues[number - 1][1] if number else start
        free = [m for m in mentions if m.start not in taken]
        # A date inside the cue (于2023年5月修订), else the first after it, else the last
        # before it (自2024年3月1日起施行), never one past a neighbouring cue.
        inside = [m for m in free if lo <= m.start and m.end <= hi]
        after = [m for m in free if hi <= m.start < nxt]
        before = [m for m in free if prev <= m.start and m.end <= lo]
        choice = next(iter(inside or after or before[-1:]), None)
        finish = end
        if choice is None and number + 1 == len(cues) and not mentions and follower:
            choice, finish = follower
        if choice is None or choice.relation in _CLOSING:
            continue
        value = _iso(choice.interval)
        if value is None:
            continue
        taken.add(choice.start)
        granularity = choice.interval.granularity
        yield Proposal(field, value, None if granularity is None else granularity.value,
                       text[start:finish], start, finish)


def _iso(interval: Interval) -> str | None:
    """The start of ``interval`` in ISO 8601 at its granularity, or None when it has no
    start or names a span coarser than a year or finer than a day."""
    moment: datetime | None = interval.start
    if moment is None:
        return None
    shapes = {Granularity.YEAR: "%Y", Granularity.MONTH: "%Y-%m", Granularity.DAY: "%Y-%m-%d"}
    shape = shapes.get(interval.granularity) if interval.granularity else None
    if shape is None:
        if interval.granularity in (Granularity.HOUR, Granularity.MINUTE, Granularity.SECOND):
            return moment.isoformat()
        return None
    return f"{moment.year:04d}" + moment.strftime(shape)[4:]


def _supersedes(text: str, start: int, end: int) -> Iterator[Proposal]:
    sentence = text[start:end]
    for pattern in _SUPERSEDES:
        for m in pattern.finditer(sentence):
            name = clean_name(m.group("name"))
            if name and not _VAGUE.match(name):
                yield Proposal("supersedes", name, None, sentence, start, end)


def clean_name(name: str) -> str:
    """A name without markup, quote marks or a leading article, spaces collapsed."""
    name = re.sub(r"\s+", " ", _MARKUP.sub(" ", name)).strip(" ,.:;-—")
    return re.sub(r"^(?:the|our|its)\s+", "", name, flags=re.IGNORECASE)
