"""Answers over personal records (events with ``occurred_at``), shaped by intent.

Used when the evidence holds event records and the general rules did not decide on a
non-record document (a policy, a wiki page): those keep the general answer.

* **Relevant record**: its relevance ``max(semantic, dense_relevance)`` clears
  ``min_semantic``, or a key content word of the question appears in it; a question with
  no content words but a time ("what did I do on Wednesday morning?") takes every record
  of its window when none of them clears either test. The second
  relevance is the multilingual embedding's: the English-only cross-encoder cannot judge
  an English question against a Chinese record.
* **time** -> for "what time" / 几点, the clock time of the best record ("12:30"; with its
  date when the question's period is longer than a day), from ``occurred_at`` when finer
  than a day, else from a time its text states; for "when" / 哪天 / 什么时候, the date its
  text states with the phrase and its anchor, else its recorded day (``answer.when``).
  **content** -> its best sentence. **count** -> the number of matching records: key
  words appear, or relevance within ``count_margin`` of the best
  (a relative floor: absolute scores of different models are not comparable); no
  matching record gives ``not_found`` (flag ``no_matching_records``), never "0".
* Every shaped answer is validated (``answer.check``); a failure gives ``uncertain``,
  the raw evidence text as the answer, and a flag saying why.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from functools import lru_cache

from chronorag.answer import check, when
from chronorag.answer.decide import Decision, earliest_first
from chronorag.flags import Flag
from chronorag.lang import RECORD_QUESTION_WORDS
from chronorag.model import AnswerStatus, Document, Evidence, Granularity, Intent, Query
from chronorag.retrieve.scope import event_window
from chronorag.retrieve.tokenize import tokenize

COUNT_MARGIN = 0.3
"""A record counts when its relevance is within this of the most relevant record's."""

PEER_MARGIN = 0.05
"""Records within this relevance of the deciding one are as good: their times must agree."""

STATED_DEPTH = 4
"""A date answer reads its time from the best record or, when that one's text states
none, from the first of the ranking's first four relevant records whose text does
(``_dated``): the turns that tell one event sit close together in the ranking. On
LoCoMo's development half (benchmarks/README.md §32) the best record alone gets 47 of 73
date answers right, two records 52, three 55, four 56, five to eight 54."""


@dataclass(frozen=True)
class PersonalAnswer:
    """The decision over records and the evidence it cites, deciding items first."""

    decision: Decision
    cited: tuple[Evidence, ...]


def relevance(item: Evidence) -> float:
    """Relevance of a record: the better of the reranker's and the embedding's judgement."""
    return max(float(item.scores.get("semantic", 0.0)),
               float(item.scores.get("dense_relevance", 0.0)))


def key_terms(query: Query) -> frozenset[str]:
    """Content words of the question, without people's names and question words."""
    text = query.content
    for entity in query.understanding.entities:
        text = text.replace(entity.text, " ")
    return frozenset(t for t in tokenize(text) if t not in RECORD_QUESTION_WORDS
                     and (len(t) >= 2 if not t.isascii() else len(t) >= 3))


def mentions(item: Evidence, terms: frozenset[str]) -> bool:
    """True when a key term appears in the record (Latin words: a shared 5-letter stem)."""
    if not terms:
        return False
    words, stems = _words(f"{item.title} {item.text}")
    return any(t in words or (t.isascii() and len(t) >= 5 and t[:5] in stems) for t in terms)


