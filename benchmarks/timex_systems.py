"""Time taggers behind one interface for ``timex_external.py``.

Each system is ``tag(text, dct, lang) -> list[Mention]`` with character spans into ``text``,
a TIMEX3-like ``value`` and, where the system resolves one, the half-open interval
``lo``/``hi`` as naive ISO strings (UTC). A system whose library is not installed is
reported by ``available()`` with the reason and skipped.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from timex_scoring import Mention

from chronorag.timex.timex3 import value_of

Tagger = Callable[[str, datetime, str], list[Mention]]
_REFS = {"ref_past": "PAST_REF", "ref_present": "PRESENT_REF", "ref_future": "FUTURE_REF"}


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat()


def timex_value(start: datetime | None, end: datetime | None, granularity: str | None,
                now: datetime) -> str:
    """The TIMEX3 value of an interval read at its granularity ("1998-Q1", "1998-W05", ...):
    ``chronorag.timex.timex3``, the rule chronorag's own values come from, so that every
    system is scored through the same format; "" where TIMEX3 has no value."""
    return value_of(start, end, granularity, now) or ""


def duration_value(start: datetime, end: datetime, granularity: str | None) -> str:
    """The ISO 8601 duration an interval spans, counted in its granularity's unit."""
    g = granularity or "day"
    months = (end.year - start.year) * 12 + end.month - start.month
    seconds = (end - start).total_seconds()
    units: dict[str, tuple[str, float]] = {
        "century": ("P{}CE", months / 1200), "decade": ("P{}DE", months / 120),
        "year": ("P{}Y", months / 12), "quarter": ("P{}Q", months / 3),
        "month": ("P{}M", months), "week": ("P{}W", seconds / 604800),
        "day": ("P{}D", seconds / 86400), "hour": ("PT{}H", seconds / 3600),
        "minute": ("PT{}M", seconds / 60), "second": ("PT{}S", seconds)}
    form, n = units.get(g, ("P{}D", seconds / 86400))
    return form.format(int(n) if float(n).is_integer() else n)


def infer_value(lo: datetime | None, hi: datetime | None, now: datetime) -> str:
    """A TIMEX3 value for an interval without a granularity: the unit it spans exactly."""
    if lo is None or hi is None:
        return timex_value(lo, hi, None, now)
    months = (hi.year - lo.year) * 12 + hi.month - lo.month
    midnight = lo.time() == datetime.min.time() and hi.time() == datetime.min.time()
    if midnight and lo.day == 1 and hi.day == 1 and lo.month == 1 and months == 12:
        return timex_value(lo, hi, "year", now)
    if midnight and lo.day == 1 and hi.day == 1 and months == 3 and lo.month % 3 == 1:
        return timex_value(lo, hi, "quarter", now)
    if midnight and lo.day == 1 and hi.day == 1 and months == 1:
        return timex_value(lo, hi, "month", now)
    if midnight and hi - lo == timedelta(days=7) and lo.weekday() == 0:
        return timex_value(lo, hi, "week", now)
    if midnight and hi - lo == timedelta(days=1):
        return timex_value(lo, hi, "day", now)
    return timex_value(lo, hi, "minute" if hi - lo <= timedelta(hours=1) else "day", now)


# --- chronorag -------------------------------------------------------------------------

def _chronorag_found(text: str, now: datetime, lang: str) -> list[tuple[int, int, Any, Any]]:
    """(start, end, interval, expression) per expression; Chinese spans take relation words
    (the spec's gold spans "2018年以前" whole), English ones do not (TimeML spans never do)."""
    from chronorag.timex import parse

    expressions = parse(text, now=now, tz=UTC)
    if lang != "zh":
        return [(e.start, e.end, e.interval, e) for e in expressions]
    try:
        from chronorag.timex.pipeline import context, find
        from chronorag.timex.relations import relate

        out = []
        by_span = {(e.start, e.end): e for e in expressions}
        for f in find(text, context(now, UTC)):
            if f.interval is None:
                continue
            r = relate(text, f)
            out.append((r.start, r.end, r.interval, by_span.get((f.start, f.end))))
        return out
    except (ImportError, AttributeError, TypeError, ValueError):
        return [(e.start, e.end, e.interval, e) for e in expressions]


