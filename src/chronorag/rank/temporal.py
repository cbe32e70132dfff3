"""chronorag's temporal scorer: the question's constraint against each sentence's mentions.

Relevance and time are judged apart. The semantic score (from the reranker) says what a
passage is *about*; this module says whether the times its sentences speak of *satisfy*
the question's constraint, using interval logic rather than string matching of dates.

Combination rule (``gated``, the default): among candidates whose semantic score is close
enough to the best one (``gate`` × best), those that satisfy the constraint come first,
then those whose time is unknown, then those that violate it; inside a tier relevance
orders them (``fit_weight=0``: once a passage's time satisfies the question, *how*
specific its date is says nothing about whether it answers — on TimeQA weighting the fit
in cost 3.4 points of hard AR@1, benchmarks/README.md). A violating passage is therefore
*pushed down*, not merely scored a little lower, while a passage that is not about the
question never wins on its dates alone. ``product`` (plain semantic × temporal) is kept
for comparison.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from chronorag.flags import Flag
from chronorag.model import Constraint, Hit, Interval, Mention, Order, Query, Relation
from chronorag.rank.base import named_score
from chronorag.rank.edges import edge
from chronorag.rank.gate import near_best
from chronorag.rank.rerank_none import with_scores
from chronorag.timex.relations import constrain

SATISFIES = 2.0
OPEN = 1.5
EDGE_MISS = 1.25
UNKNOWN = 1.0
VIOLATES = 0.0

_SECONDS_PER_YEAR = 365.2425 * 86400.0


@dataclass(frozen=True)
class SentenceFit:
    """How well one sentence's time fits the constraint."""

    fit: float
    tier: float
    sentence_index: int | None
    moment: datetime | None  # the deciding time, used for first/last ordering


def _years(seconds: float) -> float:
    return seconds / _SECONDS_PER_YEAR


def _gap_years(a: Interval, b: Interval) -> float:
    """Distance in years between two intervals (0 when they overlap)."""
    if a.overlaps(b):
        return 0.0
    if a.end is not None and b.start is not None and a.end <= b.start:
        return _years((b.start - a.end).total_seconds())
    if b.end is not None and a.start is not None and b.end <= a.start:
        return _years((a.start - b.end).total_seconds())
    return 0.0


def _target(constraint: Constraint) -> Interval | None:
    """The interval a fact's time must overlap to satisfy the constraint."""
    interval = constraint.interval
    if interval is None or constraint.relation is Relation.NONE:
        return None
    if constraint.relation in (Relation.BEFORE, Relation.UNTIL):
        return Interval(None, interval.end if interval.end else interval.start)
    if constraint.relation in (Relation.AFTER, Relation.SINCE):
        return Interval(interval.start if interval.start else interval.end, None)
    return interval


def mention_fit(mention: Mention, target: Interval, *, inherited_weight: float) -> float:
    """Fit in [0, 1] of one mention: high when it overlaps the target, decaying with distance.

    A violating mention scores at most 0.3, below any sentence without a time (0.5), so a
    passage that speaks of the wrong period sinks beneath one that says nothing of time.
    A very long period (a lifespan, "1825 – 1911") says little about any one moment, so
    its overlap counts less than a short one's.
    """
    weight = inherited_weight if mention.inherited else 1.0
    # Overlap, not a zero gap: half-open intervals that merely touch ("2018" against
    # "after December 2018") share no instant, so they do not satisfy.
    if mention.interval.overlaps(target):
        # Any overlap satisfies: a fact whose period contains the asked day is as good as a
        # story dated that very day (preferring the exact date is MRAG's failure mode).
        return weight * _specificity(mention.interval)
    return 0.3 * math.exp(-_gap_years(mention.interval, target) / 5.0) * weight


def _specificity(interval: Interval) -> float:
    if interval.start is None or interval.end is None:
        return 0.8
    years = _years((interval.end - interval.start).total_seconds())
    return 1.0 - 0.3 * min(max(years - 10.0, 0.0), 30.0) / 30.0


