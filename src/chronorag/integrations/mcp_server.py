"""``chronorag mcp``: the engine's questions as MCP tools over stdio (the ``mcp`` extra).

The tools are ``ask``, ``time``, ``context`` and ``review``; each returns exactly what the
CLI prints with ``--json``. Nothing here imports the ``mcp`` package at import time:
``run`` and ``build_server`` load it when called and say which extra to install when it
is missing. Stdout is the protocol's channel, so nothing here prints.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from chronorag.answer.llm import Generator
from chronorag.clock import parse_moment
from chronorag.engine import Engine
from chronorag.errors import ChronoragError, ConfigError, MissingDependencyError, TimeParseError
from chronorag.model import Asking

if TYPE_CHECKING:
    from mcp.server import MCPServer

log = logging.getLogger(__name__)
__all__ = ["Tools", "build_server", "require_extra", "run"]
INSTRUCTIONS = (
    "chronorag answers questions from a knowledge base that knows when each statement is "
    "true and which source may answer. Times are ISO 8601; 'now' is when the question is "
    "asked (default: the server's clock), 'as_of' the time it is about.")


def require_extra() -> None:
    """Raise ``MissingDependencyError`` naming ``chronorag[mcp]`` when ``mcp`` is missing."""
    if importlib.util.find_spec("mcp") is None:
        raise MissingDependencyError("mcp", extra="mcp", needed_for="chronorag mcp")


def _moment(value: str | None, field: str) -> datetime | None:
    # The CLI's reading of --now and --as-of: ISO 8601 dates or datetimes, naive or not
    # (the engine reads a naive one in the server's zone).
    try:
        return None if value is None else parse_moment(value)
    except ValueError as exc:
        raise TimeParseError(f"{field}: {exc}; give e.g. 2026-11-25 or "
                             "2026-11-25T10:00+08:00") from None


class Tools:
    """What each tool does, without MCP: one engine opened once and reused, one call at a
    time (calls arrive on worker threads; the engine's store connection is not shared)."""

    def __init__(self, engine: Engine, *, clock: Callable[[], datetime]) -> None:
        self.engine, self.clock = engine, clock
        self._lock = threading.Lock()

    @property
    def tz(self) -> tzinfo:
        return self.engine.tz

    def ask(self, question: str, *, now: str | None = None, as_of: str | None = None,
            user: str | None = None, k: int = 5,
            context: Mapping[str, str] | None = None) -> dict[str, Any]:
        """``chronorag ask --json``."""
        moment, about = _moment(now, "now") or self.clock(), _moment(as_of, "as_of")
        with self._lock:
            answer = self.engine.ask(question, Asking(user=user, now=moment, as_of=about, k=k,
                                                      context=dict(context or {})))
        return answer.to_json()

    def time(self, expression: str, *, now: str | None = None) -> dict[str, Any]:
        """``chronorag time EXPRESSION --json``: ``{"text", "start", "end", "granularity"}``."""
        from chronorag.timex import parse_one

        moment = _moment(now, "now") or self.clock().astimezone(self.tz)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=self.tz)
        return parse_one(expression, now=moment, tz=self.tz).to_json()

    def context(self, question: str, *, budget: int | None = None, now: str | None = None,
                as_of: str | None = None) -> dict[str, Any]:
        """``chronorag context --json``: the semantic layer's pack for text-to-SQL."""
        from chronorag.semantic import build_context
        from chronorag.semantic.pack import DEFAULT_SHARES

        moment, about = _moment(now, "now") or self.clock(), _moment(as_of, "as_of")
        if budget is not None and budget < 0:
            raise ConfigError("budget must be a number of tokens >= 0")
        with self._lock:
            engine = self.engine
            if engine.store.layer_generation() == 0:
                raise ConfigError("the store has no semantic layer; ingest one first: "
                                  "chronorag ingest layer.yaml")
            pack = build_context(
                engine.store, question, now=moment, as_of=about, budget=budget,
                shares=dict(DEFAULT_SHARES), tz=engine.tz,
                embedder=engine.components.embedder(engine.config.embedder))
        return dict(pack.to_json())

    def review(self) -> dict[str, Any]:
        """``chronorag review --json``, judged at the server's clock."""
        from chronorag.review import DEFAULT_THRESHOLD, review

        with self._lock:
            return review(self.engine.store, as_of=self.clock(),
                          threshold=DEFAULT_THRESHOLD).to_json()


@contextmanager
def _as_tool_errors(tool: str) -> Iterator[None]:
    """chronorag's own errors become tool errors with their message; anything else one line
    naming the tool, its traceback on stderr. Either way the server keeps serving."""
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        yield
    except ChronoragError as exc:
        raise ToolError(str(exc)) from None
    except Exception as exc:
        log.exception("tool %r failed", tool)
        first = (str(exc).splitlines() or [""])[0]
        raise ToolError(f"internal error in tool {tool!r} ({type(exc).__name__}: {first}); "
                        "the store keeps its last committed state; please report it") from None


Time = Annotated[str | None, Field(description="ISO 8601 date or datetime; naive times are "
                                               "read in the server's --tz zone")]


def build_server(tools: Tools) -> MCPServer:
    """The MCP server whose tools call ``tools``."""
    require_extra()
    from mcp.server import MCPServer

    server: MCPServer = MCPServer("chronorag", instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool()
    def ask(question: str, now: Time = None, as_of: Time = None,
            user: Annotated[str | None, Field(description="who asks (privacy)")] = None,
            k: Annotated[int, Field(ge=1, le=100)] = 5,
            context: Annotated[dict[str, str] | None, Field(
                description="the asker's attributes, e.g. {\"region\": \"EU\"}: documents "
                            "written for other values do not apply")] = None
            ) -> dict[str, Any]:
        """Answer a question with evidence, validity flags and a status (answered,
        uncertain, not_found): exactly `chronorag ask --json`."""
        with _as_tool_errors("ask"):
            return tools.ask(question, now=now, as_of=as_of, user=user, k=k, context=context)

    @server.tool()
    def time(expression: str, now: Time = None) -> dict[str, Any]:
        """Resolve a time expression (English or Chinese, e.g. 'last Tuesday', '上周二') to a
        half-open interval {text, start, end, granularity}."""
        with _as_tool_errors("time"):
            return tools.time(expression, now=now)

    @server.tool()
    def context(question: str, budget: Annotated[int | None, Field(ge=0)] = None,
                now: Time = None, as_of: Time = None) -> dict[str, Any]:
        """Context pack of the store's semantic layer (tables, columns, metrics, terms,
        joins) for a text-to-SQL model; `budget` is in tokens."""
        with _as_tool_errors("context"):
            return tools.context(question, budget=budget, now=now, as_of=as_of)

    @server.tool()
    def review() -> dict[str, Any]:
        """What a knowledge-base owner must look at: undated documents, stale copies,
        unlinked near-duplicates."""
        with _as_tool_errors("review"):
            return tools.review()

    return server


def run(db: str, *, tz: tzinfo, clock: Callable[[], datetime], config: str = "default",
        llm: Generator | None = None) -> None:
    """Open the store, load the models, then serve MCP over stdio until stdin closes;
    with ``llm`` the ``ask`` tool's answers are written by it, checked."""
    require_extra()
    with Engine(db, tz=tz, config=config, llm=llm) as engine:
        engine.warm_up().join()  # the first question pays no cold start
        build_server(Tools(engine, clock=clock)).run("stdio")
