"""Ids that cannot collide silently: ids from paths relative to a root, one id for one
file wherever it is ingested from, and no replacement by another file's document unless
asked (``replace``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chronorag.errors import ValidationError
from chronorag.ingest import Named
from chronorag.pipeline.ingest import Embedders, IngestReport, ingest_paths
from chronorag.store.sqlite import SQLiteStore

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _ingest(store: SQLiteStore, paths: list[Path | str | Named], embedder,
            **options: object) -> IngestReport:
    return ingest_paths(store, paths, embedders=Embedders([embedder]), now=NOW, tz=UTC,
                        **options)  # type: ignore[arg-type]


def _texts(store: SQLiteStore) -> dict[str, str]:
    return {d.id: d.text for d in store.documents()}


def test_two_folders_with_a_file_of_one_name_keep_both(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hash_embedder) -> None:
    _write(tmp_path / "privacy" / "2018-05-25.md", "We keep your data for 30 days.")
    _write(tmp_path / "tos" / "2018-05-25.md", "You may cancel at any time.")
    monkeypatch.chdir(tmp_path)
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, ["privacy/"], hash_embedder)
        report = _ingest(store, ["tos"], hash_embedder)
        assert report.added == ("tos/2018-05-25",) and report.replaced == ()
        assert _texts(store) == {"privacy/2018-05-25": "We keep your data for 30 days.",
                                 "tos/2018-05-25": "You may cancel at any time."}
        [doc] = store.documents(["tos/2018-05-25"])
        assert doc.source == str((tmp_path / "tos" / "2018-05-25.md").resolve())


def test_a_stated_root_and_a_file_given_alone(tmp_path: Path, hash_embedder) -> None:
    path = _write(tmp_path / "kb" / "policies" / "returns.md", "Returns within 30 days.")
    with SQLiteStore(tmp_path / "kb.db") as store:
        report = _ingest(store, [path], hash_embedder, root=tmp_path / "kb")
    assert report.added == ("policies/returns",)


def test_the_same_file_from_two_places_is_one_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hash_embedder) -> None:
    path = _write(tmp_path / "a" / "x.md", "Refunds within 30 days.")
    with SQLiteStore(tmp_path / "kb.db") as store:
        monkeypatch.chdir(tmp_path)
        assert _ingest(store, ["a/"], hash_embedder).added == ("a/x",)
        monkeypatch.chdir(tmp_path / "a")
        again = _ingest(store, ["."], hash_embedder)
        assert (again.added, again.unchanged) == ((), ("a/x",))
        path.write_text("Refunds within 14 days.", encoding="utf-8")
        edited = _ingest(store, ["x.md"], hash_embedder)  # its own file: no --replace
        assert edited.replaced == ("a/x",)
        assert _texts(store) == {"a/x": "Refunds within 14 days."}


def test_replacing_a_document_of_another_file_is_refused_unless_asked(
        tmp_path: Path, hash_embedder) -> None:
    first = _write(tmp_path / "a.jsonl", json.dumps({"id": "d", "text": "Old rule."}) + "\n")
    second = _write(tmp_path / "b.jsonl", json.dumps({"id": "d", "text": "New rule."}) + "\n")
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [first], hash_embedder)
        before = store.generation()
        with pytest.raises(ValidationError) as caught:
            _ingest(store, [second], hash_embedder)
        [error] = caught.value.errors
        assert (error.path, error.line, error.field) == (str(second), 0, "id")
        assert error.reason == f"would replace 'd' read from {first.resolve()}; pass --replace"
        assert store.generation() == before and _texts(store) == {"d": "Old rule."}
        report = _ingest(store, [second], hash_embedder, replace=True)
        assert report.replaced == ("d",) and _texts(store) == {"d": "New rule."}
        [doc] = store.documents(["d"])
        assert doc.source == f"{second.resolve()}:1"


def test_the_same_document_in_another_file_is_no_replacement(
        tmp_path: Path, hash_embedder) -> None:
    line = json.dumps({"id": "d", "text": "One rule."}) + "\n"
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [_write(tmp_path / "a.jsonl", line)], hash_embedder)
        report = _ingest(store, [_write(tmp_path / "copy" / "a.jsonl", line)], hash_embedder)
    assert report.unchanged == ("d",)


def test_a_file_outside_the_root_is_an_error_naming_it(tmp_path: Path,
                                                       hash_embedder) -> None:
    outside = _write(tmp_path / "elsewhere" / "note.md", "A note.")
    facts = _write(tmp_path / "elsewhere" / "facts.jsonl",
                   json.dumps({"id": "f", "text": "A fact."}) + "\n")
    root = tmp_path / "kb"
    root.mkdir()
    with SQLiteStore(tmp_path / "kb.db") as store:
        with pytest.raises(ValidationError) as caught:
            _ingest(store, [outside, facts], hash_embedder, root=root)
        [error] = caught.value.errors
        assert (error.path, error.line, error.field) == (str(outside), 0, "path")
        assert f"is outside the root {str(root)!r}" in error.reason
        assert store.count()["documents"] == 0
        # A JSON Lines file names its own ids: it may live anywhere.
        assert _ingest(store, [facts], hash_embedder, root=root).added == ("f",)


def test_a_store_made_before_roots_keeps_its_ids(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hash_embedder) -> None:
    path = _write(tmp_path / "privacy" / "2018-05-25.md", "We keep your data for 30 days.")
    monkeypatch.chdir(tmp_path)
    with SQLiteStore(tmp_path / "kb.db") as store:
        # What an older chronorag stored for `ingest privacy/`: the id relative to the
        # folder given, the path as named for its source.
        _ingest(store, [Named(path, "privacy/2018-05-25.md")], hash_embedder)
        assert store.document_ids() == ["2018-05-25"]
        assert _ingest(store, ["privacy"], hash_embedder).unchanged == ("2018-05-25",)
        path.write_text("We keep your data for 14 days.", encoding="utf-8")
        assert _ingest(store, ["privacy"], hash_embedder).replaced == ("2018-05-25",)
        [doc] = store.documents()
        assert (doc.id, doc.source) == ("2018-05-25", str(path.resolve()))
