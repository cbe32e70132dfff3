"""Which evidence decides the answer, and when to say ``uncertain`` instead of guessing.

Works on :class:`~chronorag.model.Evidence` items (text *with* title, type, status, owner
and dates), in pipeline order, already judged by the validity rules. The rules:

* **Relevant**: ``scores["semantic"] >= min_semantic``.
* **May decide**: relevant, ``applicable``, not ``violates_time``, and from a *decisive*
  source type (a forum post may support, never decide).
* **Top band**: deciders whose semantic score lies within ``margin`` of the best decider's.
  The deciding item is the first of the band after putting originals before copies (a copy
  is one voice with its origin, so the origin speaks for it) and higher authority priors
  first (the prior breaks ties among equally relevant applicable sources); pipeline order
  decides the rest.
* **Uncertain**: the deciding item is ``undated`` (flag ``rests_on_undated``) and no
  sentence of it states a time that satisfies the question (``time_verified``); or the
  question has a time and the deciding item states none, or for a question about a
  beginning or an end, states a period that covers the time but does not begin (end) in it
  (``edge_unverified`` on the item, ``time_unverified`` on the answer); or another
  band item that is approved, not a copy, and owned by a different owner than the approved
  deciding item states different facts (see :func:`~chronorag.answer.differ.states_differ`):
  both are kept as parallel views, flags ``parallel_views`` and ``owner:<name>`` per view,
  and the answer names every owner.
* **For whom**: a source whose every condition (``applies_to``) the asker meets decides
  before one written for everyone; when the asker's attributes leave a condition open,
  each other condition among the originals as relevant as the first (within
  ``copy_margin``, or half as relevant) that says something else is a *variant*: the
  answer gives every one, labelled with its condition or "otherwise" (flag ``variants``);
  an answer from one source whose condition the asker leaves open is labelled with it
  (flag ``condition_unknown``).
* **Not found**: no item may decide. Flags say why: ``only_non_decisive`` (relevant
  applicable evidence exists, but only from non-decisive sources), else
  ``no_applicable_evidence`` (relevant evidence exists, none applicable); plus
  ``only_upcoming`` when a relevant document will apply later (the engine adds
  ``time_not_covered`` when no stored version of the most relevant one applies then).
* **Upcoming**: upcoming items (approved, start after ``as_of``) that are relevant and
  within ``margin`` of the best relevant semantic score, one per document, earliest start
  first. They are reported in ``upcoming`` only, never in the short answer; one that says
  what the answer says (the same short answer) is reported once, by the answer, with the
  flag ``upcoming_unchanged``, and of several upcoming items saying the same only the
  earliest is kept.
* **Checked**: the short answer is a span of its sentence (``answer.shape``) and must be
  whole (``answer.check.check_short``): a heading, or an answer shorter than its question
  needs (no number for "how many days", a sentence cut at an abbreviation), turns it
  ``uncertain`` with the check's flag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from chronorag.answer.asks_date import asked_field, names_document
from chronorag.answer.check import check_short, says_something
from chronorag.answer.differ import states_differ
from chronorag.answer.nearby import SPAN_WANTS, answer_near, gives_asked_span, gives_span
from chronorag.answer.polar import deciding, deciding_after_case, opens_yes_no
from chronorag.answer.shape import Want, wanted
from chronorag.answer.when import AnswerTime
from chronorag.conditions import label
from chronorag.flags import Flag, Flags
from chronorag.ingest.stated import is_date_line
from chronorag.lang import has_han
from chronorag.model import AnswerStatus, Evidence, Status
from chronorag.rank.authority import AuthorityPrior

DEFAULT_MARGIN = 0.05
"""Semantic scores (cross-encoder sigmoid, 0..1) within this of the best count as equal."""

VARIANT_SHARE = 0.5
"""A source for other askers is a variant of the answer when it is at least this share
as relevant as the best decider (see ``_variants``)."""



@dataclass(frozen=True)
class AnswerRules:
    """Thresholds of the answer stage (see the module docstring for how they are used)."""

    min_semantic: float = 0.05
    margin: float = DEFAULT_MARGIN
    copy_margin: float = 0.15
    authority: AuthorityPrior = field(default_factory=AuthorityPrior)


@dataclass(frozen=True)
class Decision:
    """Status, short answer, the evidence that decided (first) with its parallel views,
    the relevant upcoming items and the answer-level flags."""

    status: AnswerStatus
    answer: str | None
    deciding: tuple[Evidence, ...]
    upcoming: tuple[Evidence, ...]
    flags: Flags
    # A date answer's time, phrase, anchor and source (``answer.when``); None otherwise.
    time: AnswerTime | None = None
    # The owners of the parallel views, in their order (with ``Flag.PARALLEL_VIEWS``).
    owners: tuple[str, ...] = ()


def earliest_first(moment: datetime | None) -> tuple[bool, float]:
    """A sort key: unknown times first, then the earliest."""
    return (moment is not None, 0.0 if moment is None else moment.timestamp())


def semantic(item: Evidence) -> float:
    """The relevance score of an evidence item (0 when the pipeline gave none)."""
    return float(item.scores.get("semantic", 0.0))


def decide(question: str, evidence: Sequence[Evidence], *, upcoming: Sequence[Evidence] = (),
           as_of: datetime, rules: AnswerRules | None = None) -> Decision:
    """Apply the answer rules of this module to evidence items in pipeline order."""
    rules = rules or AnswerRules()
    relevant = [e for e in evidence if semantic(e) >= rules.min_semantic]
    soon = relevant_upcoming(relevant, upcoming, rules=rules)
    usable = [e for e in relevant if e.applicable and Flag.VIOLATES_TIME not in e.flags]
    deciders = [e for e in usable if rules.authority.decisive(e.source_type)]
    if not deciders:
        why = ([Flag.ONLY_NON_DECISIVE] if usable
               else [Flag.NO_APPLICABLE_EVIDENCE] if relevant else [])
        if soon:
            why.append(Flag.ONLY_UPCOMING)
        return Decision(AnswerStatus.NOT_FOUND, None, (), soon, tuple(why))
    band = _top_band(deciders, rules)
    want = wanted(question)
    first = _stating(question, band, as_of, deciders=deciders, want=want)
    views = [first, *_parallel_views(question, first, [e for e in band if e is not first],
                                     want=want)]
    flags: list[Flag] = []
    status = AnswerStatus.ANSWERED
    # A text whose own sentences state a time that satisfies the question's constraint is
    # dated by that statement, even when its metadata carries no date (a wiki page).
    if Flag.UNDATED in first.flags and Flag.TIME_VERIFIED not in first.flags:
        status = AnswerStatus.UNCERTAIN
        flags.append(Flag.RESTS_ON_UNDATED)
    if Flag.TIME_UNKNOWN in first.flags or Flag.EDGE_UNVERIFIED in first.flags:
        status = AnswerStatus.UNCERTAIN
        flags.append(Flag.TIME_UNVERIFIED)
    said = _said(question, first, as_of)
    variants = [] if len(views) > 1 else _variants(question, first, deciders, rules,
                                                    want=want)
    if len(views) > 1:
        status = AnswerStatus.UNCERTAIN
        flags.append(Flag.PARALLEL_VIEWS)
        text = "; ".join(f"{_said(question, v, as_of)} ({v.owner})" for v in views)
    elif variants:
        flags.append(Flag.VARIANTS)
        views = [first, *variants]
        text = "; ".join(f"{_said(question, v, as_of)} ({_for_whom(question, v)})"
                         for v in views)
    elif Flag.CONDITION_UNKNOWN in first.flags:
        flags.append(Flag.CONDITION_UNKNOWN)
        text = f"{said} ({_for_whom(question, first)})"
    else:
        text = said
    checked = check_short(said, first, question=question)
    if checked:
        status = AnswerStatus.UNCERTAIN
        flags.extend(checked)
    soon, unchanged = _new_upcoming(question, soon, said=said, as_of=as_of)
    if unchanged:
        flags.append(Flag.UPCOMING_UNCHANGED)
    owners = tuple(str(v.owner) for v in views) if Flag.PARALLEL_VIEWS in flags else ()
    return Decision(status, text, tuple(views), soon, tuple(flags), owners=owners)


def _new_upcoming(question: str, soon: Sequence[Evidence], *, said: str,
                  as_of: datetime) -> tuple[tuple[Evidence, ...], bool]:
    """Upcoming items that say something new: not the answer's words, not an earlier
    upcoming item's; and whether one said the answer's words."""
    seen = {said}
    kept: list[Evidence] = []
    unchanged = False
    for item in soon:
        text = _said(question, item, as_of)
        unchanged = unchanged or text == said
        if text not in seen:
            seen.add(text)
            kept.append(item)
    return tuple(kept), unchanged


def relevant_upcoming(relevant: Sequence[Evidence], upcoming: Sequence[Evidence], *,
                      rules: AnswerRules) -> tuple[Evidence, ...]:
    """Upcoming items as relevant as the best relevant evidence (within the margin),
    one per document, earliest ``valid_from`` first."""
    pool = [*relevant, *upcoming]
    if not pool:
        return ()
    floor = max(rules.min_semantic, max(semantic(e) for e in pool) - rules.margin)
    chosen: dict[str, Evidence] = {}
    for item in upcoming:
        if semantic(item) >= floor and item.doc_id not in chosen:
            chosen[item.doc_id] = item
    return tuple(sorted(chosen.values(), key=lambda e: earliest_first(e.valid_from)))


def _top_band(deciders: Sequence[Evidence], rules: AnswerRules) -> list[Evidence]:
    """Deciders close to the pipeline's first one, originals before copies, higher
    authority prior first.

    The band is anchored on the first decider in pipeline order, not on the most
    relevant one: the ranking already weighed relevance against time, and a passage
    that is more "about" the question but silent on the asked period must not take the
    decision back from one that states it. A copy gives way to an applicable original
    within ``copy_margin`` (the origin speaks for its copies); the authority prior only
    breaks near-ties, within ``margin``.
    """
    best = semantic(deciders[0])
    wide = [e for e in deciders
            if semantic(e) >= best - max(rules.copy_margin, rules.margin)]
    pool = [e for e in wide if Flag.DERIVED_COPY not in e.flags] or wide
    # A source written for the asker's case (every condition met) speaks before one
    # written for everyone, as an origin before its copies.
    pool = [e for e in pool if _specific(e)] or pool
    anchor = semantic(pool[0])
    band = [e for e in pool if semantic(e) >= anchor - rules.margin]
    # sorted() is stable: equal priors keep the pipeline's order (temporal fit included).
    return sorted(band, key=lambda e: -rules.authority.prior(e.source_type))


def _stating(question: str, band: Sequence[Evidence], as_of: datetime, *,
             deciders: Sequence[Evidence], want: Want) -> Evidence:
    """The band's first item or, when the question asks for a span (a number, a duration,
    a date, an address) that its sentence does not give, another passage of the same
    document that does: one document keeps the version and validity the band's first was
    judged by.

    Within the band relevance is a tie ("Any privacy-related queries should be directed
    to dpo@example.com" beside the list of data that names "email address", for "Which
    email address should I write to?"): the first passage there that gives the span. Past
    the band, among every relevant passage of the document, only a span no other question
    would be answered by (``gives_asked_span``: the address asked for, a count of the
    noun asked about); any duration or date of a less relevant passage is as likely
    another period's. A document's date line ("Effective date: November 20, 2020") gives
    a date to any when-question; it stands in only for a question about a document's
    date or naming a document. For a yes/no question, the sentence that decides it
    (``polar.deciding``; ``polar.deciding_after_case`` when the question states its case
    first). A question that asks for a statement (yes/no, a sentence) is not
    answered by a link or a label while a relevant decider states something
    (``check.says_something``)."""
    first = band[0]
    if not says_something(want, _sentence(first)):
        # A link or a label ("Google" in a list of search providers) is relevant by its
        # page's title and says nothing a statement is asked for: the first decider whose
        # sentence states something answers.
        first = next((e for e in deciders if says_something(want, _sentence(e))), first)
        band = [first]
    if want is Want.YES_NO:
        return deciding(question, first, band) if opens_yes_no(question) \
            else deciding_after_case(question, first)
    if want not in SPAN_WANTS or _gives(question, first, as_of):
        return first
    dated = asked_field(question) is not None or names_document(question)
    same = [e for e in deciders if e is not first and e.doc_id == first.doc_id
            and (dated or not is_date_line(_sentence(e)))]
    tied = {id(e) for e in band}
    # A tied passage that gives no span gives no asked span either: each is read once.
    return next((e for e in same if id(e) in tied and _gives(question, e, as_of)), None) \
        or next((e for e in same if id(e) not in tied and gives_asked_span(
            question, _sentence(e), e.text, now=as_of)), first)


def _gives(question: str, item: Evidence, as_of: datetime) -> bool:
    return gives_span(question, _sentence(item), item.text, now=as_of)


def _parallel_views(question: str, first: Evidence, others: Sequence[Evidence], *,
                    want: Want) -> list[Evidence]:
    """One disagreeing item per other owner, when both sides are approved originals (a
    link or a label is no view of its own: ``check.says_something``)."""
    if first.status is not Status.APPROVED or not first.owner:
        return []
    views: dict[str, Evidence] = {}
    for item in others:
        if (item.status is Status.APPROVED and item.owner and item.owner != first.owner
                and Flag.DERIVED_COPY not in item.flags and item.owner not in views
                and says_something(want, _sentence(item))
                and states_differ(_sentence(first), _sentence(item), question=question)):
            views[item.owner] = item
    return list(views.values())


def _specific(item: Evidence) -> bool:
    return bool(item.applies_to) and Flag.CONDITION_UNKNOWN not in item.flags


def _variants(question: str, first: Evidence, deciders: Sequence[Evidence],
              rules: AnswerRules, *, want: Want) -> list[Evidence]:
    """When the asker's attributes leave a condition open, one item per other condition
    (``applies_to``) among the relevant originals that says something else: the answer
    gives each, labelled with whom it is for.

    Relevant here is within ``copy_margin`` of the best decider or at least
    ``VARIANT_SHARE`` of its score: rules for different askers are worded for them ("Business
    customers reach support around the clock" beside "Support answers from 9:00 to 17:00"),
    and the cross-encoder scores such siblings far apart (0.99 and 0.51)."""
    best = semantic(deciders[0])
    floor = min(best - max(rules.copy_margin, rules.margin), best * VARIANT_SHARE)
    pool = [e for e in deciders if e is not first and Flag.DERIVED_COPY not in e.flags
            and semantic(e) >= floor and says_something(want, _sentence(e))]
    if not any(Flag.CONDITION_UNKNOWN in e.flags for e in (first, *pool)):
        return []
    seen = {label(first.applies_to)}
    variants: list[Evidence] = []
    for item in pool:
        key = label(item.applies_to)
        if key not in seen and states_differ(_sentence(first), _sentence(item),
                                             question=question):
            seen.add(key)
            variants.append(item)
    return variants


def _for_whom(question: str, item: Evidence) -> str:
    """The label of a variant: its conditions, or "otherwise" for a source for everyone."""
    return label(item.applies_to) or ("其他情况" if has_han(question) else "otherwise")


def _sentence(item: Evidence) -> str:
    return item.sentence or item.text


def _said(question: str, item: Evidence, as_of: datetime) -> str:
    return answer_near(question, _sentence(item), item.text, now=as_of)
