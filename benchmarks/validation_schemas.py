"""Validation by schema: the hand-written validators against pydantic v2 and msgspec.

    python benchmarks/validation_schemas.py [--docs 20000] [--rounds 5]

Corpus: ``--docs`` generated JSONL documents (seeded; about 5% invalid, several mistakes
in some), parsed once before the clock starts, since every approach gets the records the
loader has already parsed; plus a layer of 3,000 entries and a people file of 2,000 people.
Each approach validates the same records in this process, rounds alternating; the table
shows the best CPU time of the rounds as items per second and the ratio to the
hand-written baseline (read from git at ``BASELINE``, the last commit that has it).
"same messages" counts the items whose ``file:line: field: reason`` lines equal the
baseline's, in the same order.

- pydantic (chosen, in src/): ``chronorag.validation`` (the one error path) and the
  schemas in ``ingest/schema.py``, ``semantic/schema.py``, ``people/schema.py``.
- msgspec: the prototype below (ingest only), a Struct of the document fields the natural
  msgspec way (types and ``Meta`` constraints, a ``dec_hook`` for dates), the checks across
  fields after the conversion, its messages mapped to the project's reasons.

Why pydantic: it collects every problem of a record, with its location, in field order;
``info.data`` gives validators the fields before them and ``context`` the time zone, so
every reason is a validator of a schema and all three files share one error path
(``field_errors``). It reproduces every message byte for byte: the suites here, and a
differential fuzz of thousands of random records, layer entries and people files against
the baseline while it was written. msgspec is fast at checking types but stops at the
first problem and gives its location only inside its message text: a file with three
mistakes would take three runs to fix, which the ingest contract rules out, and collecting
them means converting field by field, which is the hand-written validator again. On the
corpus below it reports exactly the records with at most one problem; of the 1,049 with
more it reports the first in 855 and another one in 194 (it walks the keys in input order).

The costs of pydantic, measured: validation is 0.8x the baseline's speed per document
(about 19 us against 15 us), far from the 1.5x that would matter and nothing next to the
embedding model that sets ingest speed (~3 chunks/s, benchmarks/README.md section 3); the
import of pydantic and the construction of the schemas take ~0.1 s at the first record
validated, never at the start of a command that validates nothing (``ask``, ``time``);
and more lines: 585 code lines against 445 (847 against 554 with docstrings and blank
lines), the shared helper included, because nearly every reason is the project's own
wording and stays a validator. People files validate 7x faster only because the new
duplicate-id check is a set lookup where the old one scanned the people seen so far.

Recorded on 2026-11-30 on the 2-core machine with other jobs running (load ~3), CPU time,
best of 7 rounds (``python benchmarks/validation_schemas.py --rounds 7``):

| approach | documents/s | vs baseline | same messages |
|---|---|---|---|
| hand-written (baseline) | 65,722 | 1.00 | 20000/20000 |
| pydantic (chosen) | 53,502 | 0.81 | 20000/20000 |
| msgspec (prototype) | 61,729 | 0.94 | 18951/20000 |

Layer entries: 93,762/s hand-written, 76,411/s pydantic (0.81); people: 24,194/s
hand-written, 163,905/s pydantic (6.77); the same messages for both.

| file | lines before | lines now | code lines before | code lines now |
|---|---|---|---|---|
| ingest/validate.py | 183 | 60 | 139 | 34 |
| semantic/validate.py | 225 | 56 | 189 | 35 |
| people/load.py | 146 | 60 | 117 | 36 |
| validation.py |  | 151 |  | 84 |
| ingest/schema.py |  | 127 |  | 96 |
| semantic/schema.py |  | 242 |  | 190 |
| semantic/entry.py |  | 21 |  | 13 |
| people/schema.py |  | 130 |  | 97 |
| total | 554 | 847 | 445 | 585 |
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import subprocess
import sys
import time
import types
from collections.abc import Callable, Sequence
from datetime import UTC, tzinfo
from pathlib import Path
from typing import Annotated, Any, Literal

from chronorag.errors import FieldError, ValidationError
from chronorag.ingest import parse_date
from chronorag.ingest import validate as chosen_ingest
from chronorag.ingest.validate import DATE_FIELDS
from chronorag.model import Document, Interval, Status
from chronorag.people import load as chosen_people
from chronorag.semantic import validate as chosen_semantic

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "0886082c6eb2c2533a370a20b89eaa95419213ee"
BASELINE_FILES = {"ingest": "src/chronorag/ingest/validate.py",
                  "semantic": "src/chronorag/semantic/validate.py",
                  "people": "src/chronorag/people/load.py"}
CHOSEN_FILES = [*BASELINE_FILES.values(), "src/chronorag/validation.py",
                "src/chronorag/ingest/schema.py", "src/chronorag/semantic/schema.py",
                "src/chronorag/semantic/entry.py", "src/chronorag/people/schema.py"]


def baseline_module(name: str) -> types.ModuleType:
    """The hand-written validator as it was at ``BASELINE``, imported under a new name."""
    source = subprocess.run(["git", "show", f"{BASELINE}:{BASELINE_FILES[name]}"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    module = types.ModuleType(f"baseline_{name}")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, BASELINE_FILES[name], "exec"), module.__dict__)
    return module


# ---- corpus ---------------------------------------------------------------------------

def documents(count: int, *, seed: int = 7) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        doc: dict[str, Any] = {"id": f"doc-{i}", "text": "lorem ipsum " * rng.randint(10, 80),
                               "title": f"Title {i}"}
        if rng.random() < 0.6:
            doc["valid_from"] = rng.choice(["2021", "2021-05", "2021-05-06",
                                            "2021-05-06T12:30+08:00"])
        if rng.random() < 0.3:
            doc["valid_to"] = "2030-01-01"
        if rng.random() < 0.5:
            doc["status"] = rng.choice(["approved", "draft"])
        if rng.random() < 0.5:
            doc["source_type"] = rng.choice(["policy", "faq", "wiki"])
        if rng.random() < 0.2:
            doc["supersedes"] = [f"doc-{i - 1}"]
        if rng.random() < 0.3:
            doc["tags"] = ["a", "b"]
        for _ in range(rng.choice([0] * 19 + [1, 2, 3])):  # ~5% invalid
            doc[rng.choice(["valid_from", "status", "text", "supersedes", "owner", "id"])] = \
                rng.choice(["2026-13-45", "", 5, "x", [f"doc-{i}"], " "])
        out.append(doc)
    return out


def layer_entries(count: int) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(11)
    out: list[tuple[str, dict[str, Any]]] = []
    for i in range(count):
        kind = ("table", "metric", "term")[i % 3]
        if kind == "table":
            entry: dict[str, Any] = {"id": f"t{i}", "columns": [
                {"name": "id", "role": "pk"}, {"name": "at", "role": "time"}]}
        elif kind == "metric":
            entry = {"id": f"m{i}", "table": f"t{i - 1}", "expression": "sum(x)",
                     "valid_from": "2021"}
        else:
            entry = {"term": f"w{i}", "maps_to": f"m{i - 1}", "synonyms": ["a", "b"]}
        if rng.random() < 0.05:
            entry[rng.choice(["status", "valid_from", "bogus"])] = "2026-13-45"
        out.append((kind, entry))
    return out


def people_file(count: int) -> str:
    people = [{"id": f"p{i}", "name": f"Person {i}", "aliases": [f"P{i}"]}
              for i in range(count)]
    people[count // 2]["name"] = ""
    return json.dumps({"people": people, "access": {"p0": ["p1", "p2"]}}, indent=1)


# ---- the msgspec prototype (ingest only) ----------------------------------------------

Build = Callable[..., tuple[Document | None, list[FieldError]]]


try:
    import msgspec
except ImportError:  # its row is left out
    msgspec = None

if msgspec is not None:
    _Text = Annotated[str, msgspec.Meta(pattern=r"\S")]

    class _When:
        """A date field: the ``dec_hook`` reads it as an interval in the caller's zone
        (msgspec checks that the hook returns the annotated type)."""

        __slots__ = ("interval",)

        def __init__(self, interval: Interval) -> None:
            self.interval = interval

    _Doc = msgspec.defstruct("Doc", [
        ("id", _Text), ("text", _Text),
        *((name, str | None, None) for name in ("title", "source_type", "subject", "owner")),
        ("status", Literal["approved", "draft", "retired"] | None, None),
        *((name, _When | None, None) for name in DATE_FIELDS),
        ("supersedes", list[_Text], []), ("derived_from", list[_Text], []),
        ("metadata", dict[str, Any], {}), ("ingested_at", None, None),
    ], kw_only=True)
    """The document fields in the order of ``build_document``'s schema."""


