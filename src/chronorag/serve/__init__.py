"""``chronorag serve``: the HTTP API, its keys and the web page (the ``serve`` extra).

Nothing is imported here that needs the extra: ``create_app`` and ``run`` load FastAPI
and uvicorn when called, and say which extra to install when they are missing.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from chronorag.errors import MissingDependencyError
from chronorag.serve.limits import Limits

if TYPE_CHECKING:
    from fastapi import FastAPI

    from chronorag.answer.llm import Generator
    from chronorag.serve.service import Service

log = logging.getLogger(__name__)
__all__ = ["Limits", "create_app", "require_extra", "run"]
_NEEDED = {"fastapi": "fastapi", "uvicorn": "uvicorn", "prometheus_client":
           "prometheus-client", "multipart": "python-multipart"}


def require_extra() -> None:
    """Raise ``MissingDependencyError`` naming ``chronorag[serve]`` when a package of the
    extra is missing."""
    for module, dist in _NEEDED.items():
        if importlib.util.find_spec(module) is None:
            raise MissingDependencyError(dist, extra="serve", needed_for="chronorag serve")


def create_app(service: Service, *, clock: Callable[[], datetime],
               limits: Limits | None = None) -> FastAPI:
    """The FastAPI application over ``service`` (see :mod:`chronorag.serve.app`)."""
    require_extra()
    from chronorag.serve.app import create_app as build

    return build(service, clock=clock, limits=limits)


def run(db: str, *, host: str, port: int, tz: tzinfo, clock: Callable[[], datetime],
        limits: Limits | None = None, llm: Generator | None = None) -> None:
    """Open the store, load the models, then serve until interrupted; ``llm`` writes
    the answers (see :class:`~chronorag.serve.service.Service`)."""
    require_extra()
    import uvicorn

    from chronorag.serve.service import Service

    service = Service(db, tz=tz, llm=llm)
    try:
        service.warm_up()
        app = create_app(service, clock=clock, limits=limits)
        uvicorn.run(app, host=host, port=port, log_level="info", access_log=False)
    finally:
        service.close()
