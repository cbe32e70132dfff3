"""``chronorag documents list|show|delete``, readers on a store that does not exist, and
ingest making one (``chronorag.cli.documents``, ``chronorag.cli.options``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronorag.store.sqlite import SQLiteStore

from .conftest import run_cli as _run

RULES = [
    {"id": "returns-v1", "title": "Returns (old)", "text": "Refunds within 30 days.",
     "valid_from": "2020-01-01", "valid_to": "2026-01-01", "status": "approved"},
    {"id": "returns-v2", "title": "Returns", "text": "Refunds within 14 days. " * 150,
     "valid_from": "2026-01-01", "status": "approved", "supersedes": ["returns-v1"]},
    {"id": "note", "text": "Parking is on level B2."},
]


@pytest.fixture
def kb(tmp_path: Path, capsys: pytest.CaptureFixture[str], no_models: None) -> Path:
    corpus = tmp_path / "rules.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in RULES), encoding="utf-8")
    db = tmp_path / "kb.db"
    code, _, err = _run(capsys, "ingest", str(corpus), "--db", str(db))
    assert code == 0, err
    assert err == f"created a new store at {str(db)!r}\n"
    return db


@pytest.mark.parametrize("argv", [
    ["ask", "How long is the return window?"], ["review"], ["context", "GMV by region"],
    ["documents", "list"], ["documents", "show", "x"], ["documents", "delete", "x"],
    ["keys", "list"], ["reindex"]])
def test_a_reader_on_a_store_that_does_not_exist_says_so_and_makes_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    db = tmp_path / "typo.db"
    code, out, err = _run(capsys, *argv, "--db", str(db))
    assert (code, out) == (1, "")
    assert err == f"error: no store at {str(db)!r}; chronorag ingest creates one\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_a_server_on_a_store_that_does_not_exist_says_so_unless_told_to_create(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    db = tmp_path / "typo.db"
    code, out, err = _run(capsys, command, "--db", str(db))
    assert (code, out) == (1, "")
    assert err == (f"error: no store at {str(db)!r}; chronorag ingest creates one (or "
                   f"{command} --create starts with an empty one)\n")
    assert list(tmp_path.iterdir()) == []
    from chronorag.cli.options import store_to_serve
    from chronorag.cli.parser import build_parser

    store_to_serve(build_parser().parse_args([command, "--db", str(db), "--create"]))
    assert capsys.readouterr().err == f"creating a new store at {db}\n"


def test_a_rejected_first_ingest_leaves_no_store(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a"}\n', encoding="utf-8")
    db = tmp_path / "kb.db"
    code, _, err = _run(capsys, "ingest", str(bad), "--db", str(db))
    assert code == 2 and "bad.jsonl:1: text:" in err and "created" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl"]


def test_ingest_into_an_existing_store_says_nothing_of_making_one(
        kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "ingest", str(kb.parent / "rules.jsonl"), "--db", str(kb))
    assert (code, err) == (0, "")
    assert "3 unchanged" in out


def test_list(kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "documents", "list", "--db", str(kb), "--json")
    assert code == 0
    rows = {row["id"]: row for row in json.loads(out)}
    assert list(rows) == ["note", "returns-v1", "returns-v2"]
    source = str((kb.parent / "rules.jsonl").resolve())
    assert rows["returns-v1"] == {
        "id": "returns-v1", "title": "Returns (old)", "source": f"{source}:1",
        "valid_from": "2020-01-01T00:00:00+00:00", "valid_to": "2026-01-01T00:00:00+00:00",
        "status": "approved", "supersedes": [], "chunks": 1}
    assert rows["returns-v2"]["supersedes"] == ["returns-v1"]
    assert rows["returns-v2"]["chunks"] > 1
    with SQLiteStore(kb) as store:
        assert rows["returns-v2"]["chunks"] == len(store.chunk_ids_of(["returns-v2"]))
    code, text, _ = _run(capsys, "documents", "list", "--db", str(kb))
    assert text.splitlines()[0] == "3 document(s)"
    assert ("    approved; valid [2020-01-01T00:00:00+00:00, 2026-01-01T00:00:00+00:00); "
            "1 chunk(s)") in text.splitlines()
    assert "supersedes returns-v1" in text


def test_show(kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "documents", "show", "returns-v1", "--db", str(kb), "--json")
    assert code == 0
    shown = json.loads(out)
    assert (shown["id"], shown["text"], shown["status"]) == (
        "returns-v1", "Refunds within 30 days.", "approved")
    assert shown["valid_to"] == {"start": "2026-01-01T00:00:00+00:00",
                                 "end": "2026-01-02T00:00:00+00:00", "granularity": "day"}
    code, out, _ = _run(capsys, "documents", "show", "returns-v1", "--db", str(kb))
    assert out.startswith("id: returns-v1\ntitle: Returns (old)\n")
    assert out.endswith("\n\nRefunds within 30 days.\n")
    code, out, err = _run(capsys, "documents", "show", "nope", "--db", str(kb))
    assert (code, out) == (1, "") and "no document 'nope'" in err


def test_delete_removes_everything_derived(kb: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    with SQLiteStore(kb) as store:
        before = store.count()
        gone = len(store.chunk_ids_of(["returns-v2"]))
    code, out, _ = _run(capsys, "documents", "delete", "returns-v2", "--db", str(kb),
                        "--json")
    assert (code, json.loads(out)) == (0, {"deleted": ["returns-v2"]})
    with SQLiteStore(kb) as store:
        after = store.count()
        assert store.document_ids() == ["note", "returns-v1"]
        assert store.links() == []
        assert store.chunk_counts() == {"note": 1, "returns-v1": 1}
    assert after["chunks"] == before["chunks"] - gone
    assert after["vectors"] < before["vectors"] and after["sentences"] < before["sentences"]


def test_delete_with_a_missing_id_deletes_nothing(kb: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "documents", "delete", "note", "nope", "--db", str(kb))
    assert (code, out) == (1, "")
    assert err.startswith("error: no document 'nope' in the store; nothing was deleted")
    with SQLiteStore(kb) as store:
        assert store.document_ids() == ["note", "returns-v1", "returns-v2"]
    code, out, _ = _run(capsys, "documents", "delete", "note", "--db", str(kb))
    assert (code, out) == (0, "deleted 1 document(s): note\n")


def test_delete_of_a_linked_document_is_refused_unless_unlinked(
        kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "documents", "delete", "returns-v1", "--db", str(kb))
    assert (code, out) == (1, "")
    assert "returns-v2 names returns-v1" in err and "nothing was deleted" in err
    with SQLiteStore(kb) as store:
        assert store.document_ids() == ["note", "returns-v1", "returns-v2"]
    code, out, err = _run(capsys, "documents", "delete", "returns-v1", "--unlink",
                          "--db", str(kb), "--json")
    assert (code, json.loads(out)) == (0, {"deleted": ["returns-v1"]}), err
    with SQLiteStore(kb) as store:
        (v2,) = store.documents(["returns-v2"])
        assert v2.supersedes == () and store.links() == []
        assert store.document_ids() == ["note", "returns-v2"]


def test_deleting_a_document_with_its_successor_needs_no_unlink(
        kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "documents", "delete", "returns-v1", "returns-v2",
                        "--db", str(kb))
    assert code == 0, err
    with SQLiteStore(kb) as store:
        assert store.document_ids() == ["note"]


def test_ingest_root_and_replace(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch, no_models: None) -> None:
    for folder, text in (("privacy", "We keep data 30 days."), ("tos", "Cancel any time.")):
        (tmp_path / "kb" / folder).mkdir(parents=True)
        (tmp_path / "kb" / folder / "2018-05-25.md").write_text(text, encoding="utf-8")
    db = str(tmp_path / "kb.db")
    monkeypatch.chdir(tmp_path / "kb")
    assert _run(capsys, "ingest", "privacy/", "--db", db)[0] == 0
    assert _run(capsys, "ingest", "tos/", "--db", db)[0] == 0
    with SQLiteStore(db) as store:
        assert store.document_ids() == ["privacy/2018-05-25", "tos/2018-05-25"]
    # The same file from another root keeps its id.
    code, out, err = _run(capsys, "ingest", "tos/", "--db", db, "--root", "tos")
    assert (code, err) == (0, "") and "1 unchanged" in out
    # Another file that names a stored id replaces it only when asked to.
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"id": "tos/2018-05-25", "text": "New terms."}) + "\n",
                     encoding="utf-8")
    code, _, err = _run(capsys, "ingest", str(other), "--db", db)
    tos = (tmp_path / "kb" / "tos" / "2018-05-25.md").resolve()
    assert code == 2
    assert err.splitlines()[0] == (f"{other}:0: id: would replace 'tos/2018-05-25' read "
                                   f"from {tos}; pass --replace")
    code, out, _ = _run(capsys, "ingest", str(other), "--db", db, "--replace")
    assert code == 0 and "1 replaced" in out
    (tmp_path / "note.md").write_text("Outside.", encoding="utf-8")
    code, _, err = _run(capsys, "ingest", str(tmp_path / "note.md"), "--db", db)
    assert code == 2 and "note.md:0: path: is outside the root" in err
