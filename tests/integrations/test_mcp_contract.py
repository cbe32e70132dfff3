"""What the MCP server's tools return, byte for byte against their recordings
(``tests/contract_golden.py``): the text content of each result of a real ``chronorag
mcp`` process over stdio, driven by the ``mcp`` package's client, on the recorded store
with the default pipeline's rules and no model."""

from __future__ import annotations

import json
import os
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from ..conftest import hash_embedder_cli
from ..contract_golden import (
    GOLDEN,
    NOW,
    QUESTIONS,
    ZONE,
    Asked,
    build_store,
    check,
    shows,
    without_models,
)

driver = hash_embedder_cli()
ASKED = [a for a in QUESTIONS if not a.admin]  # the tool has no admin view


def _arguments(asked: Asked) -> dict[str, Any]:
    arguments: dict[str, Any] = {"question": asked.question, "now": NOW}
    if asked.user is not None:
        arguments["user"] = asked.user
    if asked.as_of is not None:
        arguments["as_of"] = asked.as_of
    return arguments


CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    **{f"ask_{a.name}": ("ask", _arguments(a)) for a in ASKED},
    "time": ("time", {"expression": "上周二", "now": NOW}),
    "context": ("context", {"question": "华东 GMV 趋势", "now": NOW, "budget": 300}),
    "ask_unreadable_now": ("ask", {"question": QUESTIONS[0].question, "now": "blursday"}),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every call's result, from one server process."""
    db = tmp_path_factory.mktemp("contract") / "kb.db"
    with without_models():
        build_store(db)
    argv = driver.command("mcp", "--db", str(db), "--tz", ZONE)
    params = StdioServerParameters(command=argv[0], args=argv[1:],
                                   env={**os.environ, "CHRONORAG_TEST_NO_RERANKER": "1"})
    got: dict[str, Any] = {}

    async def main() -> None:
        with anyio.fail_after(300):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
                await s.initialize()
                for name, (tool, arguments) in CALLS.items():
                    got[name] = await s.call_tool(tool, arguments)

    anyio.run(main)
    return got


@pytest.mark.parametrize("name", list(CALLS))
def test_tool_result(results: dict[str, Any], name: str) -> None:
    result = results[name]
    assert len(result.content) == 1
    text = result.content[0].text
    if not result.is_error:
        assert json.loads(text) == result.structured_content
    asked = next((a for a in ASKED if name == f"ask_{a.name}"), None)
    if asked is not None:
        assert shows(asked, json.loads(text)), f"{asked.name} no longer shows {asked.shows}"
    check(f"mcp/{name}.txt", f"error: {result.is_error}\n{text}")


def test_no_recording_is_left_unchecked() -> None:
    """A recording no test produces pins nothing: remove it or check it."""
    assert {p.name for p in (GOLDEN / "mcp").iterdir()} == {f"{n}.txt" for n in CALLS}
