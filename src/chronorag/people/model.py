"""People and access grants (a leaf module: the store imports it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from chronorag.contract import OmitEmpty, to_json


@dataclass(frozen=True)
class Person:
    """One person: a stable id (the ``subject`` of their records), a name, aliases, and
    the attributes that choose which documents apply to them (``region: EU``; see
    ``chronorag.conditions``)."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    attributes: Annotated[Mapping[str, str], OmitEmpty] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        """Every way the person may be named: the name first, then the aliases."""
        return (self.name, *self.aliases)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Directory:
    """The people of a knowledge base and whose records each reader may see.

    ``access`` maps a reader id to the subject ids they may see besides their own, the
    readers in id order (as every listing and the JSON show them).
    """

    people: tuple[Person, ...] = ()
    access: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "access", dict(sorted(self.access.items())))

    def person(self, person_id: str) -> Person | None:
        return next((p for p in self.people if p.id == person_id), None)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)
