"""What texts state, at ingest: dates filled only when asked, never over stated fields;
links that must name a document; the review's proposals and the command that accepts them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chronorag import cli
from chronorag.errors import ValidationError
from chronorag.pipeline.accept import accept_dates
from chronorag.pipeline.ingest import Embedders, ingest_paths
from chronorag.review import review
from chronorag.store.sqlite import SQLiteStore

NOW = datetime(2026, 11, 30, tzinfo=UTC)
OLD = "---\ntitle: Return Policy\n---\nEffective date: 1 March 2022\n\nReturns within 30 days.\n"
NEW = ("---\ntitle: Return Policy 2024\nvalid_from: 2024-05-01\n---\n"
       "**Effective Date:** February 1, 2024\n> Last Updated: 20 January 2024\n\n"
       "This policy replaces the returns-2022.\n\nReturns within 14 days.\n")


def _corpus(folder: Path) -> Path:
    folder.mkdir()
    (folder / "returns-2022.md").write_text(OLD, encoding="utf-8")
    (folder / "returns.md").write_text(NEW, encoding="utf-8")
    return folder


def _ingest(store: SQLiteStore, paths: list[Path], embedder, **options):
    # Ids as the files' paths from the folder given (or a file's own folder).
    options.setdefault("root", paths[0] if paths[0].is_dir() else paths[0].parent)
    return ingest_paths(store, paths, embedders=Embedders([embedder]), now=NOW, tz=UTC,
                        **options)


def test_proposals_are_stored_and_change_nothing_without_the_option(
        tmp_path: Path, hash_embedder) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [_corpus(tmp_path / "kb")], hash_embedder)
        new, old = store.documents(["returns", "returns-2022"])  # in id order
        assert old.valid_from is None and new.supersedes == ()
        assert [p["field"] for p in new.metadata["_proposed"]] == [
            "valid_from", "modified_at", "supersedes"]
        assert new.metadata["_proposed"][0]["sentence"] == "Effective Date: February 1, 2024"


def test_dates_from_text_fill_only_empty_fields_and_say_so(tmp_path: Path,
                                                          hash_embedder) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        report = _ingest(store, [_corpus(tmp_path / "kb")], hash_embedder,
                         dates_from_text=True)
        new, old = store.documents(["returns", "returns-2022"])  # in id order
        assert old.valid_from.start == datetime(2022, 3, 1, tzinfo=UTC)
        # The front matter's valid_from stands; the text's modified_at and link fill in.
        assert new.valid_from.start == datetime(2024, 5, 1, tzinfo=UTC)
        assert new.modified_at.start == datetime(2024, 1, 20, tzinfo=UTC)
        assert new.supersedes == ("returns-2022",)
        made = new.metadata["_from_text"]
        assert set(made) == {"modified_at", "supersedes"}
        assert made["modified_at"]["by"] == "ingest --dates-from-text"
        assert any("2 modified_at" not in n and "from the text" in n for n in report.notes)
        again = _ingest(store, [tmp_path / "kb"], hash_embedder, dates_from_text=True)
        assert len(again.unchanged) == 2


def test_review_lists_proposals_and_one_command_accepts_them(tmp_path: Path,
                                                            hash_embedder) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [_corpus(tmp_path / "kb")], hash_embedder)
        found = review(store, as_of=NOW).proposed_dates
        assert {(i.doc_ids[0], i.details["field"], i.details["value"]) for i in found} == {
            ("returns-2022", "valid_from", "2022-03-01"),
            ("returns", "modified_at", "2024-01-20"),
            ("returns", "supersedes", "returns-2022")}
        accepted = accept_dates(store, ["returns-2022"], embedders=Embedders([hash_embedder]),
                                now=NOW, tz=UTC)
        assert accepted.fields == {"returns-2022": {"valid_from": "2022-03-01"}}
        assert accepted.report.replaced == ("returns-2022",) and accepted.report.chunks >= 1
        (old,) = store.documents(["returns-2022"])
        assert old.metadata["_from_text"]["valid_from"]["by"] == "review --accept-dates"
        left = {i.doc_ids[0] for i in review(store, as_of=NOW).proposed_dates}
        assert left == {"returns"}


def test_dangling_link_is_an_error_naming_file_line_and_field(tmp_path: Path,
                                                              hash_embedder) -> None:
    doc = tmp_path / "v2.md"
    doc.write_text("---\ntitle: V2\nsupersedes: [nowhere]\n---\nText.\n", encoding="utf-8")
    with SQLiteStore(tmp_path / "kb.db") as store:
        with pytest.raises(ValidationError) as info:
            _ingest(store, [doc], hash_embedder)
        (error,) = info.value.errors
        assert (error.path, error.line, error.field) == (str(doc), 3, "supersedes")
        assert "'nowhere'" in error.reason and store.count()["documents"] == 0
        report = _ingest(store, [doc], hash_embedder, allow_dangling=True)
        assert report.added == ("v2",) and report.notes[0].startswith("warning: ")
        (item,) = review(store, as_of=NOW).dangling_links
        assert item.doc_ids == ("v2", "nowhere")


def test_a_link_to_a_stored_or_ingested_document_is_no_error(tmp_path: Path,
                                                             hash_embedder) -> None:
    rows = [{"id": "a", "text": "A."}, {"id": "b", "text": "B.", "supersedes": ["a"]}]
    first = tmp_path / "one.jsonl"
    first.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    later = tmp_path / "two.jsonl"
    later.write_text(json.dumps({"id": "c", "text": "C.", "derived_from": ["b"]}) + "\n",
                     encoding="utf-8")
    with SQLiteStore(tmp_path / "kb.db") as store:
        assert len(_ingest(store, [first], hash_embedder).added) == 2
        assert _ingest(store, [later], hash_embedder).added == ("c",)


def test_cli_ingest_and_accept(tmp_path: Path, test_embedders, capsys) -> None:
    import sys
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from hash_embedder_cli import prepare_store

    db = tmp_path / "kb.db"
    prepare_store(db)
    corpus = _corpus(tmp_path / "kb")
    assert cli.main(["ingest", str(corpus), "--root", str(corpus), "--db", str(db),
                     "--json"]) == 0
    capsys.readouterr()
    assert cli.main(["review", "--db", str(db), "--accept-dates", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["accepted"]["returns"] == {"modified_at": "2024-01-20",
                                          "supersedes": ["returns-2022"]}
    assert cli.main(["review", "--db", str(db), "--accept-dates", "missing"]) == 1
    assert "missing" in capsys.readouterr().err
