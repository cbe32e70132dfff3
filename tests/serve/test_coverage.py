"""``GET /v1/coverage``: ``chronorag coverage --json`` over HTTP, for admin keys only (it
names every group's documents, records included)."""

from __future__ import annotations

from serving import NOW, Served
from test_api import _error

from chronorag.engine import Engine


def test_admin_gets_the_coverage_the_engine_computes(fast_served: Served) -> None:
    with fast_served.client(fast_served.admin_key) as client:
        served = client.get("/v1/coverage", params={"by": "source_type",
                                                    "now": NOW.isoformat()}).json()
    with Engine(fast_served.db, tz=fast_served.service.tz, config="hybrid") as engine:
        direct = engine.coverage(by="source_type", now=NOW).to_json()
    assert served == direct
    assert served["documents"] > 0 and {g["group"] for g in served["groups"]} >= {"policy"}


def test_a_key_that_may_only_ask_is_403(fast_served: Served) -> None:
    with fast_served.client(fast_served.user_key) as client:
        body = _error(client.get("/v1/coverage"), 403, "forbidden")
    assert "admin key" in body["message"]


def test_an_unknown_grouping_is_422(fast_served: Served) -> None:
    with fast_served.client(fast_served.admin_key) as client:
        body = _error(client.get("/v1/coverage", params={"by": "colour"}), 422,
                      "invalid_request")
    assert "title, source_type, entity" in body["message"]
