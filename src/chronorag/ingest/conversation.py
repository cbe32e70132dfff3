"""Conversation transcripts (``*.chat.jsonl``): one JSON object a line per turn, each turn
one ``Document`` that evidence can point at.

A turn line::

    {"conversation": "hike-club", "session": 1, "speaker": "Jon",
     "time": "2023-05-08T13:56", "text": "Yes, last Friday!"}

``conversation``, ``speaker`` and ``text`` are required; ``session`` (string or whole
number), ``turn`` (an id), ``image_caption`` and ``private`` are optional; any other key is
kept as metadata, as on documents. ``time`` (ISO 8601, naive read in the ingest time zone)
is required on the first turn of a session: a session is usually dated once, so a later
turn without one takes the time of the turn before it in its session (and says so in
``time_inherited``). A first turn without a time is an error, never a guess.

Each turn becomes a document:

* ``id`` ``"{conversation}/{turn}"``; without ``turn``, its 1-based position in its session
  (``"s3:4"``, or ``"4"`` without a session): stable, so re-ingesting is a no-op and
  evidence names a turn. A duplicate id in one file is an error.
* ``text`` ``"{speaker}: {text}"`` (+ ``" [image: {caption}]"``), ``occurred_at`` the time
  the turn was said (the anchor of its "yesterday" and "上周五"), ``source_type``
  ``"message"``; ``subject`` the speaker when ``"private": true``, else none (public).
* ``title`` ``"{conversation} · session {session} — {speaker}"``, plus the question it
  answers when the turn before it asked one, shortened (see :func:`title`,
  :func:`quotable`).
* metadata ``conversation``, ``session``, ``speaker``, ``turn``, ``position`` (0-based in
  the session), ``previous``/``next`` (ids of the neighbouring turns of the session, or
  null), ``time_inherited``.

Sessions are what a file says they are: turns of one session may be interleaved with other
sessions' but must be in one file (a session's neighbours, times and positions are read
within its file). A session's last turn waits for the end of the file to learn it has no
``next``; any other turn is handed on once the next turn of its session is read, so files
stream in memory bounded by their number of sessions (plus the turn ids, as every loader
keeps ids).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, tzinfo
from typing import TYPE_CHECKING, Any

from chronorag.errors import FieldError
from chronorag.ingest.sentences import split_sentences
from chronorag.ingest.validate import RawRecord, build_document
from chronorag.model import Document

if TYPE_CHECKING:
    from chronorag.ingest.conversation_schema import TurnSchema

__all__ = ["CHAT_SUFFIX", "CONTEXT_CHARS", "SOURCE_TYPE", "Said", "conversation_documents",
           "is_conversation", "quotable", "shorten", "title"]

log = logging.getLogger(__name__)

CHAT_SUFFIX = ".chat.jsonl"
SOURCE_TYPE = "message"
CONTEXT_CHARS = 200
"""How much of the question replied to a title quotes: enough for a question, not a
speech."""

Read = tuple[Document | None, int, list[FieldError]]
"""A turn's document (``None`` when invalid), the line it came from, and its problems."""

_Key = tuple[str, str | None]
# A sentence that asks: a question mark, or a final 吗 (chat often drops the "？").
_ASKS = re.compile(r"[?？]|吗[\s。！!~～…]*$")


def is_conversation(name: str) -> bool:
    """Whether a file named ``name`` holds a conversation transcript."""
    return name.lower().endswith(CHAT_SUFFIX)


@dataclass(frozen=True)
class Said:
    """A turn as the turn after it quotes it."""

    id: str
    speaker: str
    words: str
    private: bool


@dataclass(frozen=True)
class _Session:
    """What reading a file knows of one session so far."""

    position: int = 0
    time: Any = None
    """The raw ``time`` of the last turn that gave one (re-read for the turns after it)."""
    time_broken: bool = False
    said: Said | None = None
    pending: RawRecord | None = None
    """The document record of the session's last valid turn, waiting for its ``next``."""


def conversation_documents(records: Iterable[RawRecord | FieldError], *,
                           tz: tzinfo = UTC) -> Iterator[Read]:
    """The documents of a transcript's lines (JSON objects, or the problems of lines that
    were not), each with its line and problems, in the order they become complete."""
    reader = _Reader(tz)
    for record in records:
        if isinstance(record, FieldError):
            yield None, record.line, [record]
        else:
            yield from reader.read(record)
    yield from reader.finish()