def chronorag(text: str, dct: datetime, lang: str) -> list[Mention]:
    """``timex.extract`` (kind, relation, TIMEX3 value) where the tree has it, else ``parse``
    with values derived here from the interval and granularity."""
    try:
        from chronorag.timex import extract  # type: ignore[attr-defined]
    except ImportError:
        return _chronorag_parsed(text, dct, lang)
    out = []
    every = extract(text, now=dct, tz=UTC)
    # TimeML tags the ends of a range as two TIMEX3 ("between [1994] and [1997]"); the
    # Chinese spec reads a range whole ("从2013年到2015年").
    if lang != "zh":
        every = [p for e in every for p in (getattr(e, "parts", ()) or (e,))]
    for e in every:
        interval = e.interval
        g = None if interval is None or interval.granularity is None else str(
            interval.granularity)
        lo, hi = (None, None) if interval is None else (interval.start, interval.end)
        value = e.value or ("" if interval is None else timex_value(lo, hi, g, dct))
        out.append(Mention(e.start, e.end, text[e.start:e.end], e.kind, value, _iso(lo),
                           _iso(hi), {"granularity": g, "relation": e.relation}))
    return out


def _chronorag_parsed(text: str, dct: datetime, lang: str) -> list[Mention]:
    out = []
    for start, end, interval, expr in _chronorag_found(text, dct, lang):
        g = None if interval.granularity is None else str(interval.granularity)
        kind = str(getattr(expr, "kind", "") or "")
        value = str(getattr(expr, "value", "") or "")
        if not value and kind in _REFS:
            value = _REFS[kind]
        elif not value and kind == "duration" and interval.start and interval.end:
            value = duration_value(interval.start, interval.end, g)
        elif not value:
            value = timex_value(interval.start, interval.end, g, dct)
        out.append(Mention(start, end, text[start:end], kind, value,
                           _iso(interval.start), _iso(interval.end), {"granularity": g}))
    return out


# --- dateparser ------------------------------------------------------------------------

def _locate(text: str, pieces: list[tuple[str, Any]]) -> list[tuple[int, int, Any]]:
    """Character spans of substrings a library returns without offsets, in text order."""
    out, cursor = [], 0
    for piece, payload in pieces:
        at = text.find(piece, cursor)
        if at < 0:
            at = text.find(piece)
        if at < 0 or not piece:
            continue
        out.append((at, at + len(piece), payload))
        cursor = at + len(piece)
    return out


def _point(start: int, end: int, text: str, moment: datetime, has_time: bool,
           now: datetime) -> Mention:
    lo = moment.replace(tzinfo=None)
    if has_time:
        return Mention(start, end, text[start:end], "", lo.strftime("%Y-%m-%dT%H:%M"),
                       lo.isoformat(), (lo + timedelta(minutes=1)).isoformat())
    day = lo.replace(hour=0, minute=0, second=0, microsecond=0)
    return Mention(start, end, text[start:end], "", day.strftime("%Y-%m-%d"),
                   day.isoformat(), (day + timedelta(days=1)).isoformat())


def dateparser(text: str, dct: datetime, lang: str) -> list[Mention]:
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": dct.replace(tzinfo=None), "PREFER_DATES_FROM": "past"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = search_dates(text, languages=[lang], settings=settings) or []
    return [_point(s, e, text, m, m.time() != datetime.min.time(), dct)
            for s, e, m in _locate(text, list(found))]


# --- Microsoft Recognizers-Text --------------------------------------------------------

def _msrt_value(v: dict[str, str], dct: datetime) -> tuple[str, str | None, str | None]:
    """TIMEX and interval of one reading; a bare clock time is read on the document's day."""
    day = dct.date().isoformat()
    clock = re.compile(r"\d\d:\d\d:\d\d")
    v = {k: f"{day} {x}" if isinstance(x, str) and clock.fullmatch(x) else x
         for k, x in v.items()}
    timex = v.get("timex", "")
    lo, hi = v.get("start"), v.get("end")
    point = v.get("value")
    if point and re.fullmatch(r"\d{4}-\d\d-\d\d( \d\d:\d\d:\d\d)?", point):
        moment = datetime.fromisoformat(point)
        width = timedelta(days=1) if len(point) == 10 else timedelta(hours=1)
        lo, hi = moment.isoformat(), (moment + width).isoformat()
        if "X" in timex:
            timex = point[:10] if len(point) == 10 else moment.strftime("%Y-%m-%dT%H:%M")
    lo = datetime.fromisoformat(lo).isoformat() if lo and lo[0].isdigit() and len(lo) > 8 else None
    hi = datetime.fromisoformat(hi).isoformat() if hi and hi[0].isdigit() and len(hi) > 8 else None
    if "X" in timex and not timex.startswith("(") and lo and hi:
        timex = infer_value(datetime.fromisoformat(lo), datetime.fromisoformat(hi), dct)
    return timex, lo, hi


def _nearest(readings: list[tuple[str, str | None, str | None]],
             dct: datetime) -> tuple[str, str | None, str | None]:
    """MSRT leaves an ambiguous date ("Friday": last or next) to the caller; take the reading
    nearest the reference time, as a news reader would."""
    def distance(r: tuple[str, str | None, str | None]) -> float:
        at = r[1] or r[2]
        return abs((datetime.fromisoformat(at) - dct).total_seconds()) if at else 0.0
    return min(readings, key=distance)


