"""The API's response schemas (``chronorag.serve.responses``): derived from the records'
declarations, published in /openapi.json, and strict enough to catch a drift."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI
from pydantic import TypeAdapter, ValidationError

from chronorag.contract import entries
from chronorag.model import Answer, AnswerStatus, Evidence, Status, Understanding
from chronorag.pipeline.ingest import IngestReport
from chronorag.serve.responses import schema_type
from chronorag.serve.routes import ANSWER, router

NOW = datetime(2026, 11, 25, tzinfo=UTC)


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    app = FastAPI()
    app.include_router(router)
    return app.openapi()


def test_every_json_route_declares_its_answer_and_its_errors(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            if path.endswith("/stream"):
                continue
            ok = answers["200"]["content"]["application/json"]["schema"]
            name = ok["$ref"].rsplit("/", 1)[1]
            assert schemas[name]["properties"], (method, path)
            for status in ("401", "422", "503"):
                error = answers[status]["content"]["application/json"]["schema"]
                assert error == {"$ref": "#/components/schemas/Error"}, (method, path)
    assert "HTTPValidationError" not in schemas  # a 422 is our error shape


def test_a_records_schema_is_its_json_keys(spec: dict[str, Any]) -> None:
    evidence = spec["components"]["schemas"]["Evidence"]
    keys = [e.key for e in entries(Evidence)]
    assert list(evidence["properties"]) == keys
    # absent when None or empty
    assert evidence["required"] == [k for k in keys if k not in ("section", "applies_to")]
    assert evidence["additionalProperties"] is False
    assert evidence["properties"]["valid_from"]["anyOf"][0] == {"type": "string",
                                                                "format": "date-time"}
    document = spec["components"]["schemas"]["Document"]["properties"]
    assert document["valid_from"]["anyOf"][0] == {"$ref": "#/components/schemas/Interval"}


def test_a_hand_written_json_is_described_by_the_shape_its_to_json_returns() -> None:
    schema = TypeAdapter(schema_type(IngestReport)).json_schema()
    assert schema["title"] == "IngestCounts"
    assert set(schema["properties"]) - set(schema["required"]) == {"notes"}


def _answer_json() -> dict[str, Any]:
    item = Evidence("d", "d#0", "T", "text", 0, 4, "policy", Status.APPROVED, NOW, None,
                    None, True, (), 0.5, {"semantic": 0.5})
    answer = Answer("q?", NOW, NOW, Understanding("q?", "q"), AnswerStatus.ANSWERED, "a",
                    evidence=(item,), extras={"semantic": {"bindings": [], "join_paths": [],
                                                           "examples": []}})
    return json.loads(json.dumps(answer.to_json()))


@pytest.mark.parametrize("drift", ["extra key", "missing key", "wrong type", "bad enum"])
def test_the_answer_schema_refuses_what_the_contract_does_not_write(drift: str) -> None:
    adapter = TypeAdapter(ANSWER)
    body = _answer_json()
    adapter.validate_json(json.dumps(body), strict=True)  # as written, it conforms
    item = body["evidence"][0]
    if drift == "extra key":
        item["valid_since"] = None
    elif drift == "missing key":
        del item["valid_until"]
    elif drift == "wrong type":
        item["start"] = "0"
    else:
        body["status"] = "maybe"
    with pytest.raises(ValidationError):
        adapter.validate_json(json.dumps(body), strict=True)


def test_a_type_without_a_schema_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="no JSON schema for the declared type"):
        schema_type(complex)
