"""Durations and waits a sentence states: the span for "how long" and "how soon", and a
"when" said as a wait.

A length is a number with its time unit and its range or bound ("10-14 business days",
"at least 30 days", "the last 12 months"), one said in words ("for as long as your account
is active", ``choose.WORDED_DURATION``), or "immediately" for "how soon"; of several, the
one the question asks for (``choose``: nearest its words, the longest or the shortest, the
one in the clause of its words). A wait says when, counted from something ("after 2
months", "within 14 days", 30天内), not how long something lasted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chronorag.answer.choose import (
    LEAST,
    MOST,
    WORDED_DURATION,
    ZH_WORDED_DURATION,
    by_clause,
    extreme,
)
from chronorag.answer.zh_quantity import ZH_NUMBER, ZH_TIME_UNITS
from chronorag.lang import HAN

__all__ = ["AT_ONCE", "DURATION", "NUMBER_WORD", "QUALIFIER", "RANGE", "duration",
           "relative_wait"]

NUMBER_WORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
               r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|"
               r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a\s+few|several)")
_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_MONEY = rf"(?:(?:US|CA|A)?\$|€|£|¥|USD\s?|EUR\s?)?(?:{_NUMBER}|{NUMBER_WORD})" \
         r"(?:\s?(?:%|percent\b|per\s+cent\b|million\b|billion\b))?"
RANGE = rf"{_MONEY}(?:\s*(?:-|–|—|to|and|through|or)\s*{_MONEY})?"
QUALIFIER = (r"(?:(?:at\s+least|at\s+most|up\s+to|no\s+more\s+than|no\s+less\s+than|"
             r"more\s+than|less\s+than|fewer\s+than|a\s+maximum\s+of|a\s+minimum\s+of|"
             r"between|from)\s+)?")
_TIME_UNIT = (r"(?:(?:business|working|calendar|consecutive)\s+)?"
              r"(?:seconds?|minutes?|hours?|days?|nights?|weeks?|months?|years?)\b")
# "the last 12 months", "the first 30 days": which window of that length, part of the span.
_WINDOW = r"(?:the\s+(?:first|last|past|preceding|previous|next|following)\s+)?"
DURATION = re.compile(rf"\b{_WINDOW}{QUALIFIER}{RANGE}[\s-]+{_TIME_UNIT}", re.IGNORECASE)
# "Right away": a when and a how soon without a length ("effective immediately"), with
# the notice it is given with, which is part of how soon ("immediately without notice").
AT_ONCE = re.compile(r"\b(?:(?:effective|takes?\s+effect|took\s+effect)\s+)?(?:immediately|"
                     r"at\s+once|without\s+(?:undue\s+)?delay|right\s+away|instantly|promptly)\b"
                     r"(?:,?\s+(?:and\s+)?with(?:out|\s+or\s+without)\s+(?:(?:prior|advance|"
                     r"further)\s+)?notice\b)?|立即|立刻|马上|即刻",
                     re.IGNORECASE)
_SOON = re.compile(r"\bhow\s+(?:soon|quickly|fast|promptly)\b|多快|多久(?:会|就|才|能|可以)",
                   re.IGNORECASE)


def duration(question: str, sentence: str) -> str | None:
    """The length of time in ``sentence`` that answers ``question`` ("how long", "how
    soon", 多久), or None; a bound under a negation without its "more than"."""
    # "How soon" is answered by "immediately" as by "within 30 days".
    soon = list(AT_ONCE.finditer(sentence)) if _SOON.search(question) else []
    if re.search(f"[{HAN}]", question + sentence):
        found = _length(question, sentence, list(re.finditer(
            rf"{ZH_NUMBER}\s*(?:{ZH_TIME_UNITS})", sentence)), ZH_WORDED_DURATION, soon=soon)
        if found:
            return found
    found = _length(question, sentence, list(DURATION.finditer(sentence)), WORDED_DURATION,
                    soon=soon)
    return _unnegated(sentence, found) if found else found


# "we do not retain personal data for more than 25 months": a bound under a negation is a
# limit; its span without "more than" says it, with it the opposite.
_OPEN_BOUND = re.compile(r"(?:more|longer|greater)\s+than\s+", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|never|cannot)\b|n['’]t\b", re.IGNORECASE)


def _unnegated(sentence: str, span: str) -> str:
    bound = _OPEN_BOUND.match(span)
    at = sentence.find(span)
    if bound is None or at < 0:
        return span
    clause = re.split(r"[,;:.!?]", sentence[:at])[-1]
    return span[bound.end():] if _NEGATED.search(clause) else span


def _length(question: str, sentence: str, counted: list[re.Match[str]],
            worded: re.Pattern[str], *, soon: Sequence[re.Match[str]] = ()) -> str | None:
    """Of the counted lengths, those said in words and the ``soon`` ones ("immediately"),
    the one the question asks for: only a counted length can be the longest or the
    shortest."""
    if MOST.search(question) or LEAST.search(question):
        return extreme(question, sentence, counted or list(worded.finditer(sentence)))
    found = sorted([*counted, *worded.finditer(sentence), *soon], key=lambda m: m.start())
    if soon and len(found) > 1:
        return by_clause(question, sentence, found)
    return extreme(question, sentence, found)


def relative_wait(question: str, sentence: str) -> str | None:
    """A duration that says when, counted from something ("after 2 months", "within 14
    days", "30 days before", 30天内), not one that says how long something lasted; or
    "immediately" ("effective immediately"), the one nearer the question's words when the
    sentence says both."""
    wait = _counted_wait(sentence)
    soon = list(AT_ONCE.finditer(sentence))
    if not soon or wait is None:
        return wait.group(0) if wait else (soon[0].group(0) if soon else None)
    return by_clause(question, sentence, sorted([wait, *soon], key=lambda m: m.start()))


def _counted_wait(sentence: str) -> re.Match[str] | None:
    for found in DURATION.finditer(sentence):
        if re.match(r"\s+(?:of\s+age|old)\b", sentence[found.end():], re.IGNORECASE):
            continue  # "13 years of age" is an age, not a wait
        lead = re.search(r"\b(after|within|in|before|upon)\s+$",
                         sentence[max(0, found.start() - 12):found.start()], re.IGNORECASE)
        follows = re.match(r"\s+(?:after|before|later|from|of)\b", sentence[found.end():],
                           re.IGNORECASE)
        if lead and lead.group(1).lower() in ("after", "within"):
            return _at(sentence, found.start() - len(lead.group(0)), found.end())
        if lead or follows:
            return found
    zh = re.search(rf"{ZH_NUMBER}\s*(?:{ZH_TIME_UNITS})(?:之内|以内|以后|内|后)", sentence)
    if zh:
        return zh
    # "within its defined window" says by when, as "within 14 days" does.
    return next((m for m in WORDED_DURATION.finditer(sentence)
                 if m.group(0).lower().startswith("within")), None)


def _at(sentence: str, start: int, end: int) -> re.Match[str]:
    """``sentence[start:end]`` as a match at its own place (``by_clause`` weighs a span by
    the clause it stands in)."""
    found = re.compile(re.escape(sentence[start:end])).match(sentence, start)
    assert found is not None  # the text matches itself where it stands
    return found
