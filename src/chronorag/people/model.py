"""People and access grants (a leaf module: the store imports it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Person:
    """One person: a stable id (the ``subject`` of their records), a name, aliases."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """Every way the person may be named: the name first, then the aliases."""
        return (self.name, *self.aliases)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "aliases": list(self.aliases)}


@dataclass(frozen=True)
class Directory:
    """The people of a knowledge base and whose records each reader may see.

    ``access`` maps a reader id to the subject ids they may see besides their own.
    """

    people: tuple[Person, ...] = ()
    access: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def person(self, person_id: str) -> Person | None:
        return next((p for p in self.people if p.id == person_id), None)

    def to_json(self) -> dict[str, Any]:
        return {"people": [p.to_json() for p in self.people],
                "access": {k: list(v) for k, v in sorted(self.access.items())}}
