"""A validity verdict: whether a document may answer at ``as_of``, and the flags saying why.

The rules that reach a verdict live in ``chronorag.rank.validity``; the verdict and its
flags live here so that code which only reads verdicts (``authority.voices``, reviews)
does not depend on the rules, and the rules can use the authority prior.
"""

from __future__ import annotations

from dataclasses import dataclass

from chronorag.flags import Flag, Flags

FLAG_ORDER: tuple[Flag, ...] = (
    Flag.DRAFT, Flag.RETIRED, Flag.NOT_YET_VALID, Flag.EXPIRED, Flag.SUPERSEDED,
    Flag.DERIVED_COPY, Flag.UNDATED, Flag.LINK_CYCLE,
)
"""Every validity flag, in the order they appear in ``Validity.flags``."""

BLOCKING: frozenset[Flag] = frozenset({
    Flag.DRAFT, Flag.RETIRED, Flag.NOT_YET_VALID, Flag.EXPIRED, Flag.SUPERSEDED})
"""Flags that make a document not applicable."""


@dataclass(frozen=True)
class Validity:
    """Whether a document may answer at ``as_of`` and why (``flags``, in FLAG_ORDER)."""

    applicable: bool
    flags: Flags
    upcoming: bool
    superseded_by: tuple[str, ...]
    origin: str | None