def _extended(mentions: Sequence[Mention]) -> list[Mention]:
    """Point mentions stretched to the next dated statement: a state begins at an event.

    "In 2004 he joined Reggina. ... In 2007 he moved to Sampdoria." makes Reggina hold
    over [2004, 2007): a point mention (a year or finer) is extended to the start of the
    next later mention of the passage, as a weaker, inherited-like mention.
    """
    own = [m for m in mentions if not m.inherited]
    out = []
    for i, mention in enumerate(own):
        iv = mention.interval
        if iv.start is None or iv.end is None or _years((iv.end - iv.start).total_seconds()) > 1.01:
            continue
        later = [m.interval.start for m in own[i + 1 :]
                 if m.interval.start is not None and m.interval.start >= iv.end]
        if later:
            out.append(Mention(mention.text, mention.start, mention.end,
                               Interval(iv.start, min(later), iv.granularity), inherited=True))
    return out


_OPENS_FORWARD = (Relation.SINCE, Relation.AFTER)
_OPENS_BACKWARD = (Relation.UNTIL, Relation.BEFORE)


def _opened(mentions: Sequence[Mention]) -> dict[tuple[int, int], Mention]:
    """Mentions with a relation word, opened as far as the passage lets them reach.

    "Since 2013 he has been president" holds in 2020 unless the passage dates a later
    statement: the open side stops at the next later mention ("since 2005 ... in 2008 he
    moved") for since/after, at the previous earlier one for until/before. The result
    is keyed by the mention's offsets.
    """
    own = [m for m in mentions if not m.inherited]
    out: dict[tuple[int, int], Mention] = {}
    for mention in mentions:
        if mention.relation not in _OPENS_FORWARD + _OPENS_BACKWARD:
            continue
        opened = constrain(mention.relation, mention.interval)
        lo, hi = opened.start, opened.end
        if mention.relation in _OPENS_FORWARD and lo is not None:
            named_end = mention.interval.end or lo
            later = [s for s in (m.interval.start for m in own)
                     if s is not None and s >= named_end and s > lo]
            opened = Interval(lo, min(later) if later else None, opened.granularity)
        elif mention.relation in _OPENS_BACKWARD and hi is not None:
            named_start = mention.interval.start or hi
            earlier = [e for e in (m.interval.end for m in own)
                       if e is not None and e <= named_start and e < hi]
            opened = Interval(max(earlier) if earlier else None, hi, opened.granularity)
        out[(mention.start, mention.end)] = Mention(
            mention.text, mention.start, mention.end, opened, mention.inherited,
            mention.relation)
    return out


def _moment(mention: Mention, order: Order | None) -> datetime | None:
    interval = mention.interval
    if order is Order.LAST:
        return interval.end or interval.start
    return interval.start or interval.end


def sentence_fits(
    hit: Hit, constraint: Constraint, *, inherited_weight: float = 0.85,
    extended_weight: float = 0.8, open_weight: float = 0.8,
) -> list[SentenceFit]:
    """The temporal fit of every sentence of a hit's chunk."""
    target = _target(constraint)
    passage = [m for s in hit.chunk.sentences for m in s.mentions]
    stretched = {(m.start, m.end): m for m in _extended(passage)}
    opened = _opened(passage)
    fits: list[SentenceFit] = []
    for sentence in hit.chunk.sentences:
        if target is None or not sentence.mentions:
            fits.append(SentenceFit(0.5, UNKNOWN, sentence.index, None))
            continue
        scored = [(mention_fit(m, target, inherited_weight=inherited_weight), m)
                  for m in sentence.mentions]
        scored += [(extended_weight * mention_fit(m, target, inherited_weight=1.0), m)
                   for m in (stretched.get((x.start, x.end)) for x in sentence.mentions)
                   if m is not None]
        value, best = max(scored, key=lambda pair: pair[0])
        if value >= 0.5:
            fit = SentenceFit(value, SATISFIES, sentence.index, _moment(best, constraint.order))
        else:
            fit = _open_fit(sentence.mentions, opened, target, constraint,
                            index=sentence.index, closed=SentenceFit(
                                value, VIOLATES, sentence.index,
                                _moment(best, constraint.order)),
                            weight=open_weight)
        if constraint.anchor is not None:
            fit = _anchored(fit, _edge_fit(sentence.mentions, target, constraint,
                                           index=sentence.index,
                                           inherited_weight=inherited_weight))
        fits.append(fit)
    return fits


