"""Privacy under fuzz: no record denied to the asker appears in anything chronorag returns.

Random questions (English and Chinese, the family's names and aliases, 我/I/my/me, time
words, random unicode), random askers (each person, unknown ids, look-alikes of ids,
``None``; admin or not) and random ``now``/``as_of``, over the family corpus of
tests/cases/people/ plus the retail semantic layer of tests/cases/semantic/ (so ``ask``
also runs its semantic stage and ``context`` has a layer to pack).

"Denied" is computed here from the corpus files alone, not from the engine: a record with
a ``subject`` is visible to that subject, to the readers people.json grants access to it
(``"access": {READER: [SUBJECT, ...]}``) and to admins; every other asker is denied it.
A denied record must not show up by id, by its text, nor by any distinctive piece of its
text (a window that no visible record and not the question itself contains).

One real engine (e5 + cross-encoder) per module; hence ``slow``.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag import cli, render
from chronorag.answer.build import build_answer
from chronorag.answer.context import context_for_generation
from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.errors import ChronoragError
from chronorag.semantic.context import build_context

pytestmark = pytest.mark.slow

CASES = Path(__file__).parent / "cases"
SHANGHAI = timezone(timedelta(hours=8))
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)  # the corpus's "today", a Wednesday
RECORDS: list[dict[str, Any]] = [
    json.loads(line) for line in
    (CASES / "people" / "records.jsonl").read_text(encoding="utf-8").splitlines() if line]
PEOPLE: dict[str, Any] = json.loads((CASES / "people" / "people.json").read_text("utf-8"))
ACCESS: dict[str, list[str]] = PEOPLE["access"]
PERSON_IDS = [p["id"] for p in PEOPLE["people"]]
NAMES = [n for p in PEOPLE["people"] for n in (p["name"], *p.get("aliases", []))]

# --- the denied set, from the files -------------------------------------------------


def may_see(record: dict[str, Any], user: str | None, admin: bool) -> bool:
    subject = record.get("subject")
    if subject is None or admin:
        return True
    return user is not None and (user == subject or subject in ACCESS.get(user, []))


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _windows(text: str) -> Iterator[str]:
    """Pieces of a record long enough to identify it: 6 characters of Chinese, 14 of
    Latin text (a short piece like "午饭" or "after school" names no one)."""
    size = 6 if re.search(r"[\u4e00-\u9fff]", text) else 14
    for i in range(max(len(text) - size + 1, 1)):
        yield text[i : i + size]


def secrets(user: str | None, admin: bool, question: str = "") -> list[str]:
    """Strings (case-folded) whose presence in any output would reveal a denied record."""
    visible = [r for r in RECORDS if may_see(r, user, admin)]
    public = _fold(" ".join(f"{r['id']} {r['title']} {r['text']}" for r in visible))
    asked = _fold(question)
    found: list[str] = []
    for record in RECORDS:
        if may_see(record, user, admin):
            continue
        found.append(_fold(record["id"]))
        found.extend(w for w in map(_fold, [record["text"], *_windows(record["text"])])
                     if w not in public and w not in asked)
    return sorted(set(found))


def assert_no_secret(output: str, user: str | None, admin: bool, question: str = "",
                     where: str = "") -> None:
    text = _fold(output)
    leaked = [s for s in secrets(user, admin, question) if s in text]
    assert not leaked, f"{where}: {leaked[:5]} leaked to user={user!r} admin={admin}"


def test_the_denied_sets_are_what_people_json_says() -> None:
    """The oracle itself, on the grants of people.json (READER -> SUBJECTS)."""
    def denied(user: str | None, admin: bool = False) -> set[str]:
        return {r["subject"] for r in RECORDS if not may_see(r, user, admin)}

    assert denied("dad") == set()
    assert denied("mom") == {"dad"}
    assert denied("kid") == {"dad", "mom"}
    assert denied(None) == denied("stranger") == denied("grandma") == {"dad", "mom", "kid"}
    assert denied(None, admin=True) == set()
    assert "血压" not in " ".join(secrets("mom", False))  # mom's own record is no secret
    assert _fold("复查血压，医") in secrets("kid", False)


# --- strategies -----------------------------------------------------------------------

SELF_WORDS = ["我", "我的", "我自己", "I", "my", "me", "myself", "mine"]
TIME_WORDS = ["昨天", "今天", "前天", "上周二", "上周三", "上周", "这周", "上上周", "最近三天",
              "最近两周", "上个月", "11月17日", "2026年11月18日", "上午", "晚上",
              "yesterday", "today", "last week", "last Tuesday", "this week",
              "on 18 November 2026", "in the past three days", "last month", "at 9 am"]
TOPICS = ["午饭", "咖啡", "跑步", "医院", "血压", "复查", "瑜伽", "晚饭", "游泳", "钢琴",
          "早饭", "薯片", "lunch", "coffee", "run", "hospital", "blood pressure", "yoga",
          "swimming", "piano", "breakfast", "pancakes", "dinner", "GMV", "华东", "订单"]
ASKING = ["几点", "几次", "做了什么", "去了哪里", "吃了什么", "谁", "?", "？", "What time did",
          "How many times did", "What did", "When did", "Who", "do", "eat", "go to the"]
LOOKALIKES = [None, "stranger", "", "MOM", "Mom", "mom ", "妈妈", "Dad", "kid\x00", "dad,mom",
              "*", "%"]
# The telling cases are askers who see some records and are denied others (mom, kid):
# they are drawn most often.
users = st.one_of(st.sampled_from(["mom", "kid"]), st.sampled_from(["mom", "kid"]),
                  st.sampled_from(PERSON_IDS), st.sampled_from(LOOKALIKES))
ZONES = [UTC, SHANGHAI, timezone(timedelta(hours=-5)), timezone(timedelta(hours=13))]

words = st.sampled_from([*NAMES, *PERSON_IDS, *SELF_WORDS, *TIME_WORDS, *TOPICS, *ASKING])
pieces = st.one_of(words, words, words, st.text(max_size=6))
questions = st.one_of(
    st.tuples(st.lists(pieces, min_size=1, max_size=7), st.sampled_from(["", " "]))
    .map(lambda parts: parts[1].join(parts[0])),
    st.text(max_size=30),
)
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 12, 31),
                       timezones=st.one_of(st.none(), st.sampled_from(ZONES)))
near_now = st.timedeltas(min_value=timedelta(days=-40), max_value=timedelta(days=40)).map(
    lambda delta: NOW + delta)


@st.composite
def askings(draw: st.DrawFn) -> dict[str, Any]:
    return {"question": draw(questions), "user": draw(users),
            "admin": draw(st.sampled_from([False, False, False, True])),
            "now": draw(st.one_of(near_now, moments)),
            "as_of": draw(st.one_of(st.none(), st.none(), moments)),
            "k": draw(st.integers(min_value=1, max_value=25))}


# --- the engine -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    folder = tmp_path_factory.mktemp("privacy")
    with Engine(folder / "family.db", tz=SHANGHAI) as opened:
        opened.ingest([CASES / "people" / "records.jsonl", CASES / "semantic" / "retail.yaml"],
                      now=NOW)
        opened.load_people(CASES / "people" / "people.json")
        yield opened


def _db(engine: Engine) -> str:
    return str(engine.store.path)  # type: ignore[attr-defined]


def _run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(argv))
        except SystemExit as exc:  # argparse rejects bad options before chronorag runs
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def _human(answer: Any) -> str:
    buffer = io.StringIO()
    render.print_answer(answer, file=buffer)
    return buffer.getvalue()


@settings(max_examples=40, deadline=None)
@given(case=askings())
def test_ask_reveals_no_denied_record(engine: Engine, case: dict[str, Any]) -> None:
    """Everything ``ask`` returns: its JSON (evidence, upcoming, answer, flags, extras),
    the timings, the human rendering and the context a generator would be given."""
    answer = engine.ask(case["question"], now=case["now"], as_of=case["as_of"],
                        user=case["user"], admin=case["admin"], k=case["k"])
    payload = answer.to_json()
    allowed = {r["id"] for r in RECORDS if may_see(r, case["user"], case["admin"])}
    cited = [e["doc_id"] for e in (*payload["evidence"], *payload["upcoming"])]
    assert all(d in allowed for d in cited if d in {r["id"] for r in RECORDS}), cited
    who = (case["user"], case["admin"], case["question"])
    assert_no_secret(json.dumps(payload, ensure_ascii=False), *who, where="ask --json")
    assert_no_secret(_human(answer), *who, where="ask (text)")
    assert_no_secret(context_for_generation(answer), *who, where="generation context")
    _check_timings(answer.timings_ms, case)


def _check_timings(timings: dict[str, float], case: dict[str, Any]) -> None:
    """Stage names and durations only: nothing about which documents took part."""
    assert all(re.fullmatch(r"[a-z_]+", key) for key in timings), list(timings)
    assert all(isinstance(v, float) and math.isfinite(v) and v >= 0 for v in timings.values())
    assert_no_secret(json.dumps(timings), case["user"], case["admin"], case["question"],
                     where="timings")


@settings(max_examples=5, deadline=None)
@given(case=askings(), as_json=st.booleans())
def test_cli_ask_reveals_no_denied_record(engine: Engine, case: dict[str, Any],
                                          as_json: bool) -> None:
    argv = ["ask", "--db", _db(engine), "--tz", "Asia/Shanghai",
            "--now", case["now"].isoformat(), "-k", str(case["k"])]
    if case["as_of"] is not None:
        argv += ["--as-of", case["as_of"].isoformat()]
    if case["user"] is not None:
        argv += ["--user", case["user"]]
    # "--": a random question may start with "-" and must not be read as an option.
    argv += ["--admin"] * case["admin"] + ["--json"] * as_json + ["--", case["question"]]
    code, out, err = _run_cli(argv)
    # A blank question is a usage error (exit 2), still without a secret in what is said.
    assert code == (2 if not case["question"].strip() else 0), err
    if as_json and code == 0:
        json.loads(out)
    assert_no_secret(out + err, case["user"], case["admin"], case["question"], where="cli ask")


@settings(max_examples=8, deadline=None)
@given(question=questions, now=st.one_of(near_now, moments))
def test_context_pack_reveals_no_record(engine: Engine, question: str, now: datetime) -> None:
    """``context`` / ``build_context`` never reads documents: it packs the semantic layer
    (tables, columns, metrics, joins, examples, rules) and takes no asker. So it must show
    no record with a subject at all, whatever the question names; checked on a store that
    holds both the family records and a layer."""
    store = engine.store
    pack = build_context(store, question, now=now,  # type: ignore[arg-type]
                         embedder=engine.components.embedder(engine.config.embedder),
                         tz=SHANGHAI, parallel=False)
    output = json.dumps(pack.to_json(), ensure_ascii=False) + pack.text()
    assert_no_secret(output, None, False, question, where="build_context")


def test_cli_context_reveals_no_record(engine: Engine) -> None:
    for question in ("妈妈上周三去医院复查血压", "What did Amy do at swimming class?",
                     "华东 GMV 趋势"):
        code, out, err = _run_cli(["context", question, "--db", _db(engine), "--json",
                                   "--now", NOW.isoformat()])
        assert code == 0, err
        assert_no_secret(out + err, None, False, question, where="cli context")


BAD_CLI = [
    ["--tz", "Mars/Olympus"],
    ["--now", "last Tuesday-ish"],
    ["--as-of", "2026-13-45"],
    ["-k", "many"],
    ["--user"],
]


@pytest.mark.parametrize("extra", BAD_CLI, ids=[" ".join(a) for a in BAD_CLI])
@pytest.mark.parametrize("user", ["kid", "stranger", None])
def test_error_messages_reveal_no_denied_record(engine: Engine, extra: list[str],
                                                user: str | None) -> None:
    question = "妈妈上周三几点去医院复查血压？"
    argv = ["ask", question, "--db", _db(engine), "--json", *extra]
    if user is not None and extra != ["--user"]:
        argv += ["--user", user]
    code, out, err = _run_cli(argv)
    assert code != 0 and err
    assert_no_secret(out + err, user, False, question, where=f"cli error {extra}")


def test_store_and_context_errors_reveal_no_denied_record(engine: Engine,
                                                          tmp_path: Path) -> None:
    question = "爸爸上周二几点喝的咖啡？"
    for argv in (["ask", question, "--db", str(tmp_path)],  # a folder is no store
                 ["context", question, "--db", _db(engine), "--budget", "-1"],
                 ["context", question, "--db", _db(engine), "--shares", "secrets=1"],
                 ["people", "load", str(tmp_path / "missing.json"), "--db", _db(engine)]):
        code, out, err = _run_cli(argv)
        assert code != 0, argv
        assert len(err.strip().splitlines()) >= 1 and "Traceback" not in err
        assert_no_secret(out + err, None, False, question, where=f"{argv[0]} error")


@settings(max_examples=5, deadline=None)
@given(case=askings(), k=st.integers(min_value=-5, max_value=0))
def test_engine_errors_reveal_no_denied_record(engine: Engine, case: dict[str, Any],
                                               k: int) -> None:
    """A degenerate ``k`` either answers (then privacy holds as above) or raises a
    chronorag error whose message names no denied record."""
    try:
        answer = engine.ask(case["question"], now=case["now"], as_of=case["as_of"],
                            user=case["user"], admin=case["admin"], k=k)
    except ChronoragError as exc:
        output = str(exc)
    else:
        output = json.dumps(answer.to_json(), ensure_ascii=False)
    assert_no_secret(output, case["user"], case["admin"], case["question"], where="k<=0")


# --- a record written while a question is being answered ---------------------------


def test_answer_uses_only_documents_of_the_scope(engine: Engine) -> None:
    """The answer stage keeps only hits whose document is in ``documents`` (the scope the
    search handed over), even when a retriever returned more."""
    query = engine.query("午饭 咖啡 跑步 医院 游泳 lunch swimming", now=NOW, admin=True, k=30)
    everything = engine.retrieve(query)
    kid = {r["id"] for r in RECORDS if may_see(r, "kid", False)}
    answer = build_answer(replace(query, user="kid", admin=False), everything.hits,
                          upcoming=everything.upcoming,
                          documents={i: d for i, d in everything.documents.items() if i in kid},
                          min_semantic=engine.config.min_semantic)
    assert {e.doc_id for e in answer.evidence} <= kid
    assert_no_secret(json.dumps(answer.to_json(), ensure_ascii=False), "kid", False)


def _race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: dict[str, Any],
          second: dict[str, Any]) -> str:
    """Ask as a stranger while another writer stores ``second`` right after the privacy
    check; the answer's JSON. Keyword search only and a stand-in embedder: no model loads."""
    config = replace(get_preset("bm25"), embedder="test-hash")
    db = tmp_path / "race.db"
    for name, doc in (("first", first), ("second", second)):
        (tmp_path / f"{name}.jsonl").write_text(json.dumps(doc) + "\n", encoding="utf-8")
    with Engine(db, config=config) as asker:
        asker.ingest([tmp_path / "first.jsonl"], now=NOW)
        asker.ask("warm up", now=NOW)
        check = asker.store.visible_doc_ids

        def check_then_write(*args: Any, **kwargs: Any) -> frozenset[str] | None:
            visible = check(*args, **kwargs)
            with Engine(db, config=config) as writer:
                writer.ingest([tmp_path / "second.jsonl"], now=NOW, replace=True)
            return visible

        monkeypatch.setattr(asker.store, "visible_doc_ids", check_then_write)
        answer = asker.ask("blood pressure hospital doctor", now=NOW, user="stranger", k=5)
        return json.dumps(answer.to_json(), ensure_ascii=False)


