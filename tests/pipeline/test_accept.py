"""``review --accept-versions``: the version chains the review proposes, written as
``supersedes`` links, only where each version's own dates give the order."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

import pytest

from chronorag import cli, render
from chronorag.errors import ConfigError
from chronorag.pipeline.accept import BY_VERSIONS, accept_versions
from chronorag.pipeline.ingest import Embedders, ingest_paths
from chronorag.rank.validity import ValidityIndex
from chronorag.review import review
from chronorag.store.sqlite import SQLiteStore

NOW = datetime(2026, 11, 30, tzinfo=UTC)
CORPUS = Path(__file__).parents[1] / "ingest" / "data" / "versions"
TRUTH = json.loads((CORPUS / "truth.json").read_text(encoding="utf-8"))
TEXT = ("Customers may return unused items within thirty days of delivery for a full "
        "refund of the price paid, shipping excluded, at any of our stores or by post.")


def _ingest(store: SQLiteStore, folder: Path, embedder, **options):
    return ingest_paths(store, [folder], embedders=Embedders([embedder]), now=NOW, tz=UTC,
                        root=folder, **options)


def _accept(store: SQLiteStore, embedder, ids=None):
    return accept_versions(store, ids, embedders=Embedders([embedder]), now=NOW, tz=UTC)


def _policy(folder: Path, name: str, *, front: str = "", extra: str = "") -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(f"---\ntitle: Return Policy\n{front}---\n{TEXT} {extra}\n",
                               encoding="utf-8")


def test_every_true_chain_is_linked_in_date_order_and_review_then_proposes_none(
        tmp_path: Path, hash_embedder) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, CORPUS, hash_embedder, dates_from_text=True)
        linked = _accept(store, hash_embedder)
        expected = {newer: [older] for chain in TRUTH["chains"]
                    for older, newer in pairwise(chain)}
        got = {doc: [o for o in olders] for doc, olders in linked.links.items()}
        # A link the text itself states ("replaces the Privacy Statement of May 2018")
        # was adopted at ingest: it is not written twice.
        for doc, olders in expected.items():
            (stored,) = store.documents([doc])
            assert olders[0] in stored.supersedes
            assert got.get(doc, olders) == olders
        assert set(linked.report.replaced) == set(got)
        assert review(store, as_of=NOW).versions == ()
        index = ValidityIndex.build(store.documents())
        for chain in TRUTH["chains"]:
            assert index.judge(chain[-1], as_of=NOW).applicable
            assert not any(index.judge(old, as_of=NOW).applicable for old in chain[:-1])
        again = _accept(store, hash_embedder)
        assert again.links == {} and again.report.replaced == ()


def test_a_link_is_recorded_as_made_by_the_review(tmp_path: Path, hash_embedder) -> None:
    kb = tmp_path / "kb"
    _policy(kb, "returns-2022.md", front="valid_from: 2022-03-01\n")
    _policy(kb, "returns.md", front="valid_from: 2024-05-01\n", extra="Gift cards too.")
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, kb, hash_embedder)
        assert _accept(store, hash_embedder).links == {"returns": ["returns-2022"]}
        (new,) = store.documents(["returns"])
        assert new.supersedes == ("returns-2022",)
        assert new.metadata["_from_text"]["supersedes"]["by"] == BY_VERSIONS


@pytest.mark.parametrize(("old", "new", "why"), [
    ("", "valid_from: 2024-05-01\n", "no date of its own"),
    ("valid_from: 2024-05-01\n", "valid_from: 2024-05-01\n", "the same date"),
])
def test_a_chain_whose_order_is_not_known_is_left_with_why(
        tmp_path: Path, hash_embedder, old: str, new: str, why: str) -> None:
    kb = tmp_path / "kb"
    _policy(kb, "returns-2022.md", front=old)
    _policy(kb, "returns.md", front=new, extra="Gift cards too.")
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, kb, hash_embedder)
        linked = _accept(store, hash_embedder)
        assert linked.links == {} and linked.report.replaced == ()
        (skipped,) = linked.skipped
        assert why in skipped["why"] and set(skipped["doc_ids"]) == {"returns", "returns-2022"}
        assert all(d.supersedes == () for d in store.documents())


def test_a_version_dated_by_its_last_edit_applies_from_it(tmp_path: Path,
                                                          hash_embedder) -> None:
    # "Last updated: May 1, 2024" dates the wording stored: from then on it applies and
    # displaces the version before it; before then that version still answers.
    kb = tmp_path / "kb"
    _policy(kb, "returns-2022.md", front="valid_from: 2022-03-01\n")
    _policy(kb, "returns.md", extra="Gift cards too.\n\nLast updated: May 1, 2024")
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, kb, hash_embedder, dates_from_text=True)
        (new,) = store.documents(["returns"])
        assert new.valid_from is None and new.modified_at is not None
        linked = _accept(store, hash_embedder)
        assert linked.links == {"returns": ["returns-2022"]}
        assert linked.dated == {"returns": "2024-05-01"}
        assert linked.to_json()["valid_from_last_edit"] == {"returns": "2024-05-01"}
        assert ("returns supersedes returns-2022 (valid from its last edit, 2024-05-01)"
                in render.linked_versions(linked))
        (new,) = store.documents(["returns"])
        assert new.valid_from is not None
        assert new.valid_from.start == datetime(2024, 5, 1, tzinfo=UTC)
        record = new.metadata["_from_text"]["valid_from"]
        assert record["by"] == BY_VERSIONS and record["from"] == "modified_at"
        assert "Last updated: May 1, 2024" in record["sentence"]
        index = ValidityIndex.build(store.documents())
        before = datetime(2023, 6, 1, tzinfo=UTC)
        assert index.judge("returns-2022", as_of=before).applicable
        assert not index.judge("returns", as_of=before).applicable
        assert index.judge("returns", as_of=NOW).applicable
        assert not index.judge("returns-2022", as_of=NOW).applicable
        # An edited file ingested again keeps what the review accepted.
        _policy(kb, "returns.md", extra="Gift cards too. Vouchers too.\n\n"
                                        "Last updated: May 1, 2024")
        assert _ingest(store, kb, hash_embedder, dates_from_text=True).replaced
        (new,) = store.documents(["returns"])
        assert new.valid_from is not None and new.supersedes == ("returns-2022",)
        assert new.valid_from.start == datetime(2024, 5, 1, tzinfo=UTC)


def test_a_version_stating_its_own_links_is_never_changed(tmp_path: Path,
                                                           hash_embedder) -> None:
    kb = tmp_path / "kb"
    _policy(kb, "returns-2020.md", front="valid_from: 2020-03-01\n")
    _policy(kb, "returns-2022.md", front="valid_from: 2022-03-01\n", extra="Also online.")
    _policy(kb, "returns.md", extra="Gift cards too.",
            front="valid_from: 2024-05-01\nsupersedes: [returns-2020]\n")
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, kb, hash_embedder)
        linked = _accept(store, hash_embedder)
        assert linked.links == {} and "states its own supersedes" in linked.skipped[0]["why"]
        (new,) = store.documents(["returns"])
        assert new.supersedes == ("returns-2020",)


def test_ids_choose_chains_and_an_unknown_id_changes_nothing(tmp_path: Path,
                                                             hash_embedder) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, CORPUS, hash_embedder, dates_from_text=True)
        with pytest.raises(ConfigError, match="nowhere"):
            _accept(store, hash_embedder, ["security/security-policy", "nowhere"])
        assert store.documents(["security/security-policy"])[0].supersedes == ()
        linked = _accept(store, hash_embedder, ["security/security-policy-2019"])
        assert linked.links == {"security/security-policy": ["security/security-policy-2019"]}


def test_cli_accepts_dates_then_versions(tmp_path: Path, test_embedders, capsys) -> None:
    import sys
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from hash_embedder_cli import prepare_store

    db = tmp_path / "kb.db"
    prepare_store(db)
    kb = tmp_path / "kb"
    _policy(kb, "returns-2022.md", extra="\n\nEffective date: 1 March 2022")
    _policy(kb, "returns.md", extra="Gift cards too.\n\nEffective date: 1 May 2024")
    assert cli.main(["ingest", str(kb), "--root", str(kb), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["review", "--db", str(db), "--accept-versions"]) == 0
    assert "not linked: " in capsys.readouterr().out  # no dates of their own yet
    assert cli.main(["review", "--db", str(db), "--accept-dates", "--accept-versions",
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"dates", "versions"}
    assert out["versions"]["linked"] == {"returns": ["returns-2022"]}
    assert cli.main(["review", "--db", str(db), "--accept-versions", "missing"]) == 1
    assert "missing" in capsys.readouterr().err


def test_ingesting_the_folder_again_keeps_the_accepted_links(tmp_path: Path,
                                                             hash_embedder) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, CORPUS, hash_embedder, dates_from_text=True)
        linked = _accept(store, hash_embedder)
        assert linked.links
        before = {d.id: d.content_hash() for d in store.documents()}
        again = _ingest(store, CORPUS, hash_embedder, dates_from_text=True)
        # Nothing in the files changed: nothing is replaced and no accepted link is lost.
        assert again.replaced == () and len(again.unchanged) == len(before)
        assert {d.id: d.content_hash() for d in store.documents()} == before
        for newer, olders in linked.links.items():
            (stored,) = store.documents([newer])
            assert set(olders) <= set(stored.supersedes)


def test_an_accepted_date_stays_until_the_file_states_its_own(tmp_path: Path,
                                                              hash_embedder) -> None:
    from dataclasses import replace

    from chronorag.ingest.adopt import BY_REVIEW, keep_accepted
    from chronorag.ingest.dates import parse_date
    from chronorag.ingest.stated import FROM_TEXT
    from chronorag.model import Document

    day = parse_date("2024-02-01", tz=UTC)
    stored = Document(id="p", text="x", valid_from=day, supersedes=("old",),
                      metadata={FROM_TEXT: {
                          "valid_from": {"value": "February 1, 2024", "by": BY_REVIEW},
                          "supersedes": {"value": ["old"], "by": BY_VERSIONS}}})
    fresh = Document(id="p", text="x")
    kept = keep_accepted(fresh, stored)
    assert (kept.valid_from, kept.supersedes) == (day, ("old",))
    assert kept.content_hash() == stored.content_hash()
    # The file now states a date of its own: the file's date stands.
    own = parse_date("2024-03-01", tz=UTC)
    assert keep_accepted(replace(fresh, valid_from=own), stored).valid_from == own
    # What ingest itself filled, or nothing a review accepted, is left alone.
    by_ingest = replace(stored, metadata={FROM_TEXT: {
        "valid_from": {"value": "February 1, 2024", "by": "ingest --dates-from-text"}}})
    assert keep_accepted(fresh, by_ingest) == fresh