def msgspec_prototype() -> Build | None:
    """``build_document`` with a msgspec Struct; ``None`` when msgspec is not installed."""
    if msgspec is None:
        return None
    Doc = _Doc
    known = set(Doc.__struct_fields__)

    def build(raw: Any, *, tz: tzinfo = UTC) -> tuple[Document | None, list[FieldError]]:
        values = {**raw.defaults, **{k: v for k, v in raw.fields.items() if v is not None}}

        def hook(kind: type, value: Any) -> Any:
            return _When(parse_date(value, tz=tz))  # a DateError (ValueError) is reported

        def error(name: str, reason: str) -> FieldError:
            return FieldError(raw.path, raw.field_lines.get(name, raw.line), name, reason)
        try:
            doc = msgspec.convert(values, Doc, strict=True, dec_hook=hook)
        except msgspec.ValidationError as exc:  # the first problem only
            return None, [error(*_msgspec_reason(str(exc), values))]
        problems = [error(*p) for p in _after_msgspec(doc, values, known)]
        if problems:
            return None, problems
        return Document(
            id=doc.id, text=doc.text, title=doc.title or "", source=raw.source,
            status=None if doc.status is None else Status(doc.status),
            metadata={**doc.metadata, **{k: v for k, v in values.items() if k not in known}},
            supersedes=tuple(dict.fromkeys(doc.supersedes)),
            derived_from=tuple(dict.fromkeys(doc.derived_from)),
            source_type=doc.source_type, subject=doc.subject, owner=doc.owner,
            **{name: _interval(getattr(doc, name)) for name in DATE_FIELDS}), []
    return build