def msrt(text: str, dct: datetime, lang: str) -> list[Mention]:
    from recognizers_date_time import Culture, recognize_datetime

    culture = Culture.Chinese if lang == "zh" else Culture.English
    out = []
    for r in recognize_datetime(text, culture, reference=dct.replace(tzinfo=None)):
        values = (r.resolution or {}).get("values") or [{}]
        ref = dct.replace(tzinfo=None)
        timex, lo, hi = _nearest([_msrt_value(v, ref) for v in values], ref)
        kind = r.type_name.rsplit(".", 1)[-1]
        out.append(Mention(r.start, r.end + 1, text[r.start:r.end + 1], kind, timex, lo, hi,
                           {"mod": values[0].get("Mod")}))
    return out


# --- JioNLP ----------------------------------------------------------------------------

def _jio_edge(value: str, closed_end: bool) -> datetime | None:
    if not value or not value[0].isdigit():
        return None
    moment = datetime.fromisoformat(value)
    return moment + timedelta(seconds=1) if closed_end else moment


def _jio_duration(delta: object) -> str:
    """ISO 8601 duration of a JioNLP delta such as ``{"day": 8, "hour": 20}``."""
    if not isinstance(delta, dict):
        return ""
    date = {"year": "Y", "month": "M", "week": "W", "day": "D"}
    clock = {"hour": "H", "minute": "M", "second": "S"}

    def fmt(n: object) -> str:
        x = float(n) if isinstance(n, int | float) else 0.0
        return str(int(x)) if x.is_integer() else f"{x:g}"

    head = "".join(f"{fmt(delta[k])}{u}" for k, u in date.items() if k in delta)
    tail = "".join(f"{fmt(delta[k])}{u}" for k, u in clock.items() if k in delta)
    return ("P" + head + ("T" + tail if tail else "")) if head or tail else ""


def jionlp(text: str, dct: datetime, lang: str) -> list[Mention]:
    if lang != "zh":
        return []
    import jionlp as jio

    base = dct.replace(tzinfo=UTC).timestamp() if dct.tzinfo is None else dct.timestamp()
    # JioNLP logs a traceback at ERROR for each string it cannot read; the result is the same.
    logging.disable(logging.ERROR)
    try:
        items = jio.ner.extract_time(text, time_base=base, with_parsing=True) or []
    finally:
        logging.disable(logging.NOTSET)
    out = []
    for item in items:
        start, end = item["offset"]
        detail = (item.get("detail") or {}).get("time")
        if isinstance(detail, dict):
            # A set ("每天") is a period with a delta; a duration is the delta itself.
            kind = "set" if "delta" in detail else "duration"
            delta = detail.get("delta") if kind == "set" else detail
            out.append(Mention(start, end, text[start:end], kind, _jio_duration(delta)))
            continue
        if not isinstance(detail, list) or len(detail) != 2:
            continue
        lo, hi = _jio_edge(detail[0], False), _jio_edge(detail[1], True)
        out.append(Mention(start, end, text[start:end], item.get("type", ""),
                           infer_value(lo, hi, dct), _iso(lo), _iso(hi)))
    return out


# --- parsedatetime ---------------------------------------------------------------------

def parsedatetime(text: str, dct: datetime, lang: str) -> list[Mention]:
    if lang != "en":
        return []
    import parsedatetime as pdt

    found = pdt.Calendar().nlp(text, sourceTime=dct.replace(tzinfo=None)) or ()
    out = []
    for moment, status, start, end, piece in found:
        lead = len(piece) - len(piece.lstrip())
        out.append(_point(start + lead, end, text, moment, status in (2, 3), dct))
    return out


SYSTEMS: dict[str, tuple[Tagger, str, tuple[str, ...]]] = {
    "chronorag": (chronorag, "chronorag", ("en", "zh")),
    "dateparser": (dateparser, "dateparser", ("en", "zh")),
    "msrt": (msrt, "recognizers_date_time", ("en", "zh")),
    "jionlp": (jionlp, "jionlp", ("zh",)),
    "parsedatetime": (parsedatetime, "parsedatetime", ("en",)),
}


def available(name: str) -> str | None:
    """None when ``name`` can run here, else why not."""
    if name == "ctparse":
        return ("ctparse reads one whole string as one time (no extraction from running "
                "text, so no spans to score), and it pins python-dateutil<3")
    if name not in SYSTEMS:
        return f"unknown system {name!r}; known: {', '.join(SYSTEMS)}"
    module = SYSTEMS[name][1]
    if importlib.util.find_spec(module) is None:
        return f"{module} is not installed (pip install it into the venv to compare)"
    return None
