"""Authority of sources: a prior weight per ``source_type`` and who may decide an answer.

The prior only breaks near-ties between equally relevant, applicable evidence (see
``chronorag.rank.validity.apply_validity``); it never lifts an irrelevant document above a
relevant one. A forum post may support an answer but never decide it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from chronorag.errors import ConfigError

DEFAULT_WEIGHTS: Mapping[str, float] = MappingProxyType({
    "policy": 1.0,
    "glossary": 1.0,
    "wiki": 0.9,
    "record": 0.9,
    "news": 0.85,
    "faq": 0.85,
    "script": 0.75,
    "note": 0.7,
    "forum": 0.5,
})
"""Prior weight per source type; types not listed get ``AuthorityPrior.unknown``."""

DEFAULT_UNKNOWN = 0.7
DEFAULT_NON_DECISIVE: frozenset[str] = frozenset({"forum"})


def _normalise(source_type: str | None) -> str | None:
    if source_type is None:
        return None
    key = source_type.strip().lower()
    return key or None


@dataclass(frozen=True)
class AuthorityPrior:
    """Configurable prior weight per ``source_type`` (case-insensitive).

    ``weights`` replaces the defaults entirely; use :meth:`with_weights` to change a few.
    ``unknown`` is the weight of a missing or unlisted type. Types in ``non_decisive`` may
    support an answer but never decide it.
    """

    weights: Mapping[str, float] = field(default_factory=lambda: DEFAULT_WEIGHTS)
    unknown: float = DEFAULT_UNKNOWN
    non_decisive: frozenset[str] = DEFAULT_NON_DECISIVE

    def __post_init__(self) -> None:
        cleaned: dict[str, float] = {}
        for name, weight in self.weights.items():
            key = _normalise(name)
            if key is None:
                raise ConfigError("authority weights: source_type names must not be empty")
            cleaned[key] = _check_weight(f"authority weight of {name!r}", weight)
        _check_weight("authority weight of unknown source types", self.unknown)
        object.__setattr__(self, "weights", MappingProxyType(cleaned))
        decisive = frozenset(k for k in (_normalise(n) for n in self.non_decisive) if k)
        object.__setattr__(self, "non_decisive", decisive)

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.weights.items())), self.unknown, self.non_decisive))

    def with_weights(self, **overrides: float) -> AuthorityPrior:
        """A copy with some weights replaced or added, e.g. ``with_weights(forum=0.3)``."""
        merged = {**self.weights, **overrides}
        return AuthorityPrior(weights=merged, unknown=self.unknown,
                              non_decisive=self.non_decisive)

    def prior(self, source_type: str | None) -> float:
        """The prior weight of ``source_type``; ``unknown`` when missing or unlisted."""
        key = _normalise(source_type)
        if key is None:
            return self.unknown
        return self.weights.get(key, self.unknown)

    def decisive(self, source_type: str | None) -> bool:
        """False for types that may support but never decide an answer (forum)."""
        key = _normalise(source_type)
        return key not in self.non_decisive


def _check_weight(what: str, weight: float) -> float:
    value = float(weight)
    if not math.isfinite(value) or value < 0:
        raise ConfigError(f"{what} must be a finite number >= 0, got {weight!r}")
    return value