_MSGSPEC = re.compile(r"^(?P<msg>.*?)(?: - at `\$\.(?P<name>\w+)(?:\[(?P<item>\d+)\])?`)?$")


def _msgspec_reason(message: str, values: dict[str, Any]) -> tuple[str, str]:
    """msgspec's message as the project's ``(field, reason)``."""
    match = _MSGSPEC.match(message)
    assert match is not None
    missing = re.search(r"missing required field `(\w+)`", message)
    if missing:
        return missing.group(1), "is required"
    name, msg, value = match["name"], match["msg"], values.get(match["name"])
    if name in ("supersedes", "derived_from"):
        return name, (f"item {int(match['item']) + 1} must be a non-empty document id string"
                      if match["item"] else f"must be a list of document ids, got {_kind(value)}")
    if name == "status":
        return name, f"{value!r} is not one of approved, draft, retired (or leave it out)"
    if name == "ingested_at":
        return name, "is set by the system; remove it"
    if name == "metadata":
        return name, f"must be an object, got {_kind(value)}"
    if name in ("id", "text") and "matching regex" in msg:
        return name, "is empty"
    if msg.startswith("Expected `str"):
        return name, f"must be a string, got {_kind(value)}"
    return name, msg


def _after_msgspec(doc: Any, values: dict[str, Any], known: set[str]) -> list[tuple[str, str]]:
    """The checks across fields, after msgspec checked each field."""
    out = []
    start, end = _interval(doc.valid_from), _interval(doc.valid_to)
    if start is not None and end is not None and end.start <= start.start:
        shown = str(values["valid_from"])
        out.append(("valid_to", f"is before valid_from ({shown})" if end.start < start.start
                    else f"is the same as valid_from ({shown}); it must be later"))
    out += [(name, f"lists the document itself ({doc.id!r})")
            for name in ("supersedes", "derived_from") if doc.id in getattr(doc, name)]
    for key, value in {**doc.metadata, **{k: v for k, v in values.items()
                                          if k not in known}}.items():
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            out.append((str(key), "must hold JSON values (string, number, bool, list, object)"))
    return out


def _interval(when: Any) -> Interval | None:
    return None if when is None else when.interval


def _kind(value: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", list: "a list",
             dict: "an object", str: "a string"}
    return names.get(type(value), type(value).__name__)


# ---- measuring ------------------------------------------------------------------------

def timed(runs: dict[str, Callable[[], list[list[str]]]], rounds: int
          ) -> dict[str, tuple[float, list[list[str]]]]:
    """Best CPU seconds of ``rounds`` alternating rounds, and each run's messages."""
    best: dict[str, float] = dict.fromkeys(runs, float("inf"))
    messages: dict[str, list[list[str]]] = {}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.process_time()
            messages[name] = run()
            best[name] = min(best[name], time.process_time() - start)
    return {name: (best[name], messages[name]) for name in runs}


