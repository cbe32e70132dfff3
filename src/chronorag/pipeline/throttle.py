"""Calling a refresh now and then during a long write, at a bounded share of its time."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["Throttled"]


class Throttled:
    """Calls ``fn`` when the time since its last call is at least four times what that
    call took (and ``floor_s``): readers of a long ingest's store find recent indexes, at
    a cost of at most a fifth of the ingest's time."""

    def __init__(self, fn: Callable[[], None], *, floor_s: float = 30.0) -> None:
        self._fn = fn
        self._floor_s = floor_s
        self._last = _monotonic()
        self._took = 0.0

    def __call__(self) -> None:
        if _monotonic() - self._last >= max(self._floor_s, 4 * self._took):
            started = _monotonic()
            self._fn()
            self._last = _monotonic()
            self._took = self._last - started


_monotonic = time.monotonic
