"""Any valid UTF-8 text in any field the API reads: an answer or a JSON error, never a
500, never a traceback."""

from __future__ import annotations

import http.client
import os
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import Served

EXAMPLES = int(os.environ.get("CHRONORAG_PROPERTY_EXAMPLES", "40"))
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def _fine(response_status: int, text: str) -> None:
    assert response_status < 500, text
    assert "Traceback" not in text


@FUZZ
@given(question=TEXT, now=TEXT, tz=TEXT)
def test_ask_survives_any_text(fast_served: Served, question: str, now: str, tz: str) -> None:
    with fast_served.client(fast_served.user_key) as client:
        for body in ({"question": question}, {"question": question or "x", "now": now},
                     {"question": "x", "tz": tz}):
            response = client.post("/v1/ask", json=body)
            _fine(response.status_code, response.text)
            assert response.status_code in (200, 422)


@FUZZ
@given(expression=TEXT, now=TEXT, doc_id=TEXT.filter(str.strip))
def test_time_and_documents_survive_any_text(fast_served: Served, expression: str, now: str,
                                             doc_id: str) -> None:
    with fast_served.client(fast_served.user_key) as client:
        for response in (client.get("/v1/time", params={"expression": expression}),
                         client.get("/v1/time", params={"expression": "today", "now": now}),
                         client.post("/v1/time/extract", json={"text": expression}),
                         client.get("/v1/documents/" + quote(doc_id, safe=""))):
            _fine(response.status_code, response.text)
            assert response.headers["content-type"].startswith("application/json")


# What an HTTP client can put in a header at all (no control characters, no space at
# either end), sent as UTF-8 bytes.
HEADER = st.text(st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=60
                 ).map(str.strip)


@FUZZ
@given(name=TEXT, data=st.binary(max_size=200), key=HEADER)
def test_uploads_and_keys_survive_anything(fast_served: Served, name: str, data: bytes,
                                           key: str) -> None:
    with fast_served.client(fast_served.admin_key) as client:
        before = fast_served.service.reader.store.count()["documents"]
        response = client.post("/v1/documents", files=[("files", (name or "x", data))])
        _fine(response.status_code, response.text)
        if response.status_code != 200:
            assert fast_served.service.reader.store.count()["documents"] == before
    # http.client sends the header's bytes as they are (httpx would refuse non-ASCII).
    host, port = fast_served.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.putrequest("GET", "/v1/whoami")
    connection.putheader("Authorization", (b"Bearer " + key.encode()).strip())
    connection.endheaders()
    answer = connection.getresponse()
    body = answer.read().decode("utf-8")
    connection.close()
    _fine(answer.status, body)
    assert answer.status == 401, body