def ingest_runs(docs: Sequence[dict[str, Any]], base: types.ModuleType,
                prototype: Build | None) -> dict[str, Callable[[], list[list[str]]]]:
    def run(module: Any, build: Build) -> Callable[[], list[list[str]]]:
        records = [module.RawRecord("c.jsonl", n, doc, f"c.jsonl:{n}")
                   for n, doc in enumerate(docs, start=1)]
        return lambda: [[str(e) for e in build(r, tz=UTC)[1]] for r in records]
    runs = {"hand-written (baseline)": run(base, base.build_document),
            "pydantic (chosen)": run(chosen_ingest, chosen_ingest.build_document)}
    if prototype is not None:
        runs["msgspec (prototype)"] = run(chosen_ingest, prototype)
    return runs


def layer_runs(base: types.ModuleType) -> dict[str, Callable[[], list[list[str]]]]:
    raw = layer_entries(3000)

    def run(module: Any) -> Callable[[], list[list[str]]]:
        entries = [module.Entry("l.yaml", i + 1, kind, i, value)
                   for i, (kind, value) in enumerate(raw)]
        return lambda: [[str(e) for e in module.validate_layer(entries, tz=UTC, known={})[1]]]
    return {"hand-written (baseline)": run(base), "pydantic (chosen)": run(chosen_semantic)}


def people_runs(base: types.ModuleType) -> dict[str, Callable[[], list[list[str]]]]:
    text = people_file(2000)

    def run(module: Any) -> Callable[[], list[list[str]]]:
        def once() -> list[list[str]]:
            try:
                module.parse_directory(text, path="p.json")
            except ValidationError as exc:
                return [[str(e) for e in exc.errors]]
            return [[]]
        return once
    return {"hand-written (baseline)": run(base), "pydantic (chosen)": run(chosen_people)}


def report(title: str, unit: str, count: int,
           results: dict[str, tuple[float, list[list[str]]]]) -> None:
    base_seconds, base_messages = results["hand-written (baseline)"]
    print(f"\n{title}\n\n| approach | {unit}/s | vs baseline | same messages |\n|---|---|---|---|")
    for name, (seconds, messages) in results.items():
        same = sum(a == b for a, b in zip(messages, base_messages, strict=True))
        print(f"| {name} | {count / seconds:,.0f} | {base_seconds / seconds:.2f} | "
              f"{same}/{len(messages)} |")


def code_lines(text: str) -> int:
    """Lines that hold code: not blank, not only a comment, not part of a docstring."""
    docs: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            docs.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return sum(1 for n, line in enumerate(text.splitlines(), start=1)
               if line.strip() and not line.strip().startswith("#") and n not in docs)


def line_counts() -> None:
    before = {path: subprocess.run(["git", "show", f"{BASELINE}:{path}"], cwd=ROOT, check=True,
                                   capture_output=True, text=True).stdout
              for path in BASELINE_FILES.values()}
    after = {path: (ROOT / path).read_text("utf-8") for path in CHOSEN_FILES}
    print("\n| file | lines before | lines now | code lines before | code lines now |")
    print("|---|---|---|---|---|")
    for path in after:
        old = before.get(path)
        print(f"| {path.removeprefix('src/chronorag/')} | "
              f"{len(old.splitlines()) if old else ''} | {len(after[path].splitlines())} | "
              f"{code_lines(old) if old else ''} | {code_lines(after[path])} |")
    print(f"| total | {sum(len(t.splitlines()) for t in before.values())} | "
          f"{sum(len(t.splitlines()) for t in after.values())} | "
          f"{sum(map(code_lines, before.values()))} | {sum(map(code_lines, after.values()))} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    prototype = msgspec_prototype()
    if prototype is None:
        print("msgspec is not installed (pip install msgspec==0.22.0): its row is left out")
    docs = documents(args.docs)
    base = {name: baseline_module(name) for name in BASELINE_FILES}
    chosen_ingest.build_document(chosen_ingest.RawRecord("w", 1, docs[0], "w"))  # imports
    report(f"Ingest: {args.docs:,} JSONL documents, validation only", "documents", args.docs,
           timed(ingest_runs(docs, base["ingest"], prototype), args.rounds))
    report("Semantic layer: 3,000 entries", "entries", 3000,
           timed(layer_runs(base["semantic"]), args.rounds))
    report("People file: 2,000 people", "people", 2000,
           timed(people_runs(base["people"]), args.rounds))
    line_counts()


if __name__ == "__main__":
    main()