@lru_cache(maxsize=4096)
def _words(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of ``text`` and the 5-letter stems of its Latin ones. Cached: a date
    answer asks of each of ~50 records once per key term (``_telling``)."""
    words = frozenset(tokenize(text))
    return words, frozenset(w[:5] for w in words if w.isascii() and len(w) >= 5)


def applies(items: Sequence[Evidence], general: Decision) -> bool:
    """Records answer unless the general rules decided on a document that is no record."""
    if not any(e.occurred_at is not None for e in items):
        return False
    return not general.deciding or general.deciding[0].occurred_at is not None


def answer_records(query: Query, items: Sequence[Evidence], *, general: Decision,
                   documents: Mapping[str, Document], min_semantic: float) -> PersonalAnswer:
    """Shape and validate the answer of ``query`` from the record evidence ``items``;
    times are read and shown in ``query.tz``."""
    terms = key_terms(query)
    records = [e for e in items if e.occurred_at is not None and e.applicable
               and Flag.VIOLATES_TIME not in e.flags]
    relevant = [e for e in records if relevance(e) >= min_semantic or mentions(e, terms)]
    if not terms and query.constraint.interval is not None and not relevant:
        # "这周三我早上做了什么？" names only the asker and a time: the time and the owner chose
        # the records, and there are no words left for relevance to judge.
        relevant = [e for e in records if Flag.TIME_VERIFIED in e.flags]
    if query.understanding.intent is Intent.COUNT:
        return _count(query, records, terms, min_semantic=min_semantic, general=general)
    if not relevant:
        return PersonalAnswer(Decision(AnswerStatus.NOT_FOUND, None, (), general.upcoming,
                                       general.flags, owners=general.owners), ())
    ordered = sorted(relevant, key=lambda e: (mentions(e, terms), relevance(e)), reverse=True)
    best = ordered[0]
    doc = documents.get(best.doc_id)
    granularity = doc.occurred_at.granularity if doc and doc.occurred_at else None
    if query.understanding.intent is Intent.TIME and not _asks_time_of_day(query):
        return _when(query, ordered, relevant, terms, general=general,
                     sessions=_sessions(relevant, documents))
    if query.understanding.intent is Intent.TIME:
        text, flags = _time(query, best, granularity=granularity)
    else:
        text = (best.sentence or best.text).strip()
        flags = check.check_content(text, best)
    flags += check.check_window([best], event_window(query.constraint))
    return _validated(text, flags, [best], general)


def _asks_time_of_day(query: Query) -> bool:
    """"what time" / 几点, or "when" of a question that already names its day ("When did
    Amy have her piano lesson two days ago?"): the day is known, the time of day is asked."""
    return when.asks_clock(query.text) or _within_a_day(query)


def _within_a_day(query: Query) -> bool:
    """Whether the question's own time is one day or less."""
    window = query.constraint.interval
    return (window is not None and window.start is not None and window.end is not None
            and (window.end - window.start).total_seconds() <= 86400)


def _when(query: Query, ordered: Sequence[Evidence], ranked: Sequence[Evidence],
          terms: frozenset[str], *, general: Decision,
          sessions: Mapping[str, Hashable]) -> PersonalAnswer:
    """A date answer (``answer.when``) from the relevant records, ``ordered`` best first
    (``ranked``: the same in the ranking's order): the time the best record's text states,
    else the time one ranked just after it states (``_dated``), else the best record's
    recorded day. ``uncertain`` when records as relevant state another time, or the text
    contradicts the date (``check.check_date``)."""
    tense, tz = when.question_tense(query.text), query.tz
    best, time = _dated(ordered[0], ranked, telling=_telling(terms, ordered), tense=tense,
                        tz=tz, sessions=sessions)
    if time is None:
        return _validated("", [Flag.NO_TIME_IN_EVIDENCE], [best], general)
    keyed = mentions(best, terms)
    peers = [e for e in ordered if e.doc_id != best.doc_id and mentions(e, terms) == keyed
             and relevance(e) >= relevance(best) - PEER_MARGIN]
    others = [t for e in peers if (t := when.answer_time(e, tz=tz, tense=tense)) is not None]
    flags = check.check_date([time.interval], best)
    flags += check.check_window([best], event_window(query.constraint))
    if when.disagreeing(time, others, tense=tense):
        flags.append(Flag.TIMES_DISAGREE)
    text = when.format_answer(time, question=query.text, tz=tz,
                              published_at=best.published_at, source_type=best.source_type)
    status = AnswerStatus.UNCERTAIN if flags else AnswerStatus.ANSWERED
    flags += _sources(time, passed_over=ordered[0] if ordered[0] is not best else None)
    cited = (best, *(e for e in peers if Flag.TIMES_DISAGREE in flags),
             *(e for e in ordered[:1] if e is not best and all(e is not p for p in peers)))
    return PersonalAnswer(Decision(status, text, cited, general.upcoming,
                                   tuple(dict.fromkeys(flags)), time), cited)


def _dated(best: Evidence, ranked: Sequence[Evidence], *, telling: frozenset[str],
           tense: int, tz: tzinfo, sessions: Mapping[str, Hashable]
           ) -> tuple[Evidence, when.AnswerTime | None]:
    """The record a date answer rests on, and its time: ``best``, unless its text states
    no time and one of the first records of the ranking (``STATED_DEPTH``, the evidence a
    reader sees first) that shares a ``telling`` word with the question states one, or,
    failing those, a turn of ``best``'s own conversation session (``sessions``: doc id to
    session) further down that does.

    A conversation tells an event over several turns: "Something bad happened with the
    car yesterday…" and then "A car ran a red light and hit us". The second is what a
    question about the accident matches best, but only the first says when; the day the
    second was said is only a bound (the accident happened by then). A news story tells
    its event whole and neither takes nor gives a date (``when.TOLD_WHOLE``). A reply
    ("organizing that tournament must have been a ton of effort") may rank far above the
    turn of the same sitting that said when ("I've been organizing something with my
    friends yesterday"): a session is one telling, so its turns are searched at any depth.
    """
    time = when.answer_time(best, tz=tz, tense=tense)
    if (time is not None and time.source != "metadata") or not when.tells_part(best):
        return best, time
    session = sessions.get(best.doc_id)
    same = [e for e in ranked[STATED_DEPTH:]
            if session is not None and sessions.get(e.doc_id) == session]
    for other in [e for e in [*ranked[:STATED_DEPTH], *same] if e is not best]:
        if not mentions(other, telling) or not when.tells_part(other):
            continue
        stated = when.answer_time(other, tz=tz, tense=tense)
        if stated is not None and stated.source != "metadata":
            return other, stated
    return best, time


def _sessions(records: Sequence[Evidence],
              documents: Mapping[str, Document]) -> dict[str, Hashable]:
    """The conversation session each record's turn was said in, for turns read from a
    transcript (``ingest.conversation``'s ``conversation`` and ``session`` metadata)."""
    found: dict[str, Hashable] = {}
    for item in records:
        doc = documents.get(item.doc_id)
        meta = {} if doc is None else doc.metadata
        if meta.get("session") is not None and meta.get("conversation") is not None:
            found[item.doc_id] = (str(meta["conversation"]), str(meta["session"]))
    return found


def _telling(terms: frozenset[str], records: Sequence[Evidence]) -> frozenset[str]:
    """The question's key words that tell its records apart: those in at most half of
    ``records``. A word in most of them (the speaker's name that opens every turn of a
    transcript) says nothing about which record is about the question."""
    if len(records) < 2:
        return terms
    return frozenset(t for t in terms
                     if sum(mentions(e, frozenset((t,))) for e in records) * 2 <= len(records))


def _sources(time: when.AnswerTime, *, passed_over: Evidence | None) -> list[Flag]:
    """Flags saying where a date answer's time came from, when not its best record's own
    words."""
    flags = {"metadata": [Flag.TIME_FROM_METADATA], "counted": [Flag.TIME_FROM_DURATION]}.get(
        time.source, [])
    return [*flags, *([Flag.TIME_FROM_RELATED_RECORD] if passed_over is not None else [])]


def _time(query: Query, best: Evidence, *,
          granularity: Granularity | None) -> tuple[str, list[Flag]]:
    tz = query.tz
    times = check.clock_times(best, tz=tz, granularity=granularity)
    if not times:
        return "", [Flag.NO_TIME_IN_EVIDENCE]
    text = check.format_time(times[0], with_date=not _within_a_day(query))
    return text, check.check_time(text, best, tz=tz, granularity=granularity)


def _count(query: Query, records: Sequence[Evidence], terms: frozenset[str], *,
           min_semantic: float, general: Decision) -> PersonalAnswer:
    if not records:
        return PersonalAnswer(Decision(AnswerStatus.NOT_FOUND, None, (), general.upcoming,
                                       general.flags, owners=general.owners), ())
    best = max(relevance(e) for e in records)
    floor = max(min_semantic, best - COUNT_MARGIN)
    seen: dict[str, Evidence] = {}
    for item in records:
        if item.doc_id not in seen and (mentions(item, terms) or relevance(item) >= floor):
            seen[item.doc_id] = item
    counted = sorted(seen.values(), key=lambda e: earliest_first(e.occurred_at))
    if not counted:
        # Nothing matched: "0" would claim the records are complete; say not found.
        return PersonalAnswer(Decision(AnswerStatus.NOT_FOUND, None, (), general.upcoming,
                                       (Flag.NO_MATCHING_RECORDS,)), ())
    text = str(len(counted))
    flags = check.check_count(text, counted)
    flags += check.check_window(counted, event_window(query.constraint))
    return _validated(text, flags, counted, general)


def _validated(text: str, flags: list[Flag], cited: Sequence[Evidence],
               general: Decision) -> PersonalAnswer:
    if flags:
        raw = cited[0].text if cited else None
        decision = Decision(AnswerStatus.UNCERTAIN, raw, tuple(cited), general.upcoming,
                            tuple(dict.fromkeys(flags)))
    else:
        decision = Decision(AnswerStatus.ANSWERED, text, tuple(cited), general.upcoming, ())
    return PersonalAnswer(decision, tuple(cited))
