""""What changed" questions, answered from a version chain, never from one version.

"What changed in the privacy statement in 2020?" and "新版退货政策改了什么？" ask for the
difference between versions. The chain is the documents linked to the deciding one by
``supersedes`` (either way, transitively), ordered by when each took effect (``valid_from``,
else ``published_at``). The versions asked about are those that took effect in the
question's period (without one: the version in force at ``as_of`` and those announced to
take effect after it); each is compared with the version before it, sentence by sentence:
sentences added, removed, and changed (a sentence replaced by another at the same place).

The short answer names each compared pair and the day the later one took effect, then the
changed sentences themselves, each a span of its version ("before → after", "+ added",
"− removed"); ``changes`` beside the evidence lists every
compared pair with its versions' ids and dates. Without a version before the one in force
(or none that took effect in the period asked about) the answer is ``uncertain`` (flag
``no_earlier_version``, ``no_version_in_period``): one version cannot say what changed. A
document without linked versions is answered from its text like any question: a news
story that reports a change states it.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any

from chronorag.answer.headings import is_markup_line
from chronorag.flags import Flag
from chronorag.ingest.sentences import split_sentences
from chronorag.model import Answer, AnswerStatus, Document, Interval, iso

_SPACE = re.compile(r"\s+")
# How many changes the short answer spells out; ``changes`` keeps every one.
_SHOWN = 5


@dataclass(frozen=True)
class VersionChange:
    """What differs from ``before`` to ``after``, sentence by sentence."""

    before: Document
    after: Document
    changed: tuple[tuple[str, str], ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]
    # The later version takes effect after the asked time (it is announced, not in force).
    upcoming: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"from": _version(self.before), "to": _version(self.after),
                "upcoming": self.upcoming,
                "changed": [{"before": b, "after": a} for b, a in self.changed],
                "added": list(self.added), "removed": list(self.removed)}


def took_effect(document: Document) -> datetime | None:
    """When a version took effect: ``valid_from``, else ``published_at``."""
    for field in (document.valid_from, document.published_at):
        if field is not None and field.start is not None:
            return field.start
    return None


def compare(before: Document, after: Document) -> VersionChange:
    """The sentences added, removed and changed from ``before`` to ``after``."""
    old, new = _sentences(before.text), _sentences(after.text)
    matcher = difflib.SequenceMatcher(a=[_key(s) for s in old], b=[_key(s) for s in new],
                                      autojunk=False)
    changed: list[tuple[str, str]] = []
    added: list[str] = []
    removed: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace":
            pairs = min(i2 - i1, j2 - j1)
            changed.extend(zip(old[i1:i1 + pairs], new[j1:j1 + pairs], strict=True))
            removed.extend(old[i1 + pairs:i2])
            added.extend(new[j1 + pairs:j2])
        elif tag == "delete":
            removed.extend(old[i1:i2])
        elif tag == "insert":
            added.extend(new[j1:j2])
    return VersionChange(before, after, tuple(changed), tuple(added), tuple(removed))


def compared_pairs(versions: Sequence[Document], *, period: Interval | None,
                   as_of: datetime) -> list[tuple[Document, Document]]:
    """Each version asked about with the one before it (see the module docstring)."""
    ordered = sorted(versions, key=lambda d: (took_effect(d) is not None,
                                              took_effect(d) or as_of))
    pairs = list(itertools.pairwise(ordered))
    if period is not None:
        return [(b, a) for b, a in pairs
                if (start := took_effect(a)) is not None and period.contains(start)]
    in_force = [(b, a) for b, a in pairs if (start := took_effect(a)) is not None
                and start <= as_of]
    upcoming = [(b, a) for b, a in pairs if (start := took_effect(a)) is not None
                and start > as_of]
    return [*in_force[-1:], *upcoming]


def changes_answer(answer: Answer, versions: Sequence[Document], *,
                   period: Interval | None) -> Answer:
    """``answer`` turned into what changed across ``versions`` (see the module)."""
    pairs = compared_pairs(versions, period=period, as_of=answer.as_of)
    if not pairs:
        why = Flag.NO_EARLIER_VERSION if period is None else Flag.NO_VERSION_IN_PERIOD
        return replace(answer, status=AnswerStatus.UNCERTAIN, flags=(*answer.flags, why),
                       extras={**answer.extras, "changes": []})
    found = [replace(compare(before, after), upcoming=_after(after, answer.as_of))
             for before, after in pairs]
    lines = [line for change in found for line in _lines(change, answer.tz)]
    more = f" (+{len(lines) - _SHOWN} more)" if len(lines) > _SHOWN else ""
    # The flags of the one-version answer spoke of its sentence; these speak of the diff.
    flags = () if lines else (Flag.VERSIONS_IDENTICAL,)
    return replace(answer, status=AnswerStatus.ANSWERED,
                   answer=" ; ".join(lines[:_SHOWN]) + more if lines else None,
                   flags=flags, owners=(),
                   extras={**answer.extras, "changes": [c.to_json() for c in found]})


def _lines(change: VersionChange, tz: tzinfo) -> list[str]:
    said = [*(f"{b} → {a}" for b, a in change.changed),
            *(f"+ {s}" for s in change.added), *(f"− {s}" for s in change.removed)]
    if not said:
        return []
    start = took_effect(change.after)
    when = "" if start is None else f", {start.astimezone(tz).date().isoformat()}"
    return [f"{change.before.id} → {change.after.id}{when}: {said[0]}", *said[1:]]


def _after(version: Document, moment: datetime) -> bool:
    start = took_effect(version)
    return start is not None and start > moment


def _sentences(text: str) -> list[str]:
    spans = (text[start:end] for start, end in split_sentences(text))
    return [s for s in spans if s.strip() and not is_markup_line(s)]


def _key(sentence: str) -> str:
    return _SPACE.sub(" ", sentence).strip()


def _version(document: Document) -> dict[str, Any]:
    return {"doc_id": document.id, "title": document.title,
            "took_effect": iso(took_effect(document)),
            "valid_to": iso(None if document.valid_to is None else document.valid_to.start)}
