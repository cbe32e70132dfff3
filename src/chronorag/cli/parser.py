"""The command line's arguments: every subcommand and option, nothing else."""

from __future__ import annotations

import argparse
from datetime import datetime

from chronorag.clock import parse_moment
from chronorag.pipeline.ingest import Batching


def _iso(value: str) -> datetime:
    try:
        return parse_moment(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _question(value: str) -> str:
    if not value.strip():
        raise argparse.ArgumentTypeError("the question is empty; ask it in words")
    return value


def _tz_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tz", default=None, help="IANA time zone for naive times "
                   "(default: $CHRONORAG_TZ, else UTC)")


def _store_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None)
    _tz_option(p)


def _question_times(p: argparse.ArgumentParser) -> None:
    p.add_argument("--now", type=_iso, default=None, help="when the question is asked")
    p.add_argument("--as-of", type=_iso, default=None, help="the time the question is about")


def _llm_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--llm", default=None, metavar="URL",
                   help="an OpenAI-compatible chat endpoint (e.g. http://127.0.0.1:8080/v1) "
                        "writes the answer from the evidence, checked before it is shown "
                        "(chronorag[llm]; its key, if any, in $CHRONORAG_LLM_KEY)")
    p.add_argument("--llm-model", default=None, metavar="NAME",
                   help="the model to ask the endpoint for (default: the endpoint's own)")
    p.add_argument("--llm-timeout", type=_positive, default=60, metavar="S",
                   help="seconds the model may take to write; then the extractive answer "
                        "stands, flagged generation_failed (default 60)")


def _batch_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--batch", type=_positive, default=Batching.docs, metavar="N",
                   help=f"documents per committed batch (default {Batching.docs})")


def _stated_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dates-from-text", action="store_true",
                   help="fill missing valid_from, modified_at and supersedes from what the "
                        "text states ('Effective date: ...', 本办法自...起施行); never over a "
                        "field the front matter or JSON gives")
    p.add_argument("--git-history", action="store_true",
                   help="ingest every version of each file from its git history: each "
                        "commit that changed it, valid from the effective date its text "
                        "states, else from the commit; each supersedes the one before")
    p.add_argument("--allow-dangling", action="store_true",
                   help="a supersedes/derived_from naming an id neither stored nor ingested "
                        "is a warning, not an error")


def _quiet_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (there is none when stderr is not a terminal)")


