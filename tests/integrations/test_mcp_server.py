"""``chronorag mcp``: a real server process over stdio, driven by the ``mcp`` package's own
client; every tool returns what the CLI prints with ``--json``. The server runs through
tests/hash_embedder_cli.py on a ``test-hash`` store with the ``hybrid`` preset, so no
model is loaded."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from chronorag import cli
from chronorag.demo import DEMO_NOW, demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.integrations.mcp_server import Tools

from ..answer.recorded_llm import RecordedLLM, Reply
from ..conftest import hash_embedder_cli

driver = hash_embedder_cli()

CASES = Path(__file__).parents[1] / "cases"
NOW = DEMO_NOW.isoformat()
QUESTION = "How many days do I have to return an item?"
PERSONAL = ("上周二我几点吃的午饭？", "me")


def _store(folder: Path, *, layer: bool) -> str:
    db = folder / "kb.db"
    driver.prepare_store(db)
    with Engine(str(db), config="hybrid", tz=UTC) as engine:
        sources = [demo_corpus(), *([CASES / "semantic" / "retail.yaml"] if layer else [])]
        engine.ingest(sources, now=DEMO_NOW)
        engine.load_people(demo_people())
    return str(db)


@pytest.fixture
def kb(tmp_path: Path, test_embedders: tuple[str, ...]) -> str:
    return _store(tmp_path, layer=True)


Body = Callable[[ClientSession], Awaitable[None]]


def _serve(db: str, body: Body, *extra: str) -> None:
    """Start ``chronorag mcp --db DB`` and run ``body`` against it in one client session."""
    argv = driver.command("mcp", "--db", db, "--config", "hybrid", *extra)
    params = StdioServerParameters(command=argv[0], args=argv[1:])

    async def main() -> None:
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
                await s.initialize()
                await body(s)

    anyio.run(main)


def _cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    capsys.readouterr()
    assert cli.main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _expected_ask(db: str, question: str, *, user: str | None = None, k: int = 5,
                  as_of: datetime | None = None) -> dict[str, Any]:
    with Engine(db, config="hybrid", tz=UTC) as engine:
        answer = engine.ask(question, now=DEMO_NOW, as_of=as_of, user=user, k=k)
    return json.loads(json.dumps(answer.to_json(), ensure_ascii=False))


def _untimed(payload: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key != "timings_ms"}


def test_the_tools_and_their_input_schemas(kb: str) -> None:
    schemas: dict[str, dict[str, Any]] = {}

    async def body(session: ClientSession) -> None:
        schemas.update({t.name: t.input_schema for t in (await session.list_tools()).tools})

    _serve(kb, body)
    assert set(schemas) == {"ask", "time", "context", "review"}
    ask = schemas["ask"]
    assert ask["required"] == ["question"]
    assert set(ask["properties"]) == {"question", "now", "as_of", "user", "k", "context"}
    assert ask["properties"]["question"]["type"] == "string"
    assert ask["properties"]["k"]["type"] == "integer"
    assert {"type": "string"} in ask["properties"]["now"]["anyOf"]
    assert schemas["time"]["required"] == ["expression"]
    assert set(schemas["context"]["properties"]) == {"question", "budget", "now", "as_of"}
    assert schemas["context"]["required"] == ["question"]
    assert not schemas["review"].get("required")


def test_each_tool_returns_what_the_cli_prints(kb: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    got: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        async def call(name: str, **arguments: Any) -> Any:
            result = await session.call_tool(name, arguments)
            assert not result.is_error, result.content
            # The text content is the same JSON, for clients that read only text.
            assert json.loads(result.content[0].text) == result.structured_content
            return result.structured_content

        got["ask"] = await call("ask", question=QUESTION, now=NOW)
        got["personal"] = await call("ask", question=PERSONAL[0], now=NOW, user=PERSONAL[1],
                                     k=3)
        got["as_of"] = await call("ask", question=QUESTION, now=NOW, as_of="2026-12-05")
        got["time"] = await call("time", expression="上周二", now="2026-11-25")
        got["context"] = await call("context", question="华东 GMV 趋势", now=NOW, budget=300)
        got["review"] = await call("review")
        got["clock"] = await call("ask", question=QUESTION)

    _serve(kb, body)
    assert got["ask"] == _expected_ask(kb, QUESTION)
    assert got["ask"]["evidence"]
    assert got["personal"] == _expected_ask(kb, PERSONAL[0], user=PERSONAL[1], k=3)
    assert got["personal"]["evidence"], "the user's own records are visible to the tool"
    assert got["as_of"] == _expected_ask(kb, QUESTION, as_of=datetime(2026, 12, 5, tzinfo=UTC))
    assert got["as_of"]["as_of"].startswith("2026-12-05")
    assert got["time"] == _cli_json(capsys, "time", "上周二", "--now", "2026-11-25")
    context = _cli_json(capsys, "context", "华东 GMV 趋势", "--db", kb, "--now", NOW,
                        "--budget", "300")
    assert _untimed(got["context"]) == _untimed(context) and context["metrics"]
    review = _cli_json(capsys, "review", "--db", kb)  # both judged at the clock: as_of differs
    assert {**got["review"], "as_of": None} == {**review, "as_of": None}
    assert got["review"]["as_of"] <= review["as_of"]
    # Without `now` the server's clock is the time of asking.
    assert datetime.fromisoformat(got["clock"]["now"]).year >= 2026


def test_bad_input_is_a_tool_error_and_the_server_keeps_serving(kb: str) -> None:
    errors: dict[str, str] = {}
    after: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        for name, arguments in {
            "now": ("ask", {"question": QUESTION, "now": "next blursday"}),
            "as_of": ("ask", {"question": QUESTION, "as_of": "2026-13-01"}),
            "expression": ("time", {"expression": "zzz qqq"}),
            "k": ("ask", {"question": QUESTION, "k": 0}),
            "budget": ("context", {"question": "GMV", "budget": -1}),
        }.items():
            result = await session.call_tool(*arguments)
            assert result.is_error, name
            errors[name] = result.content[0].text
        after["ask"] = (await session.call_tool("ask", {"question": QUESTION, "now": NOW})
                        ).structured_content

    _serve(kb, body)
    assert "now: not an ISO 8601 date or datetime: 'next blursday'" in errors["now"]
    assert "as_of: not an ISO 8601" in errors["as_of"]
    assert "zzz qqq" in errors["expression"]
    assert "internal" not in " ".join(errors.values())
    assert after["ask"] == _expected_ask(kb, QUESTION)


def test_naive_times_are_read_in_the_servers_zone(kb: str) -> None:
    got: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        got["ask"] = (await session.call_tool("ask", {"question": QUESTION,
                                                      "now": "2026-11-25T10:00"})
                      ).structured_content

    _serve(kb, body, "--tz", "Asia/Shanghai")
    assert got["ask"]["now"] == "2026-11-25T10:00:00+08:00"


def test_context_without_a_semantic_layer_is_an_error(tmp_path: Path,
                                                      test_embedders: tuple[str, ...]) -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from chronorag.integrations.mcp_server import build_server

    db = _store(tmp_path, layer=False)
    with Engine(db, config="hybrid", tz=UTC) as engine:
        server = build_server(Tools(engine, clock=lambda: DEMO_NOW))
        with pytest.raises(ToolError, match="no semantic layer; ingest one first"):
            anyio.run(server.call_tool, "context", {"question": "GMV"})


def test_an_unexpected_failure_is_one_line_naming_the_tool(kb: str) -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from chronorag.integrations.mcp_server import build_server

    def broken() -> datetime:
        raise RuntimeError("clock stopped\nsecond line")

    with Engine(kb, config="hybrid", tz=UTC) as engine:
        server = build_server(Tools(engine, clock=broken))
        with pytest.raises(ToolError, match=r"internal error in tool 'review' \(RuntimeError: "
                                            r"clock stopped\); the store keeps"):
            anyio.run(server.call_tool, "review", {})


def test_mcp_without_its_extra_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # A None entry in sys.modules makes `import mcp` (and find_spec) fail as if absent.
    monkeypatch.setitem(sys.modules, "mcp", None)
    code = cli.main(["mcp", "--db", str(tmp_path / "kb.db")])
    err = capsys.readouterr().err
    assert code == 1 and "pip install 'chronorag[mcp]'" in err and "internal" not in err
    assert not (tmp_path / "kb.db").exists(), "fails before opening the store"


def test_ask_with_llm_returns_the_checked_answer(kb: str) -> None:
    # The server runs the hybrid preset (no validity rules): the number rule decides.
    texts = {"accepted": "You have 45 days from delivery [returns-2024].",
             "rejected": "You have 90 days [returns-2024]."}
    got: dict[str, Any] = {}
    for name, text in texts.items():
        async def body(session: ClientSession, name: str = name) -> None:
            result = await session.call_tool("ask", {"question": QUESTION, "now": NOW})
            assert not result.is_error, result.content
            got[name] = result.structured_content

        with RecordedLLM(Reply(text)) as llm:
            _serve(kb, body, "--llm", llm.url)
            assert len(llm.requests) == 1
    assert got["accepted"]["answer"] == texts["accepted"]
    assert got["accepted"]["generation"]["used"] is True
    assert got["rejected"]["status"] == "uncertain", got["rejected"]["generation"]
    assert "generated_answer_rejected" in got["rejected"]["flags"], got["rejected"]["generation"]
    assert got["rejected"]["answer"] == got["rejected"]["generation"]["extractive"]["answer"]
