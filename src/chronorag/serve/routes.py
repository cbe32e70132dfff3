"""The API's routes: thin, each one parse → :class:`Service` → JSON.

Everything a route needs comes from the application state (``Context``): the service,
the clock, the limits and the turn that questions take one after another. Each route
declares the schema of its answer (``chronorag.serve.responses``, from the records'
declarations) and sends the records' own JSON, as the CLI prints it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.sse import EventSourceResponse, ServerSentEvent

from chronorag.answer.when import AnswerTime
from chronorag.clock import parse_moment
from chronorag.conditions import DeclaredJSON
from chronorag.coverage import Coverage
from chronorag.model import Answer, Asking, Document, TimeExpression
from chronorag.people.model import Directory
from chronorag.pipeline.ingest import IngestReport
from chronorag.render import DocumentRow
from chronorag.review import ReviewReport
from chronorag.semantic.context import ContextPack, SemanticContext
from chronorag.serve.generation import events, written
from chronorag.serve.keys import authenticate
from chronorag.serve.responses import ERROR, schema_type, shape, with_keys
from chronorag.serve.schemas import AskBody, ConditionBody, ContextBody, ExtractBody, zone
from chronorag.serve.service import ApiError, Service, Upload, require_admin
from chronorag.store.base import ApiKey
from chronorag.timex.extract import Extracted

T = TypeVar("T")
NDJSON = "application/x-ndjson"
_FAILURES = {401: "no live key", 403: "the key may not do this", 404: "not found",
             409: "other documents link to it", 413: "the body is too large",
             415: "not JSON Lines nor files", 422: "the request or a document is not valid",
             503: "busy, or the store is unavailable"}


def failures(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route may give besides those of every route."""
    return {status: {"model": ERROR, "description": _FAILURES[status]} for status in statuses}


router = APIRouter(prefix="/v1", responses=failures(401, 422, 503))

ANSWER = with_keys(Answer, "Answer", answer_time=AnswerTime, semantic=SemanticContext,
                   generation=dict[str, Any])
"""``ask --json``: the answer's own keys, then what optional stages add."""


@dataclass(frozen=True)
class Context:
    """What the routes share: set once by ``create_app`` in ``app.state.context``."""

    service: Service
    clock: Callable[[], datetime]
    read_s: float
    # Questions take turns on the event loop, not inside worker threads: a queue of
    # questions then holds no thread, and time expressions, health checks and uploads
    # keep being served beside it.
    turns: anyio.Lock

    def now(self, value: datetime | None) -> datetime:
        return value if value is not None else self.clock()

    async def read(self, fn: Callable[[], T]) -> T:
        """``fn()`` in a worker thread when the questions before it are answered; 503
        when that takes longer than the limit."""
        try:
            with anyio.fail_after(self.read_s):
                async with self.turns:
                    return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)
        except TimeoutError:
            raise ApiError(503, "timeout", f"not answered within {self.read_s:g} s; the "
                           "server is busy: retry later") from None


def context_of(request: Request) -> Context:
    context: Context = request.app.state.context
    return context


_BEARER = HTTPBearer(auto_error=False, description="a key from `chronorag keys add`")
Ctx = Annotated[Context, Depends(context_of)]


def caller(ctx: Ctx, credentials: Annotated[HTTPAuthorizationCredentials | None,
                                            Depends(_BEARER)]) -> ApiKey:
    """The live key of the request, or a 401."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise ApiError(401, "unauthorized", "send Authorization: Bearer KEY (make a key "
                       "with: chronorag keys add --user ID)")
    key = authenticate(ctx.service.reader.store, credentials.credentials)
    if key is None:
        raise ApiError(401, "unauthorized", "this key is unknown or revoked")
    return key


Caller = Annotated[ApiKey, Depends(caller)]


def _zone(name: str | None) -> tzinfo | None:
    try:
        return zone(name)
    except ValueError as exc:
        raise ApiError(422, "invalid_request", str(exc)) from None


def _moment(value: str | None, field: str) -> datetime | None:
    try:
        return None if value is None else parse_moment(value)
    except ValueError as exc:
        raise ApiError(422, "invalid_request", f"{field}: {exc}") from None


@router.get("/whoami", tags=["ask"], response_model=shape("KeyOwner", id=str, user=str,
                                                           admin=bool))
def whoami(key: Caller) -> JSONResponse:
    """The key's id, user and whether it is an admin key."""
    return JSONResponse({"id": key.id, "user": key.user, "admin": key.admin})


