"""What the HTTP API does, without HTTP: one warm engine for every reader, one writer.

Questions share one engine (its models and indexes stay loaded) and are answered one at
a time: they are CPU-bound and the models already use every core. Writes (uploads,
deletes, people) go through a second engine on its own connection to the store, so
questions keep being answered from the last committed state while an upload ingests; the
reader's indexes follow the store's generation by themselves.
"""

from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from chronorag.answer.llm import Generator
from chronorag.conditions import DeclaredJSON, as_json
from chronorag.config import SearchConfig
from chronorag.coverage import CoverageJSON
from chronorag.engine import Engine
from chronorag.errors import ConfigError, FieldError, NotFoundError, ValidationError
from chronorag.ingest import SUFFIXES, Named
from chronorag.model import Answer, Asking
from chronorag.people.load import parse_directory
from chronorag.pipeline.conditions import check_people, declared
from chronorag.pipeline.ingest import IngestCounts
from chronorag.render import document_json, document_summary
from chronorag.store.base import ApiKey

if TYPE_CHECKING:
    from chronorag.semantic.context import ContextJSON

log = logging.getLogger(__name__)
MAX_NAME = 200


class ApiError(Exception):
    """A request that cannot be served: an HTTP status, a stable code, what to do, and the
    input problems (``file:line: field: reason``) when there are any."""

    def __init__(self, status: int, code: str, message: str, *,
                 problems: Sequence[FieldError] = ()) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.problems = tuple(problems)

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"status": self.status, "code": self.code,
                                "message": self.message}
        if self.problems:
            body["errors"] = [{"file": p.path, "line": p.line, "field": p.field,
                               "reason": p.reason} for p in self.problems]
        return {"error": body}


def internal_error(exc: BaseException) -> ApiError:
    """A 500 that names the kind of failure only: the details (paths, values) stay in
    the server's log."""
    return ApiError(500, "internal", f"internal error ({type(exc).__name__}); the store "
                    "keeps its last committed state. The server log has the details")


@dataclass(frozen=True)
class Upload:
    """One uploaded file: the name its sender gave it and its bytes."""

    name: str
    data: bytes


def require_admin(key: ApiKey, what: str) -> None:
    if not key.admin:
        raise ApiError(403, "forbidden", f"{what} needs an admin key; this key "
                       f"({key.id}, user {key.user!r}) may only ask")