def judges(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [] if value.strip() == "none" else [n.strip() for n in value.split(",") if n.strip()]


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number <= 0:
        raise argparse.ArgumentTypeError(f"must be a whole number above 0: {value!r}")
    return number


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chronorag", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ingest", help="validate and store documents (.jsonl, .md, .txt, .html, "
                       ".pdf, .docx, folders)")
    p.add_argument("paths", nargs="+")
    _store_options(p)
    _batch_option(p)
    p.add_argument("--root", default=None, metavar="DIR",
                   help="a file without an id of its own is known by its path from DIR, "
                        "without suffix (default: the current directory)")
    p.add_argument("--replace", action="store_true",
                   help="let documents replace stored ones of the same id that were read "
                        "from another file")
    _quiet_option(p)
    p.add_argument("--json", action="store_true")
    _stated_options(p)

    p = sub.add_parser("reindex", help="rebuild chunks, time mentions and vectors from the "
                       "stored texts (after an upgrade, or to switch embedder)")
    _store_options(p)
    p.add_argument("--embedder", default=None,
                   help="switch the store to this embedder (default: the store's own)")
    p.add_argument("--judges", default=None, metavar="NAMES",
                   help="switch the multilingual judges: embedder names, comma-separated, "
                        "or 'none' (English-only stores ingest faster; Chinese and "
                        "cross-language questions then keep their retrieval relevance)")
    p.add_argument("--force", action="store_true",
                   help="rebuild every document, not only those made another way")
    _batch_option(p)
    _quiet_option(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("ask", help="answer a question with evidence")
    p.add_argument("question", type=_question)
    _store_options(p)
    _question_times(p)
    p.add_argument("--user", default=None, help="who asks: sees public documents, their own "
                   "records and those shared with them; 我/I/my/me mean this id")
    p.add_argument("--admin", action="store_true",
                   help="see every record whatever its subject (without --user, records "
                        "with a subject are otherwise invisible)")
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--json", action="store_true")
    _llm_options(p)

    p = sub.add_parser("time", help="resolve a time expression to an interval, or with "
                       "--extract list every time expression of a text as JSON lines")
    p.add_argument("expression", nargs="?")
    p.add_argument("--extract", nargs="?", const="-", default=None, metavar="FILE",
                   help="read running text from FILE (stdin when none or '-') and print one "
                        "JSON object a line per expression found")
    p.add_argument("--now", type=_iso, default=None)
    _tz_option(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("eval", help="benchmarks")
    eval_sub = p.add_subparsers(dest="suite", required=True)
    e = eval_sub.add_parser("retrieval", help="AR@k / ER@k / SA on a TimeQA-format folder "
                            "(questions may be dated: now, user, document-id evidence)")
    e.add_argument("dir", help="corpus.jsonl + questions.jsonl, or a folder of such folders "
                               "(one table, one store per set)")
    e.add_argument("--tz", default=None, help="IANA time zone for naive times of the corpus "
                   "and of the questions' now (default: UTC)")
    e.add_argument("--methods", default=None, help="comma-separated method names")
    e.add_argument("--limit", type=int, default=None, help="only the first N questions")
    e.add_argument("--json", action="store_true")
    e.add_argument("--plot", default=None, help="write AR@k curves to this PNG")
    e.add_argument("--db", default=None,
                   help="reuse this store (unchanged documents are not embedded again; "
                        "a folder of <set>.db for a folder of sets); default: a fresh "
                        "temporary store")

    p = sub.add_parser("review", help="list what a knowledge-base owner must look at")
    _store_options(p)
    p.add_argument("--as-of", type=_iso, default=None, help="judge validity at this time")
    p.add_argument("--threshold", type=float, default=None,
                   help="cosine above which two documents count as near-duplicates (0.9)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--accept-dates", nargs="*", default=None, metavar="ID",
                   help="write the dates and links the texts state (the review's proposals) "
                        "into the empty fields of these documents (all when no ID is given)")
    p.add_argument("--accept-versions", nargs="*", default=None, metavar="ID",
                   help="link the version chains the review proposes (those holding these "
                        "documents; all when no ID is given): each version supersedes the "
                        "one before it, when every version has a date of its own")

    p = sub.add_parser("context", help="context pack of a semantic layer for text-to-SQL")
    p.add_argument("question", type=_question)
    _store_options(p)
    _question_times(p)
    p.add_argument("--budget", type=int, default=None, help="token budget (words + CJK chars)")
    p.add_argument("--shares", default=None,
                   help="budget shares, e.g. tables=0.3,columns=0.25,metrics=0.15")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("documents", help="list, show or delete stored documents")
    docs_sub = p.add_subparsers(dest="action", required=True)
    d = docs_sub.add_parser("list", help="id, title, source, validity, status, supersedes "
                            "and chunks of every document")
    _store_options(d)
    d.add_argument("--json", action="store_true")
    d = docs_sub.add_parser("show", help="one document's fields and text")
    d.add_argument("id")
    _store_options(d)
    d.add_argument("--json", action="store_true")
    d = docs_sub.add_parser("delete", help="delete documents with their chunks, vectors "
                            "and links, all or none")
    d.add_argument("ids", nargs="+", metavar="ID")
    d.add_argument("--unlink", action="store_true",
                   help="also remove other documents' supersedes/derived_from naming them "
                        "(else such a delete is refused)")
    d.add_argument("--db", default=None)
    d.add_argument("--json", action="store_true")

    p = sub.add_parser("people", help="people, aliases and who may see whose records")
    people_sub = p.add_subparsers(dest="action", required=True)
    pl = people_sub.add_parser("load", help="replace people and access grants from a JSON file")
    pl.add_argument("file")
    pl.add_argument("--db", default=None)
    pl.add_argument("--json", action="store_true")

    p = sub.add_parser("serve", help="serve the HTTP API and the web page (chronorag[serve])")
    _store_options(p)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_positive, default=8000)
    p.add_argument("--max-body-mb", type=_positive, default=32,
                   help="largest request body, in MiB (default 32)")
    p.add_argument("--timeout", type=_positive, default=60,
                   help="seconds a question may take before the answer is a 503 (60)")
    p.add_argument("--create", action="store_true",
                   help="start with an empty store when --db names none (else: exit 1)")
    _llm_options(p)

    p = sub.add_parser("mcp", help="serve ask, time, context and review as MCP tools over "
                       "stdio (chronorag[mcp])")
    _store_options(p)
    p.add_argument("--config", default="default", help="search preset (default: default)")
    p.add_argument("--create", action="store_true",
                   help="start with an empty store when --db names none (else: exit 1)")
    _llm_options(p)

    p = sub.add_parser("keys", help="API keys of chronorag serve")
    keys_sub = p.add_subparsers(dest="action", required=True)
    k = keys_sub.add_parser("add", help="make a key; it is printed once, on the last line")
    k.add_argument("--user", required=True, help="who the key asks as")
    k.add_argument("--admin", action="store_true", help="the key may also write documents, "
                   "people and access, and read the review")
    k.add_argument("--db", default=None)
    k = keys_sub.add_parser("list", help="every key (never the keys themselves)")
    k.add_argument("--db", default=None)
    k.add_argument("--json", action="store_true")
    k = keys_sub.add_parser("revoke", help="revoke a key by its id (see keys list)")
    k.add_argument("id")
    k.add_argument("--db", default=None)

    p = sub.add_parser("migrate", help="copy everything of one store into another (SQLite "
                       "file or postgresql:// URI) and verify the copy")
    p.add_argument("--from", dest="source", required=True, help="the store to copy")
    p.add_argument("--to", dest="target", required=True,
                   help="an empty store, or one an interrupted migrate of the same source left")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("demo", help="ingest the bundled demo corpus and ask it questions")
    p.add_argument("--db", default=None, help="keep the demo store here (default: temporary)")
    return parser
