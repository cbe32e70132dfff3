"""Reading input paths (.jsonl, .md, .txt, folders) into validated documents.

``load_paths`` validates everything before returning anything: a caller that stores the
result never sees half of a broken file.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, tzinfo
from pathlib import Path
from typing import Any

from chronorag.errors import FieldError, ValidationError
from chronorag.ingest.frontmatter import split_front_matter
from chronorag.ingest.validate import RawRecord, build_document, find_duplicate_ids
from chronorag.model import Document

__all__ = ["SUFFIXES", "SourceFile", "load_paths"]

log = logging.getLogger(__name__)

SUFFIXES = (".jsonl", ".md", ".txt")


@dataclass(frozen=True)
class SourceFile:
    """One input file and the documents read from it, in file order."""

    path: str
    documents: tuple[Document, ...]


@dataclass(frozen=True)
class _Input:
    """A file to read; ``default_id`` is the id a Markdown/text file gets without one."""

    path: Path
    shown: str
    default_id: str


def load_paths(paths: Sequence[str | Path], *, tz: tzinfo = UTC) -> list[SourceFile]:
    """Read and validate every document under ``paths``.

    Files are ``.jsonl`` (one JSON object a line), ``.md``/``.txt`` (optional YAML front
    matter, the body is the text) or folders of them, read recursively in sorted order.
    Naive dates are read in ``tz``. Raises ``ValidationError`` listing every problem of
    every file (``path:line: field: reason``); nothing is returned then.
    """
    errors: list[FieldError] = []
    inputs = _collect_inputs(paths, errors)
    files: list[SourceFile] = []
    placed: list[tuple[Document, str, int]] = []
    for item in inputs:
        records, file_errors = _read_file(item)
        errors.extend(file_errors)
        documents: list[Document] = []
        for record in records:
            document, record_errors = build_document(record, tz=tz)
            errors.extend(record_errors)
            if document is not None:
                documents.append(document)
                line = record.field_lines.get("id", record.line)
                placed.append((document, record.path, line))
        files.append(SourceFile(item.shown, tuple(documents)))
    errors.extend(find_duplicate_ids(placed))
    if errors:
        raise ValidationError(errors)
    log.debug("loaded %d documents from %d files", len(placed), len(files))
    return files


def _collect_inputs(paths: Sequence[str | Path], errors: list[FieldError]) -> list[_Input]:
    inputs: list[_Input] = []
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if not path.exists():
            errors.append(FieldError(str(given), 0, "path", "does not exist"))
            continue
        found = list(_walk_folder(path)) if path.is_dir() else [_single_file(path, errors)]
        if path.is_dir() and not found:
            errors.append(FieldError(str(given), 0, "path",
                                     "holds no .jsonl, .md or .txt files"))
        for item in found:
            # The same file named twice (a folder and a file inside it) is read once.
            if item is not None and item.path.resolve() not in seen:
                seen.add(item.path.resolve())
                inputs.append(item)
    return inputs


def _single_file(path: Path, errors: list[FieldError]) -> _Input | None:
    if path.suffix.lower() not in SUFFIXES:
        errors.append(FieldError(str(path), 0, "path",
                                 f"unsupported file type {path.suffix!r}; use "
                                 + ", ".join(SUFFIXES)))
        return None
    return _Input(path, str(path), path.stem)


def _walk_folder(folder: Path) -> Iterator[_Input]:
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        # Hidden files and anything inside hidden folders (.git, .venv) are not content.
        if any(part.startswith(".") for part in relative.parts):
            continue
        if path.is_file() and path.suffix.lower() in SUFFIXES:
            yield _Input(path, str(path), relative.with_suffix("").as_posix())


def _read_file(item: _Input) -> tuple[list[RawRecord], list[FieldError]]:
    text, error = _decode(item)
    if error is not None:
        return [], [error]
    if not text.strip():
        return [], [FieldError(item.shown, 0, "path", "no documents (the file is empty)")]
    if item.path.suffix.lower() == ".jsonl":
        return _read_jsonl(item, text)
    return _read_text_file(item, text)


def _decode(item: _Input) -> tuple[str, FieldError | None]:
    try:
        data = item.path.read_bytes()
    except OSError as exc:
        return "", FieldError(item.shown, 0, "path", f"cannot be read ({exc.strerror})")
    # A UTF-8 byte-order mark is legal UTF-8 but would break JSON on line 1.
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        reason = (f"byte 0x{data[exc.start]:02x} is not valid UTF-8; "
                  "save the file as UTF-8")
        return "", FieldError(item.shown, line, "encoding", reason)


def _read_jsonl(item: _Input, text: str) -> tuple[list[RawRecord], list[FieldError]]:
    records: list[RawRecord] = []
    errors: list[FieldError] = []
    # Split on "\n" only: str.splitlines would also split on U+2028, legal inside JSON.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value: Any = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(FieldError(item.shown, number, "json",
                                     f"not valid JSON ({exc.msg} at column {exc.colno})"))
            continue
        if not isinstance(value, dict):
            errors.append(FieldError(item.shown, number, "json",
                                     f"must be a JSON object, got {type(value).__name__}"))
            continue
        records.append(RawRecord(item.shown, number, value, f"{item.shown}:{number}"))
    if not records and not errors:
        errors.append(FieldError(item.shown, 0, "path", "no documents (the file is empty)"))
    return records, errors


def _read_text_file(item: _Input, text: str) -> tuple[list[RawRecord], list[FieldError]]:
    front = split_front_matter(text)
    if front.error is not None:
        return [], [FieldError(item.shown, front.error_line, "front matter", front.error)]
    errors: list[FieldError] = []
    fields = dict(front.fields)
    if "text" in fields:
        errors.append(FieldError(item.shown, front.field_lines.get("text", 1), "text",
                                 "the file body is the text; remove it from the front matter"))
    fields["text"] = front.body.strip()
    defaults = {"id": item.default_id, "title": _heading(front.body) or item.path.stem}
    # Problems with the body are reported where the body starts; a front-matter field
    # at the line of its key; anything else (a default id) at line 1.
    lines = {"text": front.body_line, **front.field_lines}
    record = RawRecord(item.shown, 1, fields, item.shown, field_lines=lines,
                       defaults=defaults)
    return [record], errors


def _heading(body: str) -> str | None:
    for line in body.split("\n"):
        if line.startswith("# "):
            return line[2:].strip() or None
    return None
