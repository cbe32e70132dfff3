"""Good inputs: JSON lines, Markdown with front matter, plain text, folders, dates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from chronorag.errors import ValidationError
from chronorag.ingest import Named, SourceFile, load_paths
from chronorag.model import Granularity, Interval, Status

DATA = Path(__file__).parent / "data"
KB = DATA / "kb"


def _by_id(files: list[SourceFile]) -> dict[str, object]:
    return {d.id: d for f in files for d in f.documents}


def test_folder_is_read_recursively_sorted_and_skips_hidden_and_other_files() -> None:
    files = load_paths([KB], root=KB)
    assert [Path(f.path).relative_to(KB).as_posix() for f in files] == [
        "facts.jsonl", "notes.txt", "policies/returns-v1.md", "policies/returns-v2.md"]
    assert [d.id for f in files for d in f.documents] == [
        "fact-1", "fact-2", "notes", "policies/returns-v1", "returns-v2"]


def test_jsonl_fields() -> None:
    path = KB / "facts.jsonl"
    [source] = load_paths([path])
    first, second = source.documents
    assert source.path == str(path)
    assert first.title == "Chancellor"
    assert first.source_type == "wiki"
    assert first.source == f"{path}:1"
    assert first.occurred_at == Interval(datetime(2021, 12, 8, tzinfo=UTC),
                                         datetime(2021, 12, 9, tzinfo=UTC), Granularity.DAY)
    assert second.source == f"{path}:3"
    assert second.status is Status.APPROVED
    assert second.valid_from == Interval(datetime(2005, 11, 1, tzinfo=UTC),
                                         datetime(2005, 12, 1, tzinfo=UTC), Granularity.MONTH)
    assert second.metadata == {"team": "politics"}
    assert second.title == ""
    assert second.ingested_at is None


def test_markdown_with_front_matter() -> None:
    path = KB / "policies" / "returns-v2.md"
    doc = load_paths([path])[0].documents[0]
    assert doc.id == "returns-v2"
    assert doc.title == "Return policy (v2)"
    assert doc.status is Status.APPROVED
    assert doc.supersedes == ("returns-v1",)
    assert doc.owner == "support"
    assert doc.source == str(path)
    # Read as Markdown: the heading is a line of its own, without its "#".
    assert doc.text.startswith("Return policy\n\nYou may return")
    assert doc.text.endswith("original payment method.")
    assert doc.valid_from is not None and doc.valid_from.granularity is Granularity.DAY


def test_markdown_defaults_id_from_file_and_title_from_heading() -> None:
    doc = load_paths([KB / "policies" / "returns-v1.md"], root=KB)[0].documents[0]
    assert doc.id == "policies/returns-v1"  # its path from the root, without suffix
    assert doc.title == "Returns (old)"
    assert doc.status is Status.RETIRED
    assert doc.valid_from is not None and doc.valid_from.granularity is Granularity.MINUTE


def test_text_file_without_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "diary.txt"
    path.write_text("  Line one.\n\nLine two.\n", encoding="utf-8")
    doc = load_paths([path], root=tmp_path)[0].documents[0]
    assert (doc.id, doc.title, doc.text, doc.metadata) == (
        "diary", "diary", "Line one.\n\nLine two.", {})


def test_chinese_text_file() -> None:
    files = load_paths([KB / "notes.txt"])
    assert files[0].documents[0].text == "今天我在公司吃了午饭。下午两点开会。"


def test_partial_dates_and_granularity(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(
        '{"id": "a", "text": "t", "valid_from": "2021", "valid_to": "2021-05-06T12:30",'
        ' "occurred_at": "2021-05-06T12:30:00Z", "published_at": "2021-05-06T12",'
        ' "modified_at": "2021-05-06T12:30:00+02:00"}\n', encoding="utf-8")
    doc = load_paths([path])[0].documents[0]
    assert doc.valid_from == Interval(datetime(2021, 1, 1, tzinfo=UTC),
                                      datetime(2022, 1, 1, tzinfo=UTC), Granularity.YEAR)
    assert doc.valid_to is not None and doc.valid_to.granularity is Granularity.MINUTE
    assert doc.valid_to.end == datetime(2021, 5, 6, 12, 31, tzinfo=UTC)
    assert doc.occurred_at == Interval(datetime(2021, 5, 6, 12, 30, tzinfo=UTC),
                                       datetime(2021, 5, 6, 12, 30, 1, tzinfo=UTC),
                                       Granularity.SECOND)
    assert doc.published_at is not None and doc.published_at.granularity is Granularity.HOUR
    plus_two = timezone(timedelta(hours=2))
    assert doc.modified_at is not None
    assert doc.modified_at.start == datetime(2021, 5, 6, 12, 30, tzinfo=plus_two)
    assert doc.modified_at.start == datetime(2021, 5, 6, 10, 30, tzinfo=UTC)


def test_naive_dates_are_read_in_the_given_time_zone(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text('{"id": "a", "text": "t", "occurred_at": "2021-05-06",'
                    ' "published_at": "2021-05-06T08:00:00Z"}\n', encoding="utf-8")
    shanghai = ZoneInfo("Asia/Shanghai")
    doc = load_paths([path], tz=shanghai)[0].documents[0]
    assert doc.occurred_at is not None
    assert doc.occurred_at.start == datetime(2021, 5, 6, tzinfo=shanghai)
    assert doc.occurred_at.start == datetime(2021, 5, 5, 16, tzinfo=UTC)
    assert doc.published_at is not None  # an explicit offset wins over tz
    assert doc.published_at.start == datetime(2021, 5, 6, 8, tzinfo=UTC)


def test_yaml_dates_and_numbers(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("---\nvalid_from: 2021\nvalid_to: 2022-03-04 10:00:00\n"
                    "occurred_at: null\nextra: {a: [1, 2]}\n---\nbody\n", encoding="utf-8")
    doc = load_paths([path], root=tmp_path)[0].documents[0]
    assert doc.valid_from is not None and doc.valid_from.granularity is Granularity.YEAR
    assert doc.valid_to is not None and doc.valid_to.granularity is Granularity.SECOND
    assert doc.occurred_at is None
    assert {k: v for k, v in doc.metadata.items() if k != "_layout"} == {"extra": {"a": [1, 2]}}


def test_same_file_given_twice_is_read_once() -> None:
    files = load_paths([KB, KB / "facts.jsonl"])
    assert len(files) == 4


def test_null_fields_are_absent_and_bom_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"id": "a", "text": "t", "status": null, "supersedes": null}\n')
    doc = load_paths([path])[0].documents[0]
    assert doc.status is None and doc.supersedes == ()


def test_a_named_file_is_known_by_its_name(tmp_path: Path) -> None:
    kept = tmp_path / "0.md"
    kept.write_text("# Parking\n\nStaff park on level B2.\n", encoding="utf-8")
    [file] = load_paths([Named(kept, "Parking.md")])
    assert file.path == "Parking.md"
    assert (file.documents[0].id, file.documents[0].source) == ("Parking", "Parking.md")
    bad = tmp_path / "1.jsonl"
    bad.write_text('{"id": "x", "text": "t", "valid_from": "nope"}\n', encoding="utf-8")
    with pytest.raises(ValidationError) as caught:
        load_paths([Named(bad, "sent.jsonl"), Named(kept, "notes.exe")])
    assert [(e.path, e.line, e.field) for e in caught.value.errors] == [
        ("notes.exe", 0, "path"), ("sent.jsonl", 1, "valid_from")]