async def extractive(body: AskBody, key: Caller, ctx: Ctx) -> Answer:
    """The question's turn: retrieval and the extractive answer. A dependency, so that a
    401, 422 or 503 is a JSON response before a stream could open."""
    asking = Asking(now=ctx.now(body.now), as_of=body.as_of, tz=_zone(body.tz), k=body.k,
                    context=body.context)
    return await ctx.read(lambda: ctx.service.ask(key, body.question, asking))


Extractive = Annotated[Answer, Depends(extractive)]


@router.post("/ask", tags=["ask"], response_model=ANSWER)
async def ask(asked: Extractive, ctx: Ctx) -> JSONResponse:
    """Exactly ``chronorag ask --json``, asked by the key's user; with an llm the model
    writes the answer (``generation`` says how) after the question's turn."""
    answer = await written(ctx.service, asked)
    return JSONResponse(answer.to_json())


@router.post("/ask/stream", tags=["ask"], response_class=EventSourceResponse)
async def ask_stream(asked: Extractive, ctx: Ctx) -> AsyncIterator[ServerSentEvent]:
    """``/v1/ask`` as server-sent events: ``evidence`` (the extractive answer), ``delta``
    (``{"text"}``) as the model writes, then ``answer`` (what ``/v1/ask`` returns); a
    failure after the start ends the stream with ``error``."""
    async for item in events(ctx.service, asked):
        yield item


@router.post("/context", tags=["ask"], response_model=schema_type(ContextPack),
             responses=failures(404))
async def context(body: ContextBody, key: Caller, ctx: Ctx) -> JSONResponse:
    """``chronorag context --json``: the semantic layer's pack for text-to-SQL."""
    tz, now = _zone(body.tz), ctx.now(body.now)
    return JSONResponse(await ctx.read(lambda: ctx.service.context(
        body.question, now=now, as_of=body.as_of, budget=body.budget, shares=body.shares,
        tz=tz)))


def _reference(ctx: Context, now: datetime | None, tz: tzinfo) -> datetime:
    moment = ctx.now(now)
    return moment.replace(tzinfo=tz) if moment.tzinfo is None else moment


@router.get("/time", tags=["time"], response_model=schema_type(TimeExpression))
def time_expression(key: Caller, ctx: Ctx,
                    expression: Annotated[str, Query(max_length=1000)],
                    now: Annotated[str | None, Query()] = None,
                    tz: Annotated[str | None, Query()] = None) -> JSONResponse:
    """``chronorag time EXPRESSION --json``: ``{"text", "start", "end", "granularity"}``."""
    from chronorag.timex import parse_one

    zone_ = _zone(tz) or ctx.service.tz
    moment = _reference(ctx, _moment(now, "now"), zone_)
    return JSONResponse(parse_one(expression, now=moment, tz=zone_).to_json())


@router.post("/time/extract", tags=["time"],
             response_model=shape("Expressions", expressions=list[Extracted]))
def time_extract(key: Caller, ctx: Ctx, body: ExtractBody) -> JSONResponse:
    """``chronorag time --extract``: every time expression of ``text``, in order."""
    from chronorag.timex import extract

    zone_ = _zone(body.tz) or ctx.service.tz
    found = extract(body.text, now=_reference(ctx, body.now, zone_), tz=zone_)
    return JSONResponse({"expressions": [item.to_json() for item in found]})


@router.post("/documents", tags=["documents"], response_model=schema_type(IngestReport),
             responses=failures(403, 413, 415))
async def upload(request: Request, key: Caller, ctx: Ctx,
                 name: Annotated[str, Query(max_length=200)] = "upload.jsonl",
                 replace: Annotated[bool, Query()] = False,
                 dates_from_text: Annotated[bool, Query()] = False,
                 allow_dangling: Annotated[bool, Query()] = False) -> JSONResponse:
    """Ingest a JSON Lines body (``application/x-ndjson``) or files sent as
    ``multipart/form-data`` in the field ``files``; all or nothing, like the CLI. Each
    file keeps its name (a Markdown file's id is its name without suffix); ``replace``
    lets a document replace a stored one read from another file (``ingest --replace``),
    ``dates_from_text`` fills missing dates and links from what the text states
    (``--dates-from-text``), ``allow_dangling`` accepts links to unknown ids with a note
    (``--allow-dangling``)."""
    require_admin(key, "uploading documents")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind in (NDJSON, "application/jsonl"):
        uploads = [Upload(name, await request.body())]
    elif kind == "multipart/form-data":
        form = await request.form(max_files=1000, max_fields=1000)
        uploads = [Upload(str(item.filename or ""), await item.read())
                   for item in form.getlist("files") if not isinstance(item, str)]
    else:
        raise ApiError(415, "unsupported_media_type", f"send documents as {NDJSON} (a JSON "
                       "Lines body) or multipart/form-data (files in the field 'files')")
    now = ctx.now(None)
    return JSONResponse(await anyio.to_thread.run_sync(
        lambda: ctx.service.ingest(key, uploads, now=now, replace=replace,
                                   dates_from_text=dates_from_text,
                                   allow_dangling=allow_dangling)))


