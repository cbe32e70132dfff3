"""A validity verdict: whether a document may answer at ``as_of``, and the flags saying why.

The rules that reach a verdict live in ``chronorag.rank.validity``; the verdict and its
flags live here so that code which only reads verdicts (``authority.voices``, reviews)
does not depend on the rules, and the rules can use the authority prior.
"""

from __future__ import annotations

from dataclasses import dataclass

DRAFT = "draft"
RETIRED = "retired"
NOT_YET_VALID = "not_yet_valid"
EXPIRED = "expired"
SUPERSEDED = "superseded"
DERIVED_COPY = "derived_copy"
UNDATED = "undated"
LINK_CYCLE = "link_cycle"

FLAG_ORDER: tuple[str, ...] = (
    DRAFT, RETIRED, NOT_YET_VALID, EXPIRED, SUPERSEDED, DERIVED_COPY, UNDATED, LINK_CYCLE,
)
"""Every validity flag, in the order they appear in ``Validity.flags``."""

BLOCKING: frozenset[str] = frozenset({DRAFT, RETIRED, NOT_YET_VALID, EXPIRED, SUPERSEDED})
"""Flags that make a document not applicable."""


@dataclass(frozen=True)
class Validity:
    """Whether a document may answer at ``as_of`` and why (``flags``, in FLAG_ORDER)."""

    applicable: bool
    flags: tuple[str, ...]
    upcoming: bool
    superseded_by: tuple[str, ...]
    origin: str | None
