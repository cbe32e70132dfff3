"""One test per bad input: each asserts the exact ``path:line: field: reason`` line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronorag.errors import ValidationError
from chronorag.ingest import load_paths


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _errors(*paths: Path | str) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        load_paths(list(paths), root="/")  # ids from paths are not what these test
    lines = [str(e) for e in caught.value.errors]
    assert str(caught.value) == "\n".join(lines)
    assert caught.value.exit_code == 2
    return lines


GOOD = '{"id": "ok", "text": "fine"}\n'


def test_line_that_is_not_json(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", GOOD + '{"id": "b", "text": \n')
    assert _errors(path) == [
        f"{path}:2: json: not valid JSON (Expecting value at column 21)"]


def test_json_value_that_is_not_an_object(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", GOOD + "[1, 2]\n")
    assert _errors(path) == [f"{path}:2: json: must be a JSON object, got list"]


def test_impossible_date(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", '{"id": "a", "text": "t", "valid_from": "2026-13-45"}\n')
    assert _errors(path) == [
        f"{path}:1: valid_from: '2026-13-45' is not a valid ISO 8601 date"]


def test_date_in_wrong_shape(tmp_path: Path) -> None:
    # "May 2021" is read (chronorag.ingest.written_dates); a day and month in digits is not.
    path = _write(tmp_path, "a.jsonl", '{"id": "a", "text": "t", "occurred_at": "05/06/2021"}\n')
    assert _errors(path) == [
        f"{path}:1: occurred_at: '05/06/2021' is ambiguous: the day and month could be "
        'either way round; write it as ISO 8601 ("2024-02-01") or in words '
        '("February 1, 2024", 2024年2月1日)']


def test_valid_to_before_valid_from(tmp_path: Path) -> None:
    path = _write(tmp_path, "docs/a.jsonl", GOOD + GOOD.replace("ok", "ok2") +
                  '{"id": "a", "text": "t", "valid_from": "2021-05-01", "valid_to": "2020"}\n')
    assert _errors(path) == [f"{path}:3: valid_to: is before valid_from (2021-05-01)"]


def test_valid_to_equal_to_valid_from(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl",
                  '{"id": "a", "text": "t", "valid_from": "2021", "valid_to": "2021-01"}\n')
    assert _errors(path) == [
        f"{path}:1: valid_to: is the same as valid_from (2021); it must be later"]


@pytest.mark.parametrize("text", ['""', '"  \\n "'])
def test_empty_text(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, "a.jsonl", f'{{"id": "a", "text": {text}}}\n')
    assert _errors(path) == [f"{path}:1: text: is empty"]


def test_missing_id_and_text(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", '{"title": "t"}\n')
    assert _errors(path) == [f"{path}:1: id: is required", f"{path}:1: text: is required"]


def test_empty_markdown_body(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md", "---\ntitle: x\n---\n\n")
    assert _errors(path) == [f"{path}:4: text: is empty"]


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", GOOD + "\n" + GOOD)
    assert _errors(path) == [f"{path}:3: id: duplicate id 'ok'; first used at {path}:1"]


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    first = _write(tmp_path, "a.jsonl", GOOD)
    second = _write(tmp_path, "b.md", "---\nid: ok\n---\nbody\n")
    assert _errors(first, second) == [
        f"{second}:2: id: duplicate id 'ok'; first used at {first}:1"]


def test_non_utf8_bytes(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", GOOD.encode() + b'{"id": "b", "text": "caf\xe9"}\n')
    assert _errors(path) == [
        f"{path}:2: encoding: byte 0xe9 is not valid UTF-8; save the file as UTF-8"]


def test_unknown_status(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", '{"id": "a", "text": "t", "status": "published"}\n')
    assert _errors(path) == [
        f"{path}:1: status: 'published' is not one of approved, draft, retired "
        "(or leave it out)"]


def test_supersedes_not_a_list(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", '{"id": "a", "text": "t", "supersedes": "old"}\n')
    assert _errors(path) == [
        f"{path}:1: supersedes: must be a list of document ids, got a string"]


def test_derived_from_lists_itself(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", '{"id": "a", "text": "t", "derived_from": ["a", 3]}\n')
    assert _errors(path) == [
        f"{path}:1: derived_from: lists the document itself ('a')",
        f"{path}:1: derived_from: item 2 must be a non-empty document id string"]


def test_ingested_at_given(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", '{"id": "a", "text": "t", "ingested_at": "2021"}\n')
    assert _errors(path) == [f"{path}:1: ingested_at: is set by the system; remove it"]


def test_non_string_fields(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl",
                  '{"id": 7, "text": "t", "title": ["x"], "owner": true, "subject": 1.5}\n')
    assert _errors(path) == [
        f"{path}:1: id: must be a string, got a number",
        f"{path}:1: title: must be a string, got a list",
        f"{path}:1: subject: must be a string, got a number",
        f"{path}:1: owner: must be a string, got a boolean"]


def test_path_that_does_not_exist_and_unsupported_suffix(tmp_path: Path) -> None:
    other = _write(tmp_path, "a.csv", "x,y\n")
    missing = tmp_path / "nope.jsonl"
    assert _errors(missing, other) == [
        f"{missing}:0: path: does not exist",
        f"{other}:0: path: unsupported file type '.csv'; use .jsonl, .md, .markdown, "
        ".txt, .html, .htm, .pdf, .docx"]


def test_empty_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", "\n  \n")
    assert _errors(path) == [f"{path}:0: path: no documents (the file is empty)"]


def test_folder_without_documents(tmp_path: Path) -> None:
    _write(tmp_path, "x/readme.rst", "nothing")
    assert _errors(tmp_path / "x") == [
        f"{tmp_path / 'x'}:0: path: holds no .jsonl, .md, .markdown, .txt, .html, .htm, .pdf "
        "or .docx files"]


def test_invalid_front_matter_reports_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md", "---\ntitle: ok\nstatus: [draft\n---\nbody\n")
    [line] = _errors(path)
    assert line.startswith(f"{path}:3: front matter: is not valid YAML (")


def test_unclosed_front_matter(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md", "---\ntitle: ok\nbody\n")
    assert _errors(path) == [
        f"{path}:1: front matter: starts with '---' on line 1 but has no closing '---' line"]


def test_front_matter_errors_name_the_field_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md",
                  "---\ntitle: t\nvalid_from: 2026-13-45\n\nstatus: final\n---\nbody\n")
    assert _errors(path) == [
        f"{path}:5: status: 'final' is not one of approved, draft, retired (or leave it out)",
        f"{path}:3: valid_from: '2026-13-45' is not a valid ISO 8601 date"]


def test_text_in_front_matter(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md", "---\ntext: hi\n---\nbody\n")
    assert _errors(path) == [
        f"{path}:2: text: the file body is the text; remove it from the front matter"]


def test_metadata_must_be_json(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md", "---\ntags: !!set {a, b}\n---\nbody\n")
    assert _errors(path) == [
        f"{path}:2: tags: must hold JSON values (string, number, bool, list, object)"]


def test_all_errors_of_all_files_are_collected(tmp_path: Path) -> None:
    first = _write(tmp_path, "a.jsonl", 'nope\n{"id": "a", "text": ""}\n')
    second = _write(tmp_path, "b.jsonl", '{"id": "b", "text": "t", "status": "x"}\n')
    lines = _errors(first, second)
    assert [line.split(": ")[0] for line in lines] == [
        f"{first}:1", f"{first}:2", f"{second}:1"]


def test_problems_keep_the_field_order_with_the_date_range_after_every_date(
        tmp_path: Path) -> None:
    path = _write(tmp_path, "a.jsonl", json.dumps({
        "ingested_at": "2021", "tags": float("nan"), "id": "a", "text": "t",
        "valid_from": "2021-05-01", "valid_to": "2020", "occurred_at": "soon",
        "supersedes": ["a"], "metadata": []}) + "\n")
    assert [line.removeprefix(f"{path}:1: ") for line in _errors(path)] == [
        "occurred_at: 'soon' is not a date chronorag can read; write it as ISO 8601 "
        '("2024-02-01") or in words ("February 1, 2024", 2024年2月1日)',
        "valid_to: is before valid_from (2021-05-01)",
        "supersedes: lists the document itself ('a')",
        "metadata: must be an object, got a list",
        "tags: must hold JSON values (string, number, bool, list, object)",
        "ingested_at: is set by the system; remove it"]


def test_unknown_fields_are_metadata_over_an_explicit_metadata_object(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md", "---\nmetadata: {a: 1, b: 2}\nb: 3\nc: null\n---\nbody\n")
    [source] = load_paths([path], root=tmp_path)
    # "_layout" is what the Markdown reader found, added after the user's fields.
    assert list(source.documents[0].metadata) == ["a", "b", "_layout"]
    assert {k: source.documents[0].metadata[k] for k in "ab"} == {"a": 1, "b": 3}
