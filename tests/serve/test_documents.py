"""Writing over HTTP: uploads all or nothing, admin keys only, reads during an ingest."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
from serving import Served
from test_api import _error

NDJSON = {"Content-Type": "application/x-ndjson"}


def _doc(doc_id: str, text: str, **fields: Any) -> str:
    return json.dumps({"id": doc_id, "title": doc_id, "text": text, **fields},
                      ensure_ascii=False)


def _count(served: Served) -> int:
    return served.service.reader.store.count()["documents"]


def test_ndjson_upload_ingests_then_is_a_no_op(fast_served: Served) -> None:
    body = "\n".join([_doc("up-1", "The shuttle leaves at 9:00 from gate 4.",
                           valid_from="2026-01-01"),
                      _doc("up-2", "班车每天早上九点从四号门出发。")]) + "\n"
    with fast_served.client(fast_served.admin_key) as client:
        first = client.post("/v1/documents?name=shuttle.jsonl", content=body, headers=NDJSON)
        assert first.json() == {"files": 1, "added": 2, "replaced": 0, "unchanged": 0,
                                "chunks": 2}, first.text
        again = client.post("/v1/documents", content=body, headers=NDJSON).json()
        assert again["unchanged"] == 2 and again["added"] == 0
        stored = client.get("/v1/documents/up-1").json()
    assert stored["text"] == "The shuttle leaves at 9:00 from gate 4."
    assert stored["source"] == "shuttle.jsonl:1"  # the sender's name, not a temporary file
    assert stored["valid_from"]["start"].startswith("2026-01-01T00:00:00")


def test_multipart_upload_of_markdown_and_jsonl(fast_served: Served) -> None:
    files = [("files", ("notes/Parking.md", b"---\nsource_type: policy\nvalid_from: "
                        b"2026-03-01\n---\n# Parking\n\nStaff park on level B2.\n",
                        "text/markdown")),
             ("files", ("more.jsonl", (_doc("mp-1", "Lockers are on floor 3.") + "\n")
                        .encode(), "application/jsonl"))]
    with fast_served.client(fast_served.admin_key) as client:
        report = client.post("/v1/documents", files=files).json()
        assert (report["files"], report["added"]) == (2, 2), report
        parking = client.get("/v1/documents/Parking").json()
    assert parking["title"] == "Parking" and parking["source"] == "Parking.md"


def test_multipart_upload_of_html_and_pdf_is_read_as_text(fast_served: Served) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.multi_cell(0, 8, "Shuttle timetable\n\nThe night shuttle leaves at 23:00 from gate 2.")
    page = (b"<html><head><title>Canteen</title></head><body><nav>Home | About</nav><main>"
            b"<h1>Canteen</h1><p>The canteen opens at <b>11:30</b> on weekdays.</p></main>"
            b"</body></html>")
    files = [("files", ("site/canteen.html", page, "text/html")),
             ("files", ("timetable.pdf", bytes(pdf.output()), "application/pdf"))]
    with fast_served.client(fast_served.admin_key) as client:
        report = client.post("/v1/documents", files=files).json()
        assert (report["files"], report["added"]) == (2, 2), report
        canteen = client.get("/v1/documents/canteen").json()
        timetable = client.get("/v1/documents/timetable").json()
    assert canteen["title"] == "Canteen"
    assert "<b>" not in canteen["text"] and "Home | About" not in canteen["text"]
    assert "The canteen opens at 11:30 on weekdays." in canteen["text"]
    assert "The night shuttle leaves at 23:00 from gate 2." in timetable["text"]


def test_an_upload_may_take_its_dates_from_the_text(fast_served: Served) -> None:
    page = b"# Visitor policy\n\nEffective date: March 1, 2026\n\nVisitors sign in at desk 1.\n"
    linked = b"---\nsupersedes: [visitors-2019]\n---\nVisitors sign in at desk 2.\n"
    with fast_served.client(fast_served.admin_key) as client:
        dangling = _error(client.post("/v1/documents", files=[
            ("files", ("visitors-2027.md", linked, "text/markdown"))]), 422,
            "invalid_documents")
        assert dangling["errors"][0]["field"] == "supersedes", dangling
        noted = client.post("/v1/documents?allow_dangling=true", files=[
            ("files", ("visitors-2027.md", linked, "text/markdown"))])
        assert noted.status_code == 200 and noted.json()["notes"], noted.text
        plain = client.post("/v1/documents", files=[
            ("files", ("visitors.md", page, "text/markdown"))]).json()
        assert plain["added"] == 1
        assert client.get("/v1/documents/visitors").json()["valid_from"] is None
        dated = client.post("/v1/documents?dates_from_text=true", files=[
            ("files", ("visitors.md", page, "text/markdown"))]).json()
        assert dated["replaced"] == 1, dated
        stored = client.get("/v1/documents/visitors").json()
    assert stored["valid_from"]["start"].startswith("2026-03-01")


def test_a_bad_file_rejects_the_whole_upload_with_file_line_field(fast_served: Served
                                                                  ) -> None:
    before = _count(fast_served)
    good = _doc("bad-batch-ok", "A fine document.")
    bad = _doc("bad-batch-2", "Broken date.", valid_from="the thirty-first of Smarch")
    files = [("files", ("good.jsonl", (good + "\n").encode(), "application/jsonl")),
             ("files", ("bad.jsonl", (good.replace("bad-batch-ok", "b1") + "\n" + bad
                                      + "\n").encode(), "application/jsonl"))]
    with fast_served.client(fast_served.admin_key) as client:
        error = _error(client.post("/v1/documents", files=files), 422, "invalid_documents")
    assert {"file": "bad.jsonl", "line": 2, "field": "valid_from"}.items() <= \
        error["errors"][0].items(), error
    assert "nothing was stored" in error["message"]
    assert _count(fast_served) == before


def test_upload_problems_before_any_document(fast_served: Served) -> None:
    with fast_served.client(fast_served.admin_key) as client:
        error = _error(client.post("/v1/documents", files=[
            ("files", ("tool.exe", b"MZ", "application/octet-stream"))]), 422,
            "invalid_documents")
        assert error["errors"][0]["file"] == "tool.exe"
        _error(client.post("/v1/documents", content=b"{}", headers={
            "Content-Type": "text/csv"}), 415, "unsupported_media_type")
        _error(client.post("/v1/documents", content=b"x" * (3 * 1024 * 1024),
                           headers=NDJSON), 413, "too_large")
        not_utf8 = _error(client.post("/v1/documents?name=latin.jsonl",
                                      content=b'{"id": "x", "text": "caf\xe9"}\n',
                                      headers=NDJSON), 422, "invalid_documents")
    assert not_utf8["errors"][0]["field"] == "encoding"


def test_only_admin_keys_write(fast_served: Served) -> None:
    body = _doc("sneaky", "Should never be stored.") + "\n"
    with fast_served.client(fast_served.user_key) as client:
        _error(client.post("/v1/documents", content=body, headers=NDJSON), 403, "forbidden")
        _error(client.delete("/v1/documents/returns-2024"), 403, "forbidden")
        _error(client.post("/v1/people", content=b"{}"), 403, "forbidden")
        _error(client.get("/v1/review"), 403, "forbidden")
    assert not fast_served.service.reader.store.documents(["sneaky"])


def test_delete_and_its_404(fast_served: Served) -> None:
    body = _doc("to-delete", "Temporary.") + "\n"
    with fast_served.client(fast_served.admin_key) as client:
        client.post("/v1/documents", content=body, headers=NDJSON).raise_for_status()
        assert client.delete("/v1/documents/to-delete").json() == {"deleted": ["to-delete"]}
        _error(client.delete("/v1/documents/to-delete"), 404, "not_found")
        _error(client.get("/v1/documents/to-delete"), 404, "not_found")


def test_delete_of_a_linked_document_is_a_409_unless_unlinked(fast_served: Served) -> None:
    body = "\n".join([_doc("linked-old", "Old text."),
                      _doc("linked-new", "New text.", supersedes=["linked-old"])]) + "\n"
    with fast_served.client(fast_served.admin_key) as client:
        client.post("/v1/documents", content=body, headers=NDJSON).raise_for_status()
        error = _error(client.delete("/v1/documents/linked-old"), 409, "linked")
        assert "linked-new names linked-old" in error["message"]
        assert client.delete("/v1/documents/linked-old", params={"unlink": "true"}
                             ).json() == {"deleted": ["linked-old"]}
        assert client.get("/v1/documents/linked-new").json()["supersedes"] == []


def test_review_and_people_for_admins(fast_served: Served) -> None:
    with fast_served.client(fast_served.admin_key) as client:
        report = client.get("/v1/review", params={"as_of": "2026-11-25"}).json()
        assert set(report) >= {"undated", "stale_copies", "similar_pairs"}
        error = _error(client.post("/v1/people", content=b'{"people": [{"id": 3}]}'), 422,
                       "invalid_documents")
    assert error["errors"][0]["file"] == "people.json"


def test_questions_are_answered_while_an_upload_ingests(fast_served: Served) -> None:
    lines = [_doc(f"bulk-{i}", f"Bulk note {i}: the canteen opens at {7 + i % 5}:00.")
             for i in range(6000)]
    upload: dict[str, Any] = {}
    store = fast_served.service.reader.store

    def send() -> None:
        with fast_served.client(fast_served.admin_key) as client:
            upload["response"] = client.post("/v1/documents?name=bulk.jsonl",
                                             content="\n".join(lines), headers=NDJSON)
            upload["done"] = time.monotonic()

    before = _count(fast_served)
    writer = threading.Thread(target=send)
    writer.start()
    while _count(fast_served) == before and writer.is_alive():  # the first batch commits
        time.sleep(0.005)
    seen = _count(fast_served)
    answered: list[tuple[float, httpx.Response]] = []
    with fast_served.client(fast_served.user_key) as client:
        while writer.is_alive():
            response = client.post("/v1/ask", json={"question": "When does the canteen "
                                                    "open?"})
            answered.append((time.monotonic(), response))
    writer.join()
    assert upload["response"].status_code == 200, upload["response"].text
    assert before < seen < before + len(lines), "the upload committed all at once"
    assert all(r.status_code == 200 for _, r in answered), [r.text for _, r in answered]
    assert any(at < upload["done"] for at, _ in answered), "no question met the upload"
    assert store.count()["documents"] == before + len(lines)
    with fast_served.client(fast_served.user_key) as client:
        after = client.post("/v1/ask", json={"question": "When does the canteen open?"})
    assert any(e["doc_id"].startswith("bulk-") for e in after.json()["evidence"])


def test_the_list_holds_what_the_key_may_see(fast_served: Served) -> None:
    store = fast_served.service.reader.store
    every = store.document_ids()
    records = {d.id: d.subject for d in store.documents(text=False) if d.subject}
    assert records  # the family records: some are private to their subjects
    with fast_served.client(fast_served.admin_key) as client:
        rows = client.get("/v1/documents").json()["documents"]
    assert [r["id"] for r in rows] == every
    counts = store.chunk_counts()
    assert all(r["chunks"] == counts[r["id"]] for r in rows)
    assert set(rows[0]) == {"id", "title", "source", "valid_from", "valid_to", "status",
                            "supersedes", "chunks"}
    visible = store.visible_doc_ids("stranger")
    assert visible is not None and set(records) - visible
    with fast_served.client(fast_served.keys["stranger"]) as client:
        seen = [r["id"] for r in client.get("/v1/documents").json()["documents"]]
    assert seen == [i for i in every if i in visible]
    with fast_served.client() as client:
        _error(client.get("/v1/documents"), 401, "unauthorized")


def test_an_upload_replaces_another_files_document_only_when_asked(
        fast_served: Served) -> None:
    with fast_served.client(fast_served.admin_key) as client:
        client.post("/v1/documents?name=first.jsonl", content=_doc("twice", "One.") + "\n",
                    headers=NDJSON).raise_for_status()
        body = _doc("twice", "Two.") + "\n"
        error = _error(client.post("/v1/documents?name=second.jsonl", content=body,
                                   headers=NDJSON), 422, "invalid_documents")
        assert error["errors"][0] == {
            "file": "second.jsonl", "line": 0, "field": "id",
            "reason": "would replace 'twice' read from first.jsonl; pass --replace"}
        report = client.post("/v1/documents?name=second.jsonl&replace=true", content=body,
                             headers=NDJSON).json()
        assert report["replaced"] == 1
        assert client.get("/v1/documents/twice").json()["source"] == "second.jsonl:1"