def title(conversation: str, session: str | int | None, speaker: str, *,
          replying_to: Said | None) -> str:
    """The title of a turn, quoting the question it answers.

    A reply ("Yes, last Friday!") means nothing alone. The question replied to (the
    ``words`` of ``replying_to``, see :func:`quotable`) goes in the title rather than the
    text because the dense embedder and the reranker read "title. text" while evidence,
    its offsets and extracted answers stay the turn's own words: an answer never puts one
    speaker's words in another's mouth. Keyword search reads the text only, so context
    helps the models, not BM25. The reader passes ``replying_to`` only when everyone who
    may see this turn may see it: a public turn never quotes a private one, and a private
    turn quotes only public turns and its own speaker's.
    """
    head = conversation if session is None else f"{conversation} · session {session}"
    text = f"{head} — {speaker}"
    if replying_to is None:
        return text
    if replying_to.speaker == speaker:
        return f"{text}, continuing: “{replying_to.words}”"
    return f"{text}, replying to {replying_to.speaker}: “{replying_to.words}”"


def quotable(words: str) -> str:
    """The questions a turn asks: what the turn after it quotes (empty: nothing).

    A reply that answers a question ("Yes, last Friday!") asserts what was asked, so the
    question belongs with it. A turn that reacts to a statement ("Wow, what a view.")
    does not assert the statement, and quoting it would let the reaction outrank the
    statement for every question about it. Measured on LoCoMo's dev half, evidence recall
    at 1 / 5 / 10 with the shipped models: on conv-26 (150 questions) no context 0.467 /
    0.640 / 0.700, the whole previous turn 0.313 / 0.667 / 0.727 (replies took the top
    place from the statements they answered), the whole previous turn when it asks
    something 0.460 / 0.633 / 0.693, its questions only 0.480 / 0.647 / 0.707; on conv-49
    (156) no context 0.500 / 0.699 / 0.750, its questions only 0.468 / 0.692 / 0.782.
    """
    if "?" not in words and "？" not in words and "吗" not in words:
        return ""
    asked = [words[a:b] for a, b in split_sentences(words) if _ASKS.search(words[a:b])]
    return shorten(" ".join(asked)) if asked else ""


def shorten(words: str, limit: int = CONTEXT_CHARS) -> str:
    """``words`` on one line, cut to ``limit`` characters at a space when one is near."""
    flat = " ".join(words.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit]
    space = cut.rfind(" ")
    if space >= limit * 0.6:
        cut = cut[:space]
    return cut.rstrip() + "…"


def _key(conversation: str, session: str | int | None) -> _Key:
    # 3 and "3" name one session: they give the same default turn ids.
    return conversation, None if session is None else str(session)


def _default_turn(session: str | int | None, position: int) -> str:
    return str(position + 1) if session is None else f"s{session}:{position + 1}"


