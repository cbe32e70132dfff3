"""Ids from paths and the sources documents record (``chronorag.ingest.ids``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.ingest.ids import IdRoot, file_ids, path_id, same_source, source_file


def test_path_ids_are_relative_to_the_root_without_suffix(tmp_path: Path) -> None:
    assert path_id(tmp_path / "privacy" / "2018-05-25.md", tmp_path) == "privacy/2018-05-25"
    assert path_id(tmp_path / "a" / ".." / "b.v2.txt", tmp_path) == "b.v2"
    assert path_id(tmp_path.parent / "x.md", tmp_path) is None
    assert path_id(tmp_path, tmp_path) is None


def test_a_link_into_the_root_counts_as_inside(tmp_path: Path) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "x.md").write_text("x", encoding="utf-8")
    (tmp_path / "link").symlink_to(tmp_path / "kb")
    assert path_id(tmp_path / "link" / "x.md", tmp_path / "kb") == "x"


def test_a_stored_file_keeps_its_stored_id(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "policies" / "returns.md"
    asked: list[str] = []

    def stored(sources: object) -> dict[str, str]:
        asked.extend(sources)  # type: ignore[call-overload]
        return {"policies/returns.md": "returns"}

    got = file_ids([(path, "policies/returns.md"), (tmp_path / "new.md", "new.md")],
                   IdRoot(None, stored))
    assert got == ["returns", "new"]
    assert str(path.resolve()) in asked and "policies/returns.md" in asked


def test_sources_of_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    here = str((tmp_path / "a.jsonl").resolve())
    assert source_file(f"{here}:12") == here
    assert same_source(f"{here}:1", f"{here}:7")
    assert same_source("a.jsonl:3", f"{here}:1")  # an older store's path as named
    assert same_source("", f"{here}:1")  # a source never recorded
    assert not same_source("/elsewhere/a.jsonl:1", f"{here}:1")
    assert not same_source(f"{here}:1", "upload.jsonl:1")
    assert same_source("upload.jsonl:1", "upload.jsonl:4")


@given(st.text())
def test_source_file_reads_any_text(text: str) -> None:
    got = source_file(text)
    assert text.startswith(got)
    assert source_file(got) == got or got.rpartition(":")[2].isdigit()