def _anchored(plain: SentenceFit, edge_fit: SentenceFit) -> SentenceFit:
    """A question about a beginning or an end: the edge decides where the sentence states
    it; a state that covers the asked time without starting (ending) in it ranks below
    (``EDGE_MISS``) but above sentences without a time, and one that misses it violates."""
    if edge_fit.tier == SATISFIES:
        return edge_fit
    if plain.tier >= OPEN:
        return SentenceFit(plain.fit, EDGE_MISS, plain.sentence_index, plain.moment)
    return plain


def _open_fit(mentions: Sequence[Mention], opened: dict[tuple[int, int], Mention],
              target: Interval, constraint: Constraint, *, index: int, closed: SentenceFit,
              weight: float) -> SentenceFit:
    """A sentence whose named times miss the target, saved by a relation that reaches it.

    Such a sentence states the asked time only by implication ("since 2013" for 2020), so
    it ranks below any that names it (tier ``OPEN``) and above those with no time.
    """
    # Only a sentence's own relation word opens its time: a sentence that inherits "since
    # 2013" from its paragraph is dated by 2013, it does not claim to hold ever after.
    reaching = [m for m in (opened.get((x.start, x.end)) for x in mentions if not x.inherited)
                if m is not None and m.interval.overlaps(target)]
    if not reaching:
        return closed
    value, best = max(((mention_fit(m, target, inherited_weight=1.0), m) for m in reaching),
                      key=lambda pair: pair[0])
    return SentenceFit(max(weight * value, 0.5), OPEN, index, _moment(best, constraint.order))


def _edge_fit(mentions: Sequence[Mention], target: Interval, constraint: Constraint, *,
              index: int, inherited_weight: float) -> SentenceFit:
    """A sentence judged by the start (or end) of the states it dates: "served from 2010
    to 2018" violates "appointed after 2015"; a mention that does not state the edge
    ("until 2018" for a start) leaves the time unknown."""
    assert constraint.anchor is not None
    edges = [Mention(m.text, m.start, m.end, e, m.inherited) for m in mentions
             if (e := edge(m, constraint.anchor)) is not None]
    if not edges:
        return SentenceFit(0.5, UNKNOWN, index, None)
    value, best = max(((mention_fit(m, target, inherited_weight=inherited_weight), m)
                       for m in edges), key=lambda pair: pair[0])
    tier = SATISFIES if value >= 0.5 else VIOLATES
    return SentenceFit(value, tier, index, _moment(best, constraint.order))


def chunk_fit(hit: Hit, constraint: Constraint) -> SentenceFit:
    """A passage's fit is its best sentence's fit (ties: the earlier sentence). The
    sentence it names is the reranker's choice (``hit.best_sentence``) when that one fits
    as well: the rows of a table all dated by their document fit alike, and the row the
    model judged best, not the first, answers."""
    fits = sentence_fits(hit, constraint)
    if not fits:
        return SentenceFit(0.5, UNKNOWN, None, None)
    best = max(fits, key=lambda f: (f.tier, f.fit, -(f.sentence_index or 0)))
    chosen = hit.best_sentence
    if chosen is not None and chosen != best.sentence_index and any(
            f.sentence_index == chosen and (f.tier, f.fit) == (best.tier, best.fit)
            for f in fits):
        return replace(best, sentence_index=chosen)
    return best


