"""A record validated into a ``Document`` (``chronorag.ingest.validate``): every field of
a document comes from the ingest schema."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chronorag.contract import field_names
from chronorag.ingest.schema import DocumentSchema
from chronorag.ingest.validate import RawRecord, build_document
from chronorag.model import Document


def test_the_schema_names_every_field_of_a_document_but_its_source() -> None:
    """A field added to ``Document`` is read from records only once the schema checks it."""
    missing = set(field_names(Document)) - set(DocumentSchema.model_fields)
    assert missing == {"source"}


def test_every_field_of_a_record_reaches_the_document() -> None:
    record = {"id": "a", "text": "Body.", "title": "A", "source_type": "policy",
              "status": "approved", "valid_from": "2024-01-01", "valid_to": "2025-01-01",
              "occurred_at": "2023-12-01", "published_at": "2023-12-15",
              "modified_at": "2024-02-01", "supersedes": ["z"], "derived_from": ["y"],
              "subject": "me", "owner": "legal", "metadata": {"k": 1}, "extra": 2}
    doc, errors = build_document(RawRecord("f.jsonl", 1, record, "f.jsonl:1"))
    assert errors == [] and doc is not None
    shown = doc.to_json()
    for name in ("id", "text", "title", "source_type", "status", "subject", "owner"):
        assert shown[name] == record[name], name
    for name in ("valid_from", "valid_to", "occurred_at", "published_at", "modified_at"):
        assert shown[name]["start"].startswith(record[name]), name
    assert (shown["supersedes"], shown["derived_from"]) == (["z"], ["y"])
    assert shown["metadata"] == {"k": 1, "extra": 2}
    assert (shown["source"], shown["ingested_at"]) == ("f.jsonl:1", None)


def test_applies_to_is_an_object_of_value_lists() -> None:
    def read(value: object) -> tuple[Document | None, list[str]]:
        record = {"id": "a", "text": "Body.", "applies_to": value}
        doc, errors = build_document(RawRecord("f.jsonl", 3, record, "f.jsonl:3"))
        return doc, [str(e) for e in errors]

    doc, errors = read({"region": ["US", "EU"], "segment": "business"})
    assert errors == [] and doc is not None
    assert doc.applies_to == {"region": ("EU", "US"), "segment": ("business",)}
    assert doc.to_json()["applies_to"] == {"region": ["EU", "US"], "segment": ["business"]}
    assert read(["EU"])[1] == ['f.jsonl:3: applies_to: must be an object: condition key -> '
                               'list of values, e.g. {"region": ["EU"]}']
    assert read({"region": []})[1] == [
        "f.jsonl:3: applies_to.region: must be a non-empty list of non-empty strings"]
    assert read({"region": ["EU", 3]})[1] == [
        "f.jsonl:3: applies_to.region: must be a non-empty list of non-empty strings"]
    assert read({" ": ["EU"]})[1] == [
        "f.jsonl:3: applies_to: a condition key must be a non-empty string"]
    doc, errors = read({})
    assert errors == [] and doc is not None and "applies_to" not in doc.to_json()


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


@given(_JSON)
def test_any_applies_to_is_a_document_or_a_reason(value: object) -> None:
    doc, errors = build_document(RawRecord("f.jsonl", 1, {"id": "a", "text": "Body.",
                                                         "applies_to": value}, "f.jsonl:1"))
    assert (doc is None) == bool(errors)
    assert all(e.field.startswith("applies_to") and e.reason for e in errors)
    if doc is not None:
        assert all(k and v and all(isinstance(x, str) and x for x in v)
                   for k, v in doc.applies_to.items())