class Service:
    """The engine behind ``chronorag serve``; every method takes the caller's key.

    ``llm``: the chat model that writes answers from the evidence (the reader's; writes
    need none). ``None``: extractive answers only.
    """

    def __init__(self, db: str, *, tz: tzinfo, config: str | SearchConfig = "default",
                 llm: Generator | None = None) -> None:
        self.db, self.tz, self._config = db, tz, config
        self.reader = Engine(db, tz=tz, config=config, llm=llm)
        self._read_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._writer: Engine | None = None

    def warm_up(self) -> None:
        """Load the models and indexes now, so the first question pays no cold start."""
        self.reader.warm_up().join()
        with self._read_lock:
            self.reader.refresh_indexes()

    def close(self) -> None:
        with self._write_lock:
            if self._writer is not None and self._writer is not self.reader:
                self._writer.close()
        with self._read_lock:
            self.reader.close()

    # -- reading ----------------------------------------------------------------------

    @property
    def llm(self) -> Generator | None:
        return self.reader.llm

    def ask(self, key: ApiKey, question: str, asking: Asking) -> Answer:
        """The extractive answer for the key's user (their privacy rules, never an
        admin's view, whoever ``asking`` names); :meth:`generate` then has the model
        write it."""
        asked = replace(asking, user=key.user, admin=False)
        with self._read_lock:
            return self.reader.ask(question, asked, generate=False)

    def generate(self, answer: Answer, *,
                 on_text: Callable[[str], None] | None = None) -> Answer:
        """``answer`` written by the model and checked (unchanged without an ``llm``).

        Not under the read lock: it reads only ``answer`` (its evidence is already the
        asker's), so the next question is retrieved while the model writes.
        """
        return self.reader.generate(answer, on_text=on_text)

    def context(self, question: str, *, now: datetime, as_of: datetime | None,
                budget: int | None, shares: Mapping[str, float] | None,
                tz: tzinfo | None) -> ContextJSON:
        from chronorag.semantic import build_context
        from chronorag.semantic.pack import CATEGORIES, DEFAULT_SHARES

        unknown = sorted(set(shares or {}) - set(CATEGORIES))
        if unknown:
            raise ApiError(422, "invalid_request", f"unknown share categories {unknown}; "
                           "use " + ", ".join(CATEGORIES))
        with self._read_lock:
            engine = self.reader
            if engine.store.layer_generation() == 0:
                raise ApiError(404, "no_semantic_layer", "the store has no semantic layer; "
                               "ingest one first (chronorag ingest layer.yaml)")
            pack = build_context(
                engine.store, question, now=now, as_of=as_of, budget=budget,
                shares={**DEFAULT_SHARES, **(shares or {})}, tz=tz or self.tz,
                embedder=engine.components.embedder(engine.config.embedder))
        return pack.to_json()

    def document(self, key: ApiKey, doc_id: str) -> dict[str, Any]:
        """A stored document with every field, if the key may see it."""
        store = self.reader.store
        self._check_visible(key, doc_id)
        found = store.documents([doc_id])
        if not found:
            raise ApiError(404, "not_found", f"no document {doc_id!r} in the store")
        return document_json(found[0], tz=self.tz)

    def documents(self, key: ApiKey) -> dict[str, Any]:
        """Every stored document the key may see, as ``chronorag documents list --json``
        rows (id order)."""
        store = self.reader.store
        docs = store.documents(text=False)
        if not key.admin:
            visible = store.visible_doc_ids(key.user)
            docs = docs if visible is None else [d for d in docs if d.id in visible]
        counts = store.chunk_counts([d.id for d in docs])
        return {"documents": [document_summary(d, counts.get(d.id, 0), tz=self.tz)
                              for d in docs]}

    def review(self, key: ApiKey, *, as_of: datetime, threshold: float) -> dict[str, Any]:
        from chronorag.review import review

        require_admin(key, "the review (it lists every owner's documents and records)")
        with self._read_lock:
            return review(self.reader.store, as_of=as_of, threshold=threshold).to_json()

    def coverage(self, key: ApiKey, *, by: str, unit: str, now: datetime) -> CoverageJSON:
        require_admin(key, "the coverage (it names every group's documents and records)")
        with self._read_lock:
            try:
                return self.reader.coverage(by=by, unit=unit, now=now).to_json()
            except ConfigError as exc:
                raise ApiError(422, "invalid_request", str(exc)) from None

    def _check_visible(self, key: ApiKey, doc_id: str) -> None:
        if key.admin:
            return
        visible = self.reader.store.visible_doc_ids(key.user, among=[doc_id])
        if visible is None or doc_id not in visible:
            # Said the same way whether the id exists or is someone else's record: the
            # answer must not tell which.
            raise ApiError(403, "forbidden", f"document {doc_id!r} is not visible to "
                           "this key: it does not exist, or it is a record of someone "
                           "who has not granted this key's user access")

    # -- writing ----------------------------------------------------------------------

    def ingest(self, key: ApiKey, uploads: Sequence[Upload], *, now: datetime,
               replace: bool = False, dates_from_text: bool = False,
               allow_dangling: bool = False) -> IngestCounts:
        """Validate every uploaded file, then ingest them all; a rejected upload changes
        nothing (``ApiError`` 422 with each problem). An upload keeps its name: a
        Markdown file's id is its name without suffix, and its documents' source is the
        name; ``replace`` lets it replace documents read from another file;
        ``dates_from_text`` and ``allow_dangling`` are ``Engine.ingest``'s."""
        require_admin(key, "uploading documents")
        names = _check_names(uploads)
        with tempfile.TemporaryDirectory(prefix="chronorag-upload-") as tmp:
            inputs = []
            for number, (upload, name) in enumerate(zip(uploads, names, strict=True)):
                path = Path(tmp) / f"{number}{PurePath(name).suffix.lower()}"
                path.write_bytes(upload.data)
                inputs.append(Named(path, name))
            with self._write_lock:
                try:
                    report = self._writer_engine().ingest(
                        inputs, now=now, replace=replace, dates_from_text=dates_from_text,
                        allow_dangling=allow_dangling)
                except ValidationError as exc:
                    raise ApiError(422, "invalid_documents", f"rejected: {len(exc.errors)} "
                                   "problem(s); nothing was stored",
                                   problems=exc.errors) from None
        return report.to_json()

    def delete(self, key: ApiKey, doc_id: str, *, unlink: bool = False) -> dict[str, Any]:
        """``documents delete``; a document others link to is a 409 unless ``unlink``."""
        require_admin(key, "deleting documents")
        with self._write_lock:
            try:
                deleted = self._writer_engine().delete([doc_id], unlink=unlink)
            except NotFoundError:
                raise ApiError(404, "not_found", f"no document {doc_id!r} in the store"
                               ) from None
            except ConfigError as exc:
                raise ApiError(409, "linked", f"{exc}; ?unlink=true removes the links"
                               ) from None
        return {"deleted": list(deleted)}

    def load_people(self, key: ApiKey, text: str, *, name: str) -> dict[str, Any]:
        require_admin(key, "loading people and access grants")
        directory = parse_directory(text, path=name)  # ValidationError: the caller's 422
        with self._write_lock:
            store = self._writer_engine().store
            check_people(directory, declared(store), path=name, text=text)
            store.replace_people(directory)
        return directory.to_json()

    def conditions(self) -> DeclaredJSON:
        with self._read_lock:
            return as_json(self.reader.conditions())

    def declare_condition(self, key: ApiKey, name: str, values: Sequence[str]) -> DeclaredJSON:
        require_admin(key, "declaring conditions")
        with self._write_lock:
            return as_json(self._writer_engine().declare_condition(name, values))

    def _writer_engine(self) -> Engine:
        if self._writer is None:
            # An in-memory store exists only in the reader's connection: it writes too.
            self._writer = self.reader if self.db == ":memory:" else Engine(
                self.db, tz=self.tz, config=self._config)
        return self._writer


def _check_names(uploads: Sequence[Upload]) -> list[str]:
    if not uploads:
        raise ApiError(422, "invalid_request", "no files: send one or more files ("
                       + ", ".join(SUFFIXES) + ") in the form field 'files', or a JSON Lines "
                       "body")
    names: list[str] = []
    problems: list[FieldError] = []
    for number, upload in enumerate(uploads, 1):
        # Only the last part of a name: a sender's folders mean nothing on the server.
        name = PurePath(upload.name.replace("\\", "/")).name.strip()
        if not name or len(name) > MAX_NAME:
            problems.append(FieldError(f"file {number}", 0, "filename",
                                       f"must be 1 to {MAX_NAME} characters"))
        elif PurePath(name).suffix.lower() not in SUFFIXES:
            problems.append(FieldError(name, 0, "path", f"unsupported file type "
                                       f"{PurePath(name).suffix!r}; use " + ", ".join(SUFFIXES)))
        elif name in names:
            problems.append(FieldError(name, 0, "filename", "sent twice; send each file once"))
        names.append(name)
    if problems:
        raise ApiError(422, "invalid_documents", f"rejected: {len(problems)} problem(s); "
                       "nothing was stored", problems=problems)
    return names