class ChronoTemporal:
    """Gated combination of semantic relevance and interval-based temporal fit.

    Args:
        gate: a candidate competes on time only when its semantic score is at least
            ``gate`` × the best semantic score among the candidates.
        mode: ``"gated"`` (tiers, see module docstring) or ``"product"``.
        doc_weight: share of a passage's relevance taken from its page's best passage.
        fit_weight: exponent of the temporal fit inside a tier (``relevance × fit **
            fit_weight``): 0 lets relevance alone order one tier, 1 is the product. The
            sentence-window reranker pre-ranks with 1, where relevance is only retrieval's.
        floor: the relevance below which nothing is relevant (``SearchConfig``'s
            ``min_semantic`` default); when even the best candidate is below it, the
            tiers order every candidate.
        unsure_gate: the gate of a constraint read with doubt (``Constraint.doubts``): a
            guessed time reorders only the near-ties of relevance. On ChronoQA's
            comparison questions 0.9 kept ER@1 at plain hybrid's, 0.5 lost 1.7 points
            (benchmarks/README.md §27).

    Reads ``scores["semantic"]``; writes ``temporal`` (the fit), ``combined`` (relevance ×
    fit) and, gated, ``time_tier`` and ``time_order``. ``score`` becomes the term the list
    is sorted by below those two: relevance / best relevance × fit ** ``fit_weight`` (×
    fit in product mode). Relevance is a passage's ``semantic`` blended with its page's
    best (``doc_weight``). Without a time constraint the order and ``score`` stay and
    ``combined`` is ``semantic``.
    """

    name = "chronorag"

    def __init__(self, *, gate: float = 0.5, mode: str = "gated", doc_weight: float = 0.7,
                 fit_weight: float = 0.0, unsure_gate: float = 0.9,
                 floor: float = 0.05) -> None:
        self.gate = gate
        self.floor = floor
        self.unsure_gate = unsure_gate
        self.mode = mode
        self.doc_weight = doc_weight
        self.fit_weight = fit_weight

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        """Hits reordered by the constraint; each gains ``temporal``, ``combined`` and
        ``best_sentence`` (see class docstring)."""
        constraint = query.constraint
        if not hits or constraint.relation is Relation.NONE or constraint.interval is None:
            return [with_scores(h, temporal=1.0, combined=named_score(h, "semantic"))
                    for h in hits]
        relevance = self._relevance(hits)
        top = max(relevance)
        best = top or 1.0
        gate = self.gate if constraint.sure else self.unsure_gate
        if top < self.floor:
            # Nothing is relevant: differences of relevance this small are noise, so every
            # candidate competes on time (the answer stage abstains on the same floor).
            gate = 0.0
        scored = []
        near = near_best(hits, relevance, gate=gate)
        for position, hit in enumerate(hits):
            semantic = relevance[position]
            fit = chunk_fit(hit, constraint)
            relevant = near[position]
            key = self._key(semantic / best, fit, relevant, constraint, position)
            scored.append((key, self._annotate(hit, semantic, fit, key)))
        scored.sort(key=lambda pair: pair[0], reverse=True)
        return [hit for _, hit in scored]

    def _relevance(self, hits: Sequence[Hit]) -> list[float]:
        """Passage relevance, blended with its document's best passage.

        A page about the question's subject holds the answer for *some* period; which of
        its passages answers is for time to decide, so passages share part of their
        page's relevance (``doc_weight``).
        """
        own = [named_score(h, "semantic") for h in hits]
        page: dict[str, float] = {}
        for hit, value in zip(hits, own, strict=True):
            page[hit.chunk.doc_id] = max(page.get(hit.chunk.doc_id, 0.0), value)
        w = self.doc_weight
        return [(1 - w) * v + w * page[h.chunk.doc_id] for h, v in zip(hits, own, strict=True)]

    def _key(
        self, rel: float, fit: SentenceFit, relevant: bool, constraint: Constraint, position: int
    ) -> tuple[float, ...]:
        if self.mode == "product":
            return (rel * fit.fit, -position)
        order_key = 0.0
        if constraint.order is not None and fit.tier == SATISFIES and fit.moment is not None:
            ts = fit.moment.timestamp()
            order_key = ts if constraint.order is Order.LAST else -ts
        return (float(relevant), float(fit.tier if relevant else 0), order_key,
                rel * fit.fit ** self.fit_weight, rel * fit.fit, -position)

    def _annotate(self, hit: Hit, semantic: float, fit: SentenceFit,
                  key: tuple[float, ...]) -> Hit:
        flags = {VIOLATES: (Flag.VIOLATES_TIME,), UNKNOWN: (Flag.TIME_UNKNOWN,),
                 OPEN: (Flag.TIME_VERIFIED, Flag.TIME_OPEN),
                 EDGE_MISS: (Flag.EDGE_UNVERIFIED,), SATISFIES: (Flag.TIME_VERIFIED,)}[fit.tier]
        # The part of the sort key above relevance, so later stages reorder near-ties only
        # among hits that share it: the tier (-1 below the relevance gate) and, for a
        # first/last question, the moment that orders the satisfying hits.
        group: dict[str, float] = {}
        if self.mode != "product":
            group["time_tier"] = key[1] if key[0] else -1.0
            if key[2]:
                group["time_order"] = key[2]
        # ``score`` is the relevance term of the sort key, the one below the time group.
        order = key[0] if self.mode == "product" else key[3]
        updated = with_scores(hit, flags=flags, order=order, temporal=fit.fit,
                              combined=semantic * fit.fit, **group)
        return replace(updated, best_sentence=fit.sentence_index)
