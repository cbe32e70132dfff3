"""Reading input paths (.jsonl, .md, .txt, .html, .pdf, .docx, folders) into validated
documents.

A ``.jsonl`` file holds one document a line, unless it is named ``*.chat.jsonl``: then it
is a conversation transcript, one turn a line (``chronorag.ingest.conversation``). A
Markdown, HTML, PDF or DOCX file is one document whose text its format reader writes
without markup (``chronorag.ingest.formats``); its layout goes into the metadata.

``check_paths`` validates everything first, keeping only counts and ids, so a file of any
size is checked in bounded memory; ``read_documents`` then streams a checked file's
documents. A caller that stores the stream never sees half of a broken file.
``load_paths`` does both into memory, for small inputs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, tzinfo
from os import PathLike
from pathlib import Path, PurePosixPath
from typing import Any

from chronorag.errors import FieldError, ValidationError
from chronorag.ingest.conversation import conversation_documents, is_conversation
from chronorag.ingest.formats import Extracted, FormatError, Reader, reader_for
from chronorag.ingest.frontmatter import split_front_matter
from chronorag.ingest.ids import IdRoot, file_ids
from chronorag.ingest.links import Link, links_of
from chronorag.ingest.validate import DateReading, RawRecord, build_document
from chronorag.model import Document

__all__ = ["SUFFIXES", "CheckedFile", "IdRoot", "SourceFile", "check_paths", "load_paths",
           "read_documents"]

log = logging.getLogger(__name__)

SUFFIXES = (".jsonl", ".md", ".markdown", ".txt", ".html", ".htm", ".pdf", ".docx")
# Read as text with optional front matter, the body through the file's reader if any.
_FRONT_MATTER = (".md", ".markdown", ".txt")
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class SourceFile:
    """One input file and the documents read from it, in file order (a transcript's turns
    in the order they complete: see ``chronorag.ingest.conversation``)."""

    path: str
    documents: tuple[Document, ...]


@dataclass(frozen=True)
class _Input:
    """A file to read; ``default_id`` is the id a Markdown/text file gets without one,
    ``source`` what its documents record as where they were read from."""

    path: Path
    shown: str
    default_id: str
    source: str = ""
    defaults: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Named:
    """A file read from ``path`` but known by ``name``: in problems, as the documents'
    ``source``, and for a Markdown file's default id (an upload kept in a temporary file
    is still the file its sender named)."""

    path: Path
    name: str
    # Fields its documents get when they state none of their own (the versions of a
    # git history: id, valid_from, supersedes, metadata).
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def __fspath__(self) -> str:
        return str(self.path)


@dataclass(frozen=True)
class CheckedFile:
    """An input file whose every document passed validation; read it with
    ``read_documents``. Only the count is kept, so checking a huge file costs no memory;
    and what the report and the link check need: how date fields written in words were
    read (``readings``) and the links naming ids outside the ingest (``links``)."""

    path: str
    documents: int
    source: _Input
    readings: tuple[DateReading, ...] = ()
    links: tuple[Link, ...] = ()


# A file that is not documents at all (a binary renamed .jsonl) would otherwise list one
# problem per line; after this many the rest of that file is not read.
MAX_ERRORS_PER_FILE = 100


def check_paths(paths: Sequence[str | PathLike[str]], *, tz: tzinfo = UTC,
                root: str | PathLike[str] | IdRoot | None = None,
                seen: Callable[[Document, str, int], None] | None = None
                ) -> list[CheckedFile]:
    """Validate every document under ``paths`` without keeping any of them.

    Files are ``.jsonl`` (one JSON object a line, read line by line; ``*.chat.jsonl``:
    one conversation turn a line), ``.md``/``.txt`` (optional YAML front matter, the body
    is the text) or folders of them, read recursively in sorted order. Naive dates are
    read in ``tz``. A file without ids of its own is known by its path relative to
    ``root`` (default: the current directory; an ``IdRoot`` also finds the id a file is
    already stored under, see ``chronorag.ingest.ids``); a ``Named`` file by its name.
    ``seen`` receives each valid document with its file and line. Raises
    ``ValidationError`` listing every problem of every file (``path:line: field: reason``).
    """
    errors: list[FieldError] = []
    inputs = _collect_inputs(paths, errors, root if isinstance(root, IdRoot) else IdRoot(root))
    first: dict[str, tuple[str, int]] = {}
    checked: list[CheckedFile] = []
    for item in inputs:
        count = 0
        readings: list[DateReading] = []
        links: list[Link] = []
        for document, line, problems in _documents(item, tz=tz, readings=readings):
            errors.extend(problems)
            if document is None:
                continue
            count += 1
            links += links_of(document, path=item.shown, line=line, file=str(item.path))
            if seen is not None:
                seen(document, item.shown, line)
            if document.id in first:
                where = "{}:{}".format(*first[document.id])
                errors.append(FieldError(item.shown, line, "id",
                                         f"duplicate id {document.id!r}; first used at {where}"))
            else:
                first[document.id] = (item.shown, line)
        checked.append(CheckedFile(item.shown, count, item, tuple(readings), tuple(links)))
    if errors:
        raise ValidationError(errors)
    checked = [replace(f, links=tuple(k for k in f.links if k.target not in first))
               for f in checked]
    log.debug("checked %d documents in %d files", len(first), len(checked))
    return checked


def read_documents(checked: CheckedFile, *, tz: tzinfo = UTC) -> Iterator[Document]:
    """The documents of a checked file, streamed in file order.

    Raises ``ValidationError`` if the file no longer validates (it changed since it was
    checked); documents already yielded are not taken back.
    """
    for document, _, problems in _documents(checked.source, tz=tz):
        if problems:
            raise ValidationError([*problems, FieldError(
                checked.path, 0, "path", "the file changed while it was being ingested; "
                "ingest it again")])
        if document is not None:
            yield document


def load_paths(paths: Sequence[str | PathLike[str]], *, tz: tzinfo = UTC,
               root: str | PathLike[str] | IdRoot | None = None) -> list[SourceFile]:
    """Read and validate every document under ``paths`` into memory (see ``check_paths``).

    Nothing is returned when any document is invalid: ``ValidationError`` lists them all.
    """
    return [SourceFile(f.path, tuple(read_documents(f, tz=tz)))
            for f in check_paths(paths, tz=tz, root=root)]


def _documents(item: _Input, *, tz: tzinfo, readings: list[DateReading] | None = None
               ) -> Iterator[tuple[Document | None, int, list[FieldError]]]:
    """Each record of ``item`` validated: the document (None when invalid), the line of its
    id, and its problems; a problem outside any record comes with no document."""
    if is_conversation(item.shown) and item.path.suffix.lower() == ".jsonl":
        yield from conversation_documents(_capped(item, _jsonl_records(item)), tz=tz)
        return
    for record in _records(item):
        if isinstance(record, FieldError):
            yield None, record.line, [record]
            continue
        document, problems = build_document(record, tz=tz, readings=readings)
        yield document, record.field_lines.get("id", record.line), problems


def _collect_inputs(paths: Sequence[str | PathLike[str]], errors: list[FieldError],
                    ids: IdRoot) -> list[_Input]:
    inputs: list[_Input] = []
    seen: set[Path] = set()
    for given in paths:
        if isinstance(given, Named):
            named = _single_file(given.path, errors, name=given.name, defaults=given.defaults)
            if named is not None:
                inputs.append(named)
            continue
        path = Path(given)
        if not path.exists():
            errors.append(FieldError(str(given), 0, "path", "does not exist"))
            continue
        found = list(_walk_folder(path)) if path.is_dir() else [_single_file(path, errors)]
        if path.is_dir() and not found:
            errors.append(FieldError(str(given), 0, "path",
                                     f"holds no {', '.join(SUFFIXES[:-1])} or {SUFFIXES[-1]} "
                                     "files"))
        for item in found:
            # The same file named twice (a folder and a file inside it) is read once.
            if item is not None and item.path.resolve() not in seen:
                seen.add(item.path.resolve())
                inputs.append(item)
    return _with_path_ids(inputs, errors, ids)


def _with_path_ids(inputs: list[_Input], errors: list[FieldError], ids: IdRoot
                   ) -> list[_Input]:
    """Files read from disk with their ids from their paths (``chronorag.ingest.ids``)
    and the file as their source; a ``Named`` upload keeps its name for both."""
    on_disk = [i for i, item in enumerate(inputs) if not item.source]
    made = iter(file_ids([(inputs[i].path, inputs[i].shown) for i in on_disk
                          if inputs[i].path.suffix.lower() != ".jsonl"], ids))
    out = list(inputs)
    for i in on_disk:
        item = inputs[i]
        default_id = item.default_id
        if item.path.suffix.lower() != ".jsonl":
            found = next(made)
            if isinstance(found, FieldError):
                errors.append(found)
                continue
            default_id = found
        out[i] = _Input(item.path, item.shown, default_id, str(item.path.resolve()))
    return [item for item in out if item.source]


def _single_file(path: Path, errors: list[FieldError], *, name: str | None = None,
                 defaults: Mapping[str, Any] | None = None) -> _Input | None:
    shown = str(path) if name is None else name
    suffix = PurePosixPath(shown).suffix
    if suffix.lower() not in SUFFIXES:
        errors.append(FieldError(shown, 0, "path", f"unsupported file type {suffix!r}; use "
                                 + ", ".join(SUFFIXES)))
        return None
    given = dict(defaults or {})
    default_id = str(given.pop("id", None) or PurePosixPath(shown).stem)
    return _Input(path, shown, default_id, "" if name is None else name, given)


def _walk_folder(folder: Path) -> Iterator[_Input]:
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        # Hidden files and anything inside hidden folders (.git, .venv) are not content.
        if any(part.startswith(".") for part in relative.parts):
            continue
        if path.is_file() and path.suffix.lower() in SUFFIXES:
            yield _Input(path, str(path), relative.with_suffix("").as_posix())


def _records(item: _Input) -> Iterator[RawRecord | FieldError]:
    if item.path.suffix.lower() == ".jsonl":
        yield from _capped(item, _jsonl_records(item))
        return
    reader = reader_for(item.shown)
    if reader is not None and PurePosixPath(item.shown).suffix.lower() not in _FRONT_MATTER:
        yield _read_formatted(item, reader)
        return
    text, error = _decode(item)
    if error is not None:
        yield error
    elif not text.strip():
        yield FieldError(item.shown, 0, "path", "no documents (the file is empty)")
    else:
        yield from _read_text_file(item, text, reader)


def _capped(item: _Input, records: Iterator[RawRecord | FieldError]
            ) -> Iterator[RawRecord | FieldError]:
    problems = 0
    for record in records:
        yield record
        if isinstance(record, FieldError):
            problems += 1
            if problems >= MAX_ERRORS_PER_FILE:
                yield FieldError(item.shown, record.line, "path",
                                 f"{problems} problems so far; the rest of the file was not "
                                 "read (is it a .jsonl file of documents?)")
                return


def _decode(item: _Input) -> tuple[str, FieldError | None]:
    try:
        data = item.path.read_bytes()
    except OSError as exc:
        return "", FieldError(item.shown, 0, "path", f"cannot be read ({exc.strerror})")
    # A UTF-8 byte-order mark is legal UTF-8 but would break JSON on line 1.
    data = data.removeprefix(_BOM)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return "", FieldError(item.shown, line, "encoding", _not_utf8(data[exc.start]))


def _not_utf8(byte: int) -> str:
    return f"byte 0x{byte:02x} is not valid UTF-8; save the file as UTF-8"


def _jsonl_records(item: _Input) -> Iterator[RawRecord | FieldError]:
    """One record a line, read line by line so a file of any size streams.

    Lines end at "\n" only (binary reading): U+2028 is legal inside JSON strings.
    """
    try:
        handle = item.path.open("rb")
    except OSError as exc:
        yield FieldError(item.shown, 0, "path", f"cannot be read ({exc.strerror})")
        return
    seen = False
    with handle:
        for number, raw in enumerate(handle, start=1):
            data = raw.removeprefix(_BOM) if number == 1 else raw
            try:
                line = data.removesuffix(b"\n").decode("utf-8")
            except UnicodeDecodeError as exc:
                seen = True
                yield FieldError(item.shown, number, "encoding", _not_utf8(data[exc.start]))
                continue
            if line.strip():
                seen = True
                yield _json_record(item, number, line)
    if not seen:
        yield FieldError(item.shown, 0, "path", "no documents (the file is empty)")


def _json_record(item: _Input, number: int, line: str) -> RawRecord | FieldError:
    try:
        value: Any = json.loads(line)
    except json.JSONDecodeError as exc:
        return FieldError(item.shown, number, "json",
                          f"not valid JSON ({exc.msg} at column {exc.colno})")
    except RecursionError:
        return FieldError(item.shown, number, "json", "nested too deeply to read")
    if not isinstance(value, dict):
        return FieldError(item.shown, number, "json",
                          f"must be a JSON object, got {type(value).__name__}")
    return RawRecord(item.shown, number, value, f"{item.source}:{number}")


def _read_text_file(item: _Input, text: str, reader: Reader | None
                    ) -> list[RawRecord | FieldError]:
    front = split_front_matter(text)
    if front.error is not None:
        return [FieldError(item.shown, front.error_line, "front matter", front.error)]
    out: list[RawRecord | FieldError] = []
    fields = dict(front.fields)
    if "text" in fields:
        out.append(FieldError(item.shown, front.field_lines.get("text", 1), "text",
                              "the file body is the text; remove it from the front matter"))
    title, layout = _heading(front.body), None
    if reader is None:
        fields["text"] = front.body.strip()
    else:
        try:
            extracted = reader.read(front.body.encode("utf-8"), name=item.shown)
        except FormatError as exc:
            return [FieldError(item.shown, front.body_line - 1 + max(exc.line, 1), exc.field,
                               exc.reason)]
        # The body is the tail of the file: its offsets shift by what comes before it.
        shift = len(text) - len(front.body)
        layout = extracted.layout.shifted(shift, source_length=len(text)).to_json()
        fields["text"], title = extracted.text, extracted.title or _first_heading(extracted)
    defaults = {**item.defaults, "id": item.default_id, "title": title or item.path.stem}
    # Problems with the body are reported where the body starts; a front-matter field
    # at the line of its key; anything else (a default id) at line 1.
    lines = {"text": front.body_line, **front.field_lines}
    out.append(RawRecord(item.shown, 1, fields, item.source, field_lines=lines,
                         defaults=defaults, layout=layout))
    return out


def _read_formatted(item: _Input, reader: Reader) -> RawRecord | FieldError:
    """One document from a file only its reader understands (HTML, PDF, DOCX)."""
    try:
        data = item.path.read_bytes()
    except OSError as exc:
        return FieldError(item.shown, 0, "path", f"cannot be read ({exc.strerror})")
    if not data.strip():
        return FieldError(item.shown, 0, "path", "no documents (the file is empty)")
    try:
        extracted = reader.read(data, name=item.shown)
    except FormatError as exc:
        return FieldError(item.shown, exc.line, exc.field, exc.reason)
    title = extracted.title or _first_heading(extracted) or PurePosixPath(item.shown).stem
    return RawRecord(item.shown, 1, {"text": extracted.text}, item.shown,
                     defaults={**item.defaults, "id": item.default_id, "title": title},
                     layout=extracted.layout.to_json())


def _first_heading(extracted: Extracted) -> str | None:
    return extracted.layout.titles[0] if extracted.layout.titles else None


def _heading(body: str) -> str | None:
    for line in body.split("\n"):
        if line.startswith("# "):
            return line[2:].strip() or None
    return None
