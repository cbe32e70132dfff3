"""``ingest --git-history``: every version of a file from a real git repository made in
the test, dated by the effective date its text states, else by its commit."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronorag import cli
from chronorag.errors import ValidationError
from chronorag.ingest.git_history import file_versions, git_inputs
from chronorag.pipeline.ingest import Embedders, ingest_paths
from chronorag.rank.validity import ValidityIndex
from chronorag.store.sqlite import SQLiteStore

NOW = datetime(2026, 11, 30, tzinfo=UTC)
BODY = "Customers may return unused items within {days} days of delivery."


def _commit(repo: Path, files: dict[str, str], when: str, message: str = "edit") -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when,
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", message], check=True, env=env)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "policies"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    returns = "policies/returns.md"
    first = f"# Returns\n\nEffective date: 1 March 2022\n\n{BODY.format(days=30)}\n"
    _commit(repo, {returns: first,
                   "policies/faq.txt": "Parking is on level B2.\n"}, "2022-02-20T10:00:00+00:00")
    # A typo fixed: the same stated date, the same version.
    _commit(repo, {returns: f"# Returns\n\nEffective date: 1 March 2022\n\n{BODY.format(days=30)} "
                            "Gift cards excluded.\n"}, "2022-04-02T10:00:00+00:00")
    _commit(repo, {returns: f"# Returns\n\nEffective date: 1 May 2024\n\n{BODY.format(days=14)}\n"},
            "2024-04-20T10:00:00+00:00")
    # No date stated: the commit's time dates it.
    _commit(repo, {"policies/faq.txt": "Parking is on level B3.\n"}, "2025-01-05T08:00:00+00:00")
    return repo


def test_versions_keep_the_last_edit_of_each_stated_date(repo: Path) -> None:
    versions = file_versions(repo, "policies/returns.md", tz=UTC)
    assert [v.stated for v in versions] == ["2022-03-01", "2024-05-01"]
    assert b"Gift cards excluded." in versions[0].data
    faq = file_versions(repo, "policies/faq.txt", tz=UTC)
    assert [v.valid_from for v in faq] == ["2022-02-20T10:00:00+00:00",
                                           "2025-01-05T08:00:00+00:00"]


def test_every_version_is_stored_linked_and_valid_in_turn(repo: Path, tmp_path: Path,
                                                          hash_embedder) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        with git_inputs([repo / "policies"], root=repo, tz=UTC) as inputs:
            report = ingest_paths(store, inputs, embedders=Embedders([hash_embedder]),
                                  now=NOW, tz=UTC, root=repo, dates_from_text=True)
        assert sorted(report.added) == ["policies/faq", "policies/faq@2022-02-20",
                                        "policies/returns", "policies/returns@2022-03-01"]
        new, old = store.documents(["policies/returns", "policies/returns@2022-03-01"])
        assert new.supersedes == ("policies/returns@2022-03-01",)
        assert "14 days" in new.text and "30 days" in old.text
        assert old.valid_from.start == datetime(2022, 3, 1, tzinfo=UTC)
        assert new.metadata["git"]["valid_from"] == "text"
        assert new.metadata["_from_text"]["valid_from"]["sentence"] == \
            "Effective date: 1 May 2024"
        (faq_old,) = store.documents(["policies/faq@2022-02-20"])
        assert faq_old.valid_from.start == datetime(2022, 2, 20, 10, tzinfo=UTC)
        assert new.source.endswith(":policies/returns.md")
        index = ValidityIndex.build(store.documents())
        assert index.judge("policies/returns@2022-03-01",
                           as_of=datetime(2023, 1, 1, tzinfo=UTC)).applicable
        assert not index.judge("policies/returns@2022-03-01", as_of=NOW).applicable
        assert index.judge("policies/returns", as_of=NOW).applicable
        with git_inputs([repo / "policies"], root=repo, tz=UTC) as inputs:
            again = ingest_paths(store, inputs, embedders=Embedders([hash_embedder]),
                                 now=NOW, tz=UTC, root=repo, dates_from_text=True)
        assert again.added == () and len(again.unchanged) == 4


def test_a_folder_outside_a_work_tree_is_an_error_naming_it(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(ValidationError) as info, \
            git_inputs([plain], root=tmp_path, tz=UTC):
        pass
    (error,) = info.value.errors
    assert error.path == str(plain) and error.field == "--git-history"
    assert "git work tree" in error.reason


def test_a_path_that_does_not_exist_is_an_error(repo: Path) -> None:
    with pytest.raises(ValidationError) as info, \
            git_inputs([repo / "policies" / "gone.md"], root=repo, tz=UTC):
        pass
    assert info.value.errors[0].reason == "does not exist"


def test_a_folder_with_no_committed_file_is_an_error(repo: Path) -> None:
    (repo / "drafts").mkdir()
    (repo / "drafts" / "new.md").write_text("Not committed yet.\n", encoding="utf-8")
    with pytest.raises(ValidationError) as info, \
            git_inputs([repo / "drafts"], root=repo, tz=UTC):
        pass
    assert "no committed file" in info.value.errors[0].reason


def test_cli_ingest_git_history(repo: Path, tmp_path: Path, test_embedders, capsys) -> None:
    import sys
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from hash_embedder_cli import prepare_store

    db = tmp_path / "kb.db"
    prepare_store(db)
    assert cli.main(["ingest", str(repo), "--git-history", "--root", str(repo), "--db",
                     str(db), "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["added"] == 4
    with SQLiteStore(db) as store:
        assert store.document_ids() == ["policies/faq", "policies/faq@2022-02-20",
                                        "policies/returns", "policies/returns@2022-03-01"]


@settings(deadline=None, max_examples=15,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=80),
                      min_size=1, max_size=3))
def test_any_committed_text_is_survived(tmp_path_factory: pytest.TempPathFactory,
                                        texts: list[str]) -> None:
    repo = tmp_path_factory.mktemp("fuzz")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for number, text in enumerate(texts):
        _commit(repo, {"doc.md": text + f"\n{number}"}, f"2024-01-0{number + 1}T00:00:00Z")
    versions = file_versions(repo, "doc.md", tz=UTC)
    assert 1 <= len(versions) <= len(texts)