PRIVATE = {"id": "mom-bp", "title": "Check-up", "subject": "mom", "occurred_at": "2026-11-18",
           "text": "Blood pressure 160 over 100 at the hospital; the doctor said less salt."}


def test_record_stored_during_a_question_is_not_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_embedders: Any) -> None:
    public = {"id": "notice", "title": "Pool", "text": "The pool is closed on Mondays."}
    output = _race(tmp_path, monkeypatch, public, PRIVATE)
    assert "mom-bp" not in output and "160 over 100" not in output


def test_document_made_private_during_a_question_is_not_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_embedders: Any) -> None:
    public = {"id": "mom-bp", "title": "Note", "text": "The hospital visit is on Wednesday."}
    output = _race(tmp_path, monkeypatch, public, PRIVATE)
    assert "160 over 100" not in output


def test_store_changing_during_every_attempt_still_hides_private_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_embedders: Any) -> None:
    """Each privacy check is followed by a commit that flips the record between public and
    private, so no attempt sees one state and the last one retrieves the private text
    after a check that saw it public: the final visibility check still drops it."""
    config = replace(get_preset("bm25"), embedder="test-hash")
    db = tmp_path / "race.db"
    public = {"id": "mom-bp", "title": "Note", "text": "The hospital visit is on Wednesday."}
    (tmp_path / "first.jsonl").write_text(json.dumps(public) + "\n", encoding="utf-8")
    with Engine(db, config=config) as asker:
        asker.ingest([tmp_path / "first.jsonl"], now=NOW)
        asker.ask("warm up", now=NOW)
        check = asker.store.visible_doc_ids
        calls = []

        def check_then_write(*args: Any, **kwargs: Any) -> frozenset[str] | None:
            visible = check(*args, **kwargs)
            calls.append(1)
            flip = PRIVATE if len(calls) % 2 else public
            version = {**flip, "text": flip["text"] + " again" * len(calls)}
            (tmp_path / "next.jsonl").write_text(json.dumps(version) + "\n", encoding="utf-8")
            with Engine(db, config=config) as writer:
                writer.ingest([tmp_path / "next.jsonl"], now=NOW, replace=True)
            return visible

        monkeypatch.setattr(asker.store, "visible_doc_ids", check_then_write)
        answer = asker.ask("blood pressure hospital doctor", now=NOW, user="stranger", k=5)
    output = json.dumps(answer.to_json(), ensure_ascii=False)
    assert len(calls) >= 3  # every attempt saw a commit
    assert "160 over 100" not in output and "mom-bp" not in output