@router.get("/documents", tags=["documents"],
            response_model=shape("DocumentList", documents=list[DocumentRow]))
def list_documents(key: Caller, ctx: Ctx) -> JSONResponse:
    """``chronorag documents list --json`` as ``{"documents": [...]}``: id, title, source,
    valid_from, valid_to, status, supersedes and chunks of each document the key may see."""
    return JSONResponse(ctx.service.documents(key))


@router.get("/documents/{doc_id:path}", tags=["documents"],
            response_model=schema_type(Document), responses=failures(403, 404))
def get_document(doc_id: str, key: Caller, ctx: Ctx) -> JSONResponse:
    """A stored document with every field, when the key may see it."""
    return JSONResponse(ctx.service.document(key, doc_id))


@router.delete("/documents/{doc_id:path}", tags=["documents"],
               response_model=shape("Deleted", deleted=list[str]),
               responses=failures(403, 404, 409))
def delete_document(doc_id: str, key: Caller, ctx: Ctx,
                    unlink: Annotated[bool, Query()] = False) -> JSONResponse:
    """Delete a document (admin keys); one that other documents link to is a 409 unless
    ``unlink`` removes their links to it."""
    return JSONResponse(ctx.service.delete(key, doc_id, unlink=unlink))


@router.get("/review", tags=["documents"], response_model=schema_type(ReviewReport),
            responses=failures(403))
async def review(key: Caller, ctx: Ctx, as_of: Annotated[str | None, Query()] = None,
                 threshold: Annotated[float, Query(gt=0, le=1)] = 0.9) -> JSONResponse:
    """``chronorag review --json`` (admin keys)."""
    moment = _reference(ctx, _moment(as_of, "as_of"), ctx.service.tz)
    return JSONResponse(await ctx.read(lambda: ctx.service.review(key, as_of=moment,
                                                                  threshold=threshold)))


@router.get("/coverage", tags=["documents"], response_model=schema_type(Coverage),
            responses=failures(403))
async def coverage(key: Caller, ctx: Ctx, by: Annotated[str, Query()] = "title",
                   unit: Annotated[str, Query()] = "year",
                   now: Annotated[str | None, Query()] = None) -> JSONResponse:
    """``chronorag coverage --json``: the periods the store's texts cover per group of
    documents (``by``: title, source_type, entity), the holes and the undated (admin keys)."""
    moment = _reference(ctx, _moment(now, "now"), ctx.service.tz)
    return JSONResponse(await ctx.read(
        lambda: ctx.service.coverage(key, by=by, unit=unit, now=moment)))


@router.get("/conditions", tags=["documents"], response_model=schema_type(DeclaredJSON))
async def conditions(key: Caller, ctx: Ctx) -> JSONResponse:
    """``chronorag conditions list --json``: the declared condition keys documents may
    apply to, each with the values it takes (empty: any value)."""
    return JSONResponse(await ctx.read(ctx.service.conditions))


@router.post("/conditions", tags=["documents"], response_model=schema_type(DeclaredJSON),
             responses=failures(403))
async def declare(body: ConditionBody, key: Caller, ctx: Ctx) -> JSONResponse:
    """``chronorag conditions declare``: declare a key or add values to one (admin keys);
    returns every declared key."""
    return JSONResponse(await ctx.read(
        lambda: ctx.service.declare_condition(key, body.key, body.values)))


@router.post("/people", tags=["documents"], response_model=schema_type(Directory),
             responses=failures(403))
async def people(request: Request, key: Caller, ctx: Ctx) -> JSONResponse:
    """Replace people and access grants with a people file (JSON body; admin keys)."""
    require_admin(key, "loading people and access grants")
    text = (await request.body()).decode("utf-8", "replace")
    return JSONResponse(await anyio.to_thread.run_sync(
        lambda: ctx.service.load_people(key, text, name="people.json")))
