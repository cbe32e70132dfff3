"""Prometheus metrics and request limits, as plain ASGI middleware.

Metrics are labelled by the route's template (``/v1/documents/{doc_id}``), never by the
path a client sent, so no document id, question or user ever reaches ``/metrics``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0, 5.0, 10.0,
            30.0, 60.0)


class Metrics:
    """The service's own registry: requests, errors, latency per endpoint, in flight."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("chronorag_requests", "HTTP requests by endpoint, method "
                                "and status", ["endpoint", "method", "status"],
                                registry=self.registry)
        self.errors = Counter("chronorag_errors", "HTTP responses with status >= 400 by "
                              "endpoint and status", ["endpoint", "status"],
                              registry=self.registry)
        self.latency = Histogram("chronorag_request_seconds", "Request latency by endpoint",
                                 ["endpoint"], buckets=_BUCKETS, registry=self.registry)
        self.in_flight = Gauge("chronorag_requests_in_flight", "Requests being served",
                               registry=self.registry)


def route_template(scope: Scope) -> str:
    """The template of the route that served ``scope`` (the router records it), or
    ``"unmatched"`` (an unknown path, or a request refused before routing)."""
    return str(getattr(scope.get("route"), "path", None) or "unmatched")


class MetricsMiddleware:
    def __init__(self, app: App, *, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = {"code": 500}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = int(message["status"])
            await send(message)

        started = time.perf_counter()
        self.metrics.in_flight.inc()
        try:
            await self.app(scope, receive, sending)
        finally:
            self.metrics.in_flight.dec()
            endpoint = route_template(scope)
            code = str(status["code"])
            self.metrics.requests.labels(endpoint, scope["method"], code).inc()
            if status["code"] >= 400:
                self.metrics.errors.labels(endpoint, code).inc()
            self.metrics.latency.labels(endpoint).observe(time.perf_counter() - started)


class BodyLimit:
    """Refuse a request body above ``limit`` bytes with 413 (by its Content-Length, or
    while it streams when it has none), before the application reads it."""

    def __init__(self, app: App, *, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _too_large(send, self.limit)
            return
        seen = 0
        started = {"response": False}

        async def receiving() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            return message

        async def sending(message: Message) -> None:
            started["response"] = True
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        except _TooLarge:
            if not started["response"]:
                await _too_large(send, self.limit)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"error": {"status": 413, "code": "too_large", "message":
                       f"the request body is over the server's limit of {limit} bytes; "
                       "send smaller files, several requests, or start the server with "
                       "a larger --max-body-mb"}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