class _Reader:
    """The state of reading one transcript file: its sessions and the turn ids seen."""

    def __init__(self, tz: tzinfo) -> None:
        self.tz = tz
        self.sessions: dict[_Key, _Session] = {}
        self.seen: dict[str, int] = {}
        self.turns = 0

    def inherit(self, conversation: str, session: str | int | None) -> bool | None:
        state = self.sessions.get(_key(conversation, session))
        if state is not None and state.time_broken:
            return None
        return state is not None and state.time is not None

    def read(self, record: RawRecord) -> Iterator[Read]:
        from chronorag.ingest import conversation_schema as schema
        from chronorag.validation import SchemaError, field_errors

        values = {k: v for k, v in record.fields.items() if v is not None}
        try:
            turn = schema.TurnSchema.model_validate(
                values, context={"tz": self.tz, "inherit": self.inherit})
        except SchemaError as exc:
            def place(name: str, reason: str, near: Any) -> FieldError:
                return FieldError(record.path, record.line, name, reason)
            found = field_errors(exc, place=place, reasons=schema.REASONS)
            self._skip(values, record.line, {e.field for e in found})
            yield None, record.line, found
            return
        yield from self._turn(turn, values, record)

    def _turn(self, turn: TurnSchema, values: dict[str, Any], record: RawRecord
              ) -> Iterator[Read]:
        key = _key(turn.conversation, turn.session)
        state = self.sessions.get(key, _Session())
        turn_id = turn.turn or _default_turn(turn.session, state.position)
        doc_id = f"{turn.conversation}/{turn_id}"
        raw_time = values.get("time", state.time)
        first = self.seen.setdefault(doc_id, record.line)
        if first != record.line:
            self.sessions[key] = replace(state, position=state.position + 1, time=raw_time,
                                         said=None)
            yield None, record.line, [_duplicate(record, doc_id, first,
                                                 numbered=turn.turn is None)]
            return
        words = turn.text if turn.image_caption is None else \
            f"{turn.text} [image: {turn.image_caption}]"
        fields = _turn_fields(turn, state, doc_id=doc_id, turn_id=turn_id, words=words,
                              time=raw_time, inherited="time" not in values)
        if state.pending is not None:
            yield self._complete(state.pending, next_id=doc_id)
        self.turns += 1
        self.sessions[key] = _Session(
            state.position + 1, raw_time, state.time_broken and "time" not in values,
            Said(doc_id, turn.speaker, quotable(words), turn.private),
            RawRecord(record.path, record.line, fields, record.source))

    def _skip(self, values: dict[str, Any], line: int, failed: set[str]) -> None:
        """Count an invalid line in its session, when its session is known, so the lines
        after it get no second-hand problems (a wrong position, a missing time)."""
        if failed & {"conversation", "session"}:
            return
        session = values.get("session")
        if isinstance(session, str):
            session = session.strip()
        key = _key(values["conversation"].strip(), session)
        state = self.sessions.get(key, _Session())
        if "turn" not in failed:
            turn = values.get("turn")
            turn_id = turn.strip() if isinstance(turn, str) else _default_turn(
                session, state.position)
            self.seen.setdefault(f"{key[0]}/{turn_id}", line)
        if "time" in failed:
            state = replace(state, time=None, time_broken=True)
        elif "time" in values:
            state = replace(state, time=values["time"], time_broken=False)
        self.sessions[key] = replace(state, position=state.position + 1, said=None)

    def _complete(self, record: RawRecord, *, next_id: str | None) -> Read:
        metadata = record.fields["metadata"]
        if isinstance(metadata, dict):  # else build_document reports the given "metadata"
            record = replace(record, fields={**record.fields,
                                             "metadata": {**metadata, "next": next_id}})
        document, problems = build_document(record, tz=self.tz)
        return document, record.line, problems

    def finish(self) -> Iterator[Read]:
        """The last turn of every session, in file order."""
        last = sorted((s.pending for s in self.sessions.values() if s.pending is not None),
                      key=lambda record: record.line)
        for pending in last:
            yield self._complete(pending, next_id=None)
        log.debug("read %d turns of %d sessions", self.turns, len(self.sessions))


def _duplicate(record: RawRecord, doc_id: str, first: int, *, numbered: bool) -> FieldError:
    how = " (a turn without \"turn\" is numbered by its position in its session)" \
        if numbered else ""
    return FieldError(record.path, record.line, "turn",
                      f"duplicate turn id {doc_id!r}{how}; first used at line {first}")


def _turn_fields(turn: TurnSchema, state: _Session, *, doc_id: str, turn_id: str, words: str,
                 time: Any, inherited: bool) -> dict[str, Any]:
    """The document record of a turn (``next`` is filled in once the next turn is read).

    The turn's unknown keys and an explicit ``metadata`` object come under what the
    conversation says, which goes in ``metadata`` so that its nulls survive validation.
    """
    said = state.said
    # Quote the previous turn only where everyone who sees this turn may see it.
    quoted = said if said is not None and said.words and (not said.private or (
        turn.private and said.speaker == turn.speaker)) else None
    metadata = {"conversation": turn.conversation, "session": turn.session,
                "speaker": turn.speaker, "turn": turn_id, "position": state.position,
                "previous": None if said is None else said.id, "next": None,
                "time_inherited": inherited}
    document = {
        "id": doc_id, "text": f"{turn.speaker}: {words}", "occurred_at": time,
        "title": title(turn.conversation, turn.session, turn.speaker, replying_to=quoted),
        "source_type": SOURCE_TYPE, "subject": turn.speaker if turn.private else None}
    given = turn.extra.get("metadata")
    rest = {k: v for k, v in turn.extra.items() if k != "metadata"}
    merged: Any = {**given, **metadata} if isinstance(given, dict) else (
        metadata if given is None else given)
    return {**rest, **{k: v for k, v in document.items() if v is not None},
            "metadata": merged}
