"""Name -> factory registries. Built-ins register exactly like plug-ins would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from chronorag.errors import ConfigError

T = TypeVar("T")


class Registry(Generic[T]):
    """Components looked up by exact name; errors list the names registered right now."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._factories: dict[str, Callable[..., T]] = {}

    def register(self, name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
        def decorator(factory: Callable[..., T]) -> Callable[..., T]:
            if name in self._factories:
                raise ConfigError(f"{self.kind} {name!r} is registered twice")
            self._factories[name] = factory
            return factory

        return decorator

    def add(self, name: str, factory: Callable[..., T]) -> None:
        self.register(name)(factory)

    def names(self) -> list[str]:
        return sorted(self._factories)

    def create(self, name: str, **options: object) -> T:
        try:
            factory = self._factories[name]
        except KeyError:
            choices = ", ".join(self.names()) or "(none registered)"
            raise ConfigError(f"unknown {self.kind} {name!r}; choose one of: {choices}") from None
        return factory(**options)

    def __contains__(self, name: object) -> bool:
        return name in self._factories
