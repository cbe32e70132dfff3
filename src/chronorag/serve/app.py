"""The HTTP API: FastAPI routes over :class:`~chronorag.serve.service.Service`.

Every ``/v1/`` route needs ``Authorization: Bearer KEY``; the key's user is the asker.
Errors are JSON (``{"error": {"status", "code", "message", "errors"?}}``) and never carry
a traceback. The page at ``/`` is plain HTML and JavaScript shipped in the package.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.exceptions import HTTPException

from chronorag.conditions import ConditionError
from chronorag.errors import (
    ChronoragError,
    ConfigError,
    StoreError,
    TimeParseError,
    ValidationError,
)
from chronorag.serve.limits import Limits
from chronorag.serve.metrics import BodyLimit, Metrics, MetricsMiddleware
from chronorag.serve.routes import Context, router
from chronorag.serve.service import ApiError, Service, internal_error

log = logging.getLogger(__name__)


def static_dir() -> Path:
    return Path(str(resources.files("chronorag") / "serve" / "static"))


def create_app(service: Service, *, clock: Callable[[], datetime],
               limits: Limits | None = None) -> FastAPI:
    """The application; ``clock`` gives ``now`` when a request names none."""
    app = FastAPI(title="chronorag", version="1", description=__doc__,
                  docs_url="/docs", redoc_url=None)
    metrics = Metrics()
    limits = limits or Limits()
    app.state.context = Context(service, clock, limits.read_s, anyio.Lock())
    _errors(app)
    # The last added runs first: metrics see every response, a 413 included.
    app.add_middleware(BodyLimit, limit=limits.body_bytes)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    app.include_router(router)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(static_dir() / "index.html")

    app.mount("/static", StaticFiles(directory=static_dir()), name="static")

    @app.get("/healthz", tags=["service"])
    def healthz() -> dict[str, str]:
        """Liveness: the server answers (no key needed)."""
        return {"status": "ok"}

    @app.get("/metrics", tags=["service"], response_class=PlainTextResponse)
    def metrics_text() -> Response:
        """Prometheus text: requests, errors and latency per endpoint template."""
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return app


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"error": {"status": status, "code": code, "message": message,
                                   **extra}}, status_code=status, headers=headers)


_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 400: "bad_request"}


def _errors(app: FastAPI) -> None:
    """Every failure as JSON with a code; never a traceback (those go to the log)."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        response = JSONResponse(exc.to_json(), status_code=exc.status)
        if exc.status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        return response

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [{"field": ".".join(str(p) for p in e.get("loc", ())),
                     "reason": str(e.get("msg", ""))} for e in exc.errors()]
        return _error(422, "invalid_request", "the request is not valid: "
                      + "; ".join(f"{p['field']}: {p['reason']}" for p in problems),
                      errors=problems)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, _HTTP_CODES.get(exc.status_code, "error"),
                      str(exc.detail))

    @app.exception_handler(ValidationError)
    async def invalid_input(request: Request, exc: ValidationError) -> JSONResponse:
        return JSONResponse(ApiError(422, "invalid_documents", f"rejected: "
                                     f"{len(exc.errors)} problem(s); nothing was stored",
                                     problems=exc.errors).to_json(), status_code=422)

    @app.exception_handler(ChronoragError)
    async def chronorag_error(request: Request, exc: ChronoragError) -> JSONResponse:
        if isinstance(exc, TimeParseError):
            return _error(422, "invalid_time", str(exc))
        if isinstance(exc, ConditionError):
            return _error(422, "invalid_condition", str(exc))
        if isinstance(exc, ConfigError):
            return _error(400, "bad_request", str(exc))
        if isinstance(exc, StoreError):
            return _error(503, "store_unavailable", str(exc))
        return _error(500, "error", str(exc))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error serving %s %s", request.method, request.url.path,
                  exc_info=exc)
        return JSONResponse(internal_error(exc).to_json(), status_code=500)
