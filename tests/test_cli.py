"""The command line end to end: ``chronorag.cli.main([...])`` with a real store and models.

Covers the contract of DESIGN.md: ingest rejects a file with any invalid document whole
(``path:line: field: reason`` on stderr, exit code 2, store unchanged; golden cases in
tests/cases/bad_inputs/), re-ingest is a no-op or an atomic replace, ``time --json``,
``ask --json`` (keys, types, offsets), and the ``--db`` default.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chronorag import cli
from chronorag.store.sqlite import SQLiteStore

BAD_INPUTS = Path(__file__).parent / "cases" / "bad_inputs"
NOW = "2026-06-15T12:00:00+00:00"

# Files of tests/cases/bad_inputs/manifest.jsonl that are awkward as data files.
GENERATED: dict[str, bytes] = {
    "not_utf8.jsonl": (b'{"id": "utf8-ok", "text": "Fine."}\n'
                       b'{"id": "latin1", "text": "caf\xe9 au lait"}\n'),
}

RIVERTON = (
    "The Riverton tramway was a street tramway serving the town of Riverton and its "
    "harbour district. Horse trams began running along the quay in 1879, carrying dock "
    "workers between the ferry pier and the market square. The company that built the "
    "first line, the Riverton Street Railway, was a private venture financed by local "
    "merchants, and it extended the track to the railway station within three years. "
    "Fares were collected by conductors who rode on the rear platform, and the cars were "
    "painted dark green with cream lettering.\n\n"
    "Electrification came in 1902, when the town council bought the company and built a "
    "power station beside the canal. New routes reached the hospital, the university "
    "quarter and the northern suburbs, and by 1925 the network had eleven routes and "
    "more than sixty cars. The depot on Mill Lane housed the workshops where the cars "
    "were overhauled every winter. During the war the trams carried munitions workers "
    "around the clock, and women were employed as drivers for the first time.\n\n"
    "After the war the council decided to replace the trams with motor buses, which it "
    "judged cheaper to run on the narrow streets of the old town. The routes were "
    "abandoned one by one during the late 1950s. The last tram ran on 30 June 1961, "
    "and the Riverton tramway closed the following day. One car survives at the "
    "transport museum, restored in its original green livery."
)

BASE_DOCS: list[dict[str, Any]] = [
    {"id": "wiki-uk-prime-ministers", "title": "Prime Minister of the United Kingdom",
     "source_type": "wiki",
     "text": "Theresa May was Prime Minister of the United Kingdom from July 2016 to July "
             "2019. Boris Johnson was prime minister from July 2019 to September 2022. Liz "
             "Truss served as prime minister from September 2022 to October 2022. Rishi "
             "Sunak was prime minister from October 2022 to July 2024. Keir Starmer became "
             "prime minister in July 2024."},
    {"id": "news-2021-05-06", "title": "Local elections held across England",
     "source_type": "news", "occurred_at": "2021-05-06", "published_at": "2021-05-06",
     "text": "On 6 May 2021 voters across England went to the polls in local elections. "
             "Labour leader Keir Starmer campaigned in Hartlepool, where a by-election was "
             "held on the same day."},
    {"id": "returns-2024", "title": "Return policy (2024 edition)", "source_type": "policy",
     "status": "approved", "valid_from": "2024-01-01",
     "text": "Customers may return any unused item within 30 days of delivery for a full "
             "refund."},
    {"id": "returns-2026", "title": "Return policy (2026 edition)", "source_type": "policy",
     "status": "approved", "valid_from": "2026-03-01", "supersedes": ["returns-2024"],
     "text": "Customers may return any unused item within 14 days of delivery for a full "
             "refund."},
    {"id": "wiki-riverton-tramway", "title": "Riverton tramway", "source_type": "wiki",
     "text": RIVERTON},
]

EVIDENCE_TYPES: dict[str, type | tuple[type, ...]] = {
    "doc_id": str, "chunk_id": str, "title": str, "text": str, "start": int, "end": int,
    "source_type": (str, type(None)), "status": (str, type(None)),
    "valid_from": (str, type(None)), "valid_to": (str, type(None)),
    "occurred_at": (str, type(None)), "applicable": bool, "flags": list,
    "score": (int, float), "scores": dict,
    "superseded_by": list, "valid_until": (str, type(None)),
}
TOP_KEYS = {"question", "now", "as_of", "understanding", "status", "answer", "evidence",
            "upcoming", "flags"}
# Additive top-level keys documented in model.Answer.extras (issue 7: the semantic layer).
DOCUMENTED_EXTRA_KEYS = {"semantic"}


# -- helpers -------------------------------------------------------------------------------


def _write_jsonl(path: Path, docs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs),
                    encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``chronorag ARGV`` in process: (exit code, stdout, stderr)."""
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _snapshot(db: Path) -> tuple[Any, ...]:
    """Everything a rejected ingest must leave alone."""
    store = SQLiteStore(db)
    try:
        return (store.documents(), store.count(), store.generation(),
                [(c.id, c.doc_id, c.start, c.end, c.text) for c in store.chunks()])
    finally:
        store.close()


def _documents(db: Path, ids: list[str] | None = None) -> list[Any]:
    store = SQLiteStore(db)
    try:
        return store.documents(ids)
    finally:
        store.close()


def _doc_chunks(db: Path, doc_id: str) -> list[Any]:
    store = SQLiteStore(db)
    try:
        return [c for c in store.chunks() if c.doc_id == doc_id]
    finally:
        store.close()


def _manifest() -> list[Any]:
    lines = (BAD_INPUTS / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    return [pytest.param(case, id=Path(case["file"]).stem) for case in cases]


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Naive times in UTC, whatever the developer's shell says."""
    monkeypatch.delenv("CHRONORAG_TZ", raising=False)


@pytest.fixture(scope="module")
def base_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding the three short base documents, ingested once through the CLI."""
    folder = tmp_path_factory.mktemp("base")
    good = _write_jsonl(folder / "good.jsonl", BASE_DOCS[:3])
    assert cli.main(["ingest", str(good), "--db", str(folder / "kb.db")]) == 0
    return folder


@pytest.fixture
def base_db(base_template: Path, tmp_path: Path) -> Path:
    """A private copy of the base store (its index folder and the file it was ingested
    from included)."""
    for item in base_template.iterdir():
        if item.is_dir():
            shutil.copytree(item, tmp_path / item.name)
        else:
            shutil.copyfile(item, tmp_path / item.name)
    db = tmp_path / "kb.db"
    assert {d.id for d in _documents(db)} == {d["id"] for d in BASE_DOCS[:3]}
    return db


@pytest.fixture(scope="module")
def ask_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One store with every base document, shared by the read-only ``ask`` tests."""
    folder = tmp_path_factory.mktemp("ask")
    db = folder / "kb.db"
    corpus = _write_jsonl(folder / "corpus.jsonl", BASE_DOCS)
    assert cli.main(["ingest", str(corpus), "--db", str(db)]) == 0
    yield db


# -- ingest: bad inputs --------------------------------------------------------------------


@pytest.mark.slow  # base_db is ingested with the default embedder (e5-small)
@pytest.mark.parametrize("case", _manifest())
def test_bad_input_is_rejected_whole(case: dict[str, Any], base_db: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    name = case["file"]
    path = tmp_path / name
    if name in GENERATED:
        path.write_bytes(GENERATED[name])
    else:
        shutil.copyfile(BAD_INPUTS / name, path)
    before = _snapshot(base_db)

    code, out, err = _run(capsys, "ingest", str(path), "--db", str(base_db),
                          "--root", str(tmp_path))

    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    expected = [line.format(path=path) for line in case["errors"]]
    n = len(expected)
    assert err.splitlines() == [*expected, f"rejected: {n} problem(s); nothing was stored"]
    assert _snapshot(base_db) == before


def test_every_bad_input_file_is_in_the_manifest() -> None:
    listed = {p.values[0]["file"] for p in _manifest()}  # type: ignore[index]
    on_disk = {p.name for p in BAD_INPUTS.iterdir() if p.name != "manifest.jsonl"}
    assert on_disk | set(GENERATED) == listed


@pytest.mark.slow
def test_file_mixing_good_and_bad_documents_stores_none_of_them(
        base_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = _run(capsys, "ingest", str(BAD_INPUTS / "mixed_good_and_bad.jsonl"),
                      "--db", str(base_db))
    assert code == 2
    ids = {d.id for d in _documents(base_db)}
    assert ids == {d["id"] for d in BASE_DOCS[:3]}


@pytest.mark.slow
def test_one_bad_file_rejects_the_good_files_of_the_same_call(
        base_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write_jsonl(tmp_path / "more.jsonl",
                        [{"id": "extra", "text": "An extra, valid document."}])
    before = _snapshot(base_db)
    code, _, err = _run(capsys, "ingest", str(good), str(BAD_INPUTS / "empty_text.jsonl"),
                        "--db", str(base_db))
    assert code == 2
    assert "empty_text.jsonl:1: text: is empty" in err
    assert _snapshot(base_db) == before


# -- ingest: unchanged and changed documents -----------------------------------------------


@pytest.mark.slow  # ingests with e5-small
def test_reingesting_an_unchanged_document_is_a_no_op(
        base_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(base_db)
    code, out, _ = _run(capsys, "ingest", str(tmp_path / "good.jsonl"), "--db", str(base_db))
    assert code == 0
    assert "0 added, 0 replaced, 3 unchanged" in out
    code, out, _ = _run(capsys, "ingest", str(tmp_path / "good.jsonl"), "--db", str(base_db),
                        "--json")
    assert code == 0
    assert json.loads(out) == {"files": 1, "added": 0, "replaced": 0, "unchanged": 3,
                               "chunks": 0}
    assert _snapshot(base_db) == before


@pytest.mark.slow
def test_a_changed_document_replaces_the_old_version(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "kb.db"
    path = tmp_path / "tram.jsonl"
    old = {"id": "wiki-riverton-tramway", "title": "Riverton tramway", "source_type": "wiki",
           "text": "The Riverton tramway closed on 31 March 1958 after the last horse tram ran."}
    _write_jsonl(path, [old, BASE_DOCS[0]])
    assert _run(capsys, "ingest", str(path), "--db", str(db))[0] == 0
    assert len(_doc_chunks(db, old["id"])) == 1
    generation = _snapshot(db)[2]

    _write_jsonl(path, [BASE_DOCS[4], BASE_DOCS[0]])  # the long, multi-chunk version
    code, out, _ = _run(capsys, "ingest", str(path), "--db", str(db), "--json")

    assert code == 0
    report = json.loads(out)
    assert (report["added"], report["replaced"], report["unchanged"]) == (0, 1, 1)
    chunks = _doc_chunks(db, old["id"])
    assert len(chunks) > 1
    assert report["chunks"] == len(chunks)
    assert _snapshot(db)[2] > generation
    [stored] = _documents(db, [old["id"]])
    assert stored.text == RIVERTON

    code, out, _ = _run(capsys, "ask", "When did the Riverton tramway close?", "--db", str(db),
                        "--now", NOW, "--json", "-k", "10")
    assert code == 0
    answer = json.loads(out)
    texts = [e["text"] for e in answer["evidence"]]
    assert not any("1958" in t for t in texts)
    assert answer["evidence"][0]["doc_id"] == old["id"]
    assert "30 June 1961" in answer["evidence"][0]["text"]


# -- time ----------------------------------------------------------------------------------


def _time(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = _run(capsys, "time", *argv, "--json")
    assert code == 0, err
    payload: dict[str, Any] = json.loads(out)
    assert list(payload) == ["text", "start", "end", "granularity"]
    return payload


def test_time_json_prints_the_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert _time(capsys, "6 May 2021", "--now", NOW) == {
        "text": "6 May 2021", "start": "2021-05-06T00:00:00+00:00",
        "end": "2021-05-07T00:00:00+00:00", "granularity": "day"}
    assert _time(capsys, "上周二", "--now", "2026-11-25T10:00:00+00:00") == {
        "text": "上周二", "start": "2026-11-17T00:00:00+00:00",
        "end": "2026-11-18T00:00:00+00:00", "granularity": "day"}


def test_time_open_side_is_null(capsys: pytest.CaptureFixture[str]) -> None:
    assert _time(capsys, "before 1981", "--now", NOW) == {
        "text": "before 1981", "start": None, "end": "1981-01-01T00:00:00+00:00",
        "granularity": "year"}


def test_time_zone_option(capsys: pytest.CaptureFixture[str]) -> None:
    # 20:00 UTC on the 24th is already the 25th in Shanghai: "yesterday" is the 24th there.
    now = "2026-11-24T20:00:00+00:00"
    assert _time(capsys, "yesterday", "--now", now)["start"] == "2026-11-23T00:00:00+00:00"
    shanghai = _time(capsys, "yesterday", "--now", now, "--tz", "Asia/Shanghai")
    assert shanghai["start"] == "2026-11-24T00:00:00+08:00"
    assert shanghai["end"] == "2026-11-25T00:00:00+08:00"
    naive = _time(capsys, "2021", "--now", "2026-11-25T10:00:00", "--tz", "Asia/Shanghai")
    assert naive["start"] == "2021-01-01T00:00:00+08:00"


def test_time_readable_view(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "time", "before 1981", "--now", NOW)
    assert code == 0
    assert out.strip() == "before 1981: [-inf, 1981-01-01T00:00:00+00:00) year"


def test_time_unparseable_input_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "time", "purple elephants", "--now", NOW, "--json")
    assert code == 1
    assert out == ""
    assert err.startswith("error: could not read 'purple elephants' as a time")
    assert "Traceback" not in err


def test_time_unknown_zone_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "time", "2021", "--now", NOW, "--tz", "Mars/Olympus")
    assert code == 1
    assert "unknown time zone 'Mars/Olympus'" in err


# -- ask -----------------------------------------------------------------------------------


def _ask(capsys: pytest.CaptureFixture[str], db: Path, question: str,
         *extra: str) -> dict[str, Any]:
    code, out, err = _run(capsys, "ask", question, "--db", str(db), "--now", NOW, "--json",
                          *extra)
    assert code == 0, err
    payload: dict[str, Any] = json.loads(out)
    return payload


def _check_evidence_item(item: dict[str, Any]) -> None:
    for key, kind in EVIDENCE_TYPES.items():
        assert key in item, key
        assert isinstance(item[key], kind), (key, item[key])
    assert isinstance(item["start"], int) and not isinstance(item["start"], bool)
    assert 0 <= item["start"] < item["end"]
    assert all(isinstance(f, str) for f in item["flags"])
    assert {"semantic", "temporal"} <= set(item["scores"])
    assert all(isinstance(v, int | float) for v in item["scores"].values())


@pytest.mark.slow  # ask_db: ingest and ask with e5-small and the cross-encoder
def test_ask_json_has_the_contract_shape(ask_db: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    payload = _ask(capsys, ask_db, "How many days do I have to return an item?")

    assert set(payload) >= TOP_KEYS
    assert set(payload) - TOP_KEYS <= DOCUMENTED_EXTRA_KEYS
    assert payload["question"] == "How many days do I have to return an item?"
    assert payload["now"] == NOW
    assert payload["as_of"] == NOW
    assert payload["status"] in {"answered", "uncertain", "not_found"}
    assert payload["answer"] is None or isinstance(payload["answer"], str)
    assert isinstance(payload["flags"], list)
    understanding = payload["understanding"]
    assert set(understanding) >= {"content", "intent", "constraint", "time_expressions",
                                  "entities"}
    assert understanding["intent"] in {"content", "time", "count"}
    assert set(understanding["constraint"]) == {"relation", "order", "start", "end", "anchor",
                                                "confidence", "doubts"}
    assert understanding["constraint"]["confidence"] == "sure"
    assert understanding["constraint"]["relation"] == "none"
    assert understanding["time_expressions"] == []
    assert payload["evidence"], "no evidence"
    for item in [*payload["evidence"], *payload["upcoming"]]:
        _check_evidence_item(item)

    assert payload["status"] == "answered"
    assert payload["answer"] == "14 days"
    top = payload["evidence"][0]
    assert (top["doc_id"], top["status"], top["applicable"]) == ("returns-2026", "approved",
                                                                 True)
    assert top["valid_from"] is not None and top["valid_from"].startswith("2026-03-01")
    old = next(e for e in payload["evidence"] if e["doc_id"] == "returns-2024")
    assert old["applicable"] is False
    assert "superseded" in old["flags"]
    # Who displaced it, and since when: the new version's start ends the old one.
    assert old["superseded_by"] == ["returns-2026"]
    assert old["valid_until"] is not None and old["valid_until"].startswith("2026-03-01")
    assert top["superseded_by"] == [] and top["valid_until"] is None


@pytest.mark.slow
def test_ask_time_expressions_and_constraint(ask_db: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    payload = _ask(capsys, ask_db, "Who was UK prime minister on 6 May 2021?")
    understanding = payload["understanding"]
    assert understanding["time_expressions"] == [{
        "text": "6 May 2021", "start": "2021-05-06T00:00:00+00:00",
        "end": "2021-05-07T00:00:00+00:00", "granularity": "day"}]
    assert understanding["constraint"]["start"] == "2021-05-06T00:00:00+00:00"
    assert payload["as_of"] == "2021-05-06T00:00:00+00:00"
    assert payload["status"] == "answered"
    assert "Boris Johnson" in payload["answer"]
    assert payload["evidence"][0]["doc_id"] == "wiki-uk-prime-ministers"


@pytest.mark.slow
def test_ask_evidence_offsets_point_into_the_source_document(
        ask_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = _ask(capsys, ask_db, "When did the Riverton tramway close?", "-k", "10")
    store = SQLiteStore(ask_db)
    try:
        texts = {d.id: d.text for d in store.documents()}
    finally:
        store.close()
    assert payload["evidence"][0]["doc_id"] == "wiki-riverton-tramway"
    assert payload["evidence"][0]["start"] > 0, "the answer is in a later chunk"
    for item in [*payload["evidence"], *payload["upcoming"]]:
        assert texts[item["doc_id"]][item["start"]:item["end"]] == item["text"]


@pytest.mark.slow
def test_ask_as_of_sets_as_of(ask_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = _ask(capsys, ask_db, "How many days do I have to return an item?",
                   "--as-of", "2025-06-01")
    assert payload["now"] == NOW
    assert payload["as_of"] == "2025-06-01T00:00:00+00:00"
    assert payload["status"] == "answered"
    assert payload["answer"].startswith("30 days")
    assert payload["evidence"][0]["doc_id"] == "returns-2024"
    assert [u["doc_id"] for u in payload["upcoming"]] == ["returns-2026"]
    for item in payload["upcoming"]:
        _check_evidence_item(item)


@pytest.mark.slow
def test_ask_readable_view(ask_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "ask", "How many days do I have to return an item?",
                        "--db", str(ask_db), "--now", NOW)
    assert code == 0
    assert "answered: 14 days" in out
    assert "Return policy (2026 edition)" in out


@pytest.mark.slow
def test_ask_not_found_readable(ask_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "ask", "What is the capital of Australia?",
                        "--db", str(ask_db), "--now", NOW)
    assert code == 0
    assert "not_found" in out


# -- --db default --------------------------------------------------------------------------


@pytest.mark.slow  # ingests and asks with e5-small and the cross-encoder
def test_db_defaults_to_env_var(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    env_db = tmp_path / "from-env.db"
    monkeypatch.setenv("CHRONORAG_DB", str(env_db))
    corpus = _write_jsonl(tmp_path / "c.jsonl", BASE_DOCS[2:4])

    assert _run(capsys, "ingest", str(corpus))[0] == 0

    assert env_db.exists()
    assert not (tmp_path / "chronorag.db").exists()
    assert {d.id for d in _documents(env_db)} == {"returns-2024", "returns-2026"}
    code, out, _ = _run(capsys, "ask", "How many days do I have to return an item?",
                        "--now", NOW, "--json")
    assert code == 0
    assert json.loads(out)["evidence"][0]["doc_id"] == "returns-2026"


@pytest.mark.slow  # ingests with e5-small
def test_db_defaults_to_chronorag_db_in_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHRONORAG_DB", raising=False)
    corpus = _write_jsonl(tmp_path / "c.jsonl", BASE_DOCS[2:3])

    code, out, _ = _run(capsys, "ingest", str(corpus))

    assert code == 0
    assert "1 added" in out
    assert {d.id for d in _documents(tmp_path / "chronorag.db")} == {
        "returns-2024"}


# -- robustness: no traceback, reindex, embedder switch ------------------------------------
def test_unexpected_error_is_one_line_without_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        test_embedders: tuple[str, ...]) -> None:
    from chronorag.pipeline import ingest as indexer

    db = tmp_path / "kb.db"
    with SQLiteStore(db) as store:
        store.set_setting("embedder", "test-hash")
    path = tmp_path / "a.jsonl"
    path.write_text('{"id": "ok", "text": "Fine."}\n{"id": "bad", "text": "Breaks."}\n',
                    encoding="utf-8")
    real = indexer.chunk_document
    monkeypatch.setattr(indexer, "chunk_document", lambda d, **o: real(d, **o) if d.id == "ok"
                        else (_ for _ in ()).throw(KeyError("surprise")))
    assert cli.main(["ingest", str(path), "--db", str(db), "--batch", "1"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert err.startswith(f"error: {path}: document 'bad': internal error while chunking")
    with SQLiteStore(db) as store:
        assert store.document_ids() == ["ok"]


def test_any_other_internal_error_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "_dispatch", lambda args: 1 / 0)
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    assert cli.main(["time", "today"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: internal error in 'chronorag time' (ZeroDivisionError")
    assert "\n" not in err and cli.DEBUG_ENV in err


def test_switching_embedder_says_what_to_run_and_reindex_does_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        test_embedders: tuple[str, ...]) -> None:
    from chronorag.engine import Engine

    db = tmp_path / "kb.db"
    path = tmp_path / "a.jsonl"
    path.write_text('{"id": "a", "text": "The return window is 30 days."}\n', encoding="utf-8")
    with Engine(db, embedder="test-hash") as engine:
        engine.ingest([path])
        assert engine.store.setting("embedder") == "test-hash"
    with Engine(db, embedder="test-hash-b") as engine:
        with pytest.raises(Exception) as caught:
            engine.ask("return window?")
        assert "1 of 1 chunks in the store have no 'test-hash-b' vectors" in str(caught.value)
        assert f"chronorag reindex --embedder test-hash-b --db {db}" in str(caught.value)
    assert cli.main(["reindex", "--embedder", "test-hash-b", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["replaced"] == 1
    with Engine(db) as engine:  # the store now says which embedder it was built with
        assert engine.config.embedder == "test-hash-b"
        # The multilingual judges' vectors stay beside the dense embedder's.
        assert engine.store.vector_counts() == {"test-hash-b": 1, "e5-small": 1,
                                                 "use-m3": 1}
    assert cli.main(["reindex", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unchanged"] == 1


def test_a_rust_panic_is_one_line_too(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    class PanicException(BaseException):  # what pyo3 raises for a Rust panic
        pass

    def panic(args: object) -> int:
        raise PanicException("index 22 is not a char boundary\nstack backtrace: ...")

    monkeypatch.setattr(cli, "_dispatch", panic)
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    assert cli.main(["time", "today"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == ("error: internal error in 'chronorag time' (PanicException: index 22 is not "
                   "a char boundary); the store keeps its last committed state. Set "
                   f"{cli.DEBUG_ENV}=1 to see the traceback, and please report it")


# -- time --extract ------------------------------------------------------------------------


def _lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_time_extract_reads_stdin(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    text = "He has served since 2013 and meets every Monday. 会议持续三天。"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, err = _run(capsys, "time", "--extract", "--now", NOW)
    assert code == 0, err
    lines = _lines(out)
    assert [(x["text"], x["kind"], x["relation"]) for x in lines] == [
        ("since 2013", "date", "since"), ("every Monday", "set", "none"),
        ("三天", "duration", "none")]
    for x in lines:
        assert list(x)[:7] == ["text", "span", "start", "end", "granularity", "kind",
                               "relation"]
        assert text[x["span"][0]:x["span"][1]] == x["text"]
    assert lines[0]["start"] == "2013-01-01T00:00:00+00:00" and lines[0]["end"] is None


def test_time_extract_reads_a_file_and_resolves_against_now(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "news.txt"
    source.write_text("The deal closed yesterday.\n昨天下午5点开会。\n", encoding="utf-8")
    code, out, err = _run(capsys, "time", "--extract", str(source), "--now", NOW)
    assert code == 0, err
    lines = _lines(out)
    assert lines[0]["text"] == "yesterday"
    assert lines[0]["start"] == "2026-06-14T00:00:00+00:00"
    assert lines[0]["kind"] == "date" and lines[0]["value"] == "2026-06-14"
    assert lines[1]["kind"] == "time" and lines[1]["start"] == "2026-06-14T17:00:00+00:00"


def test_time_extract_bad_file_exits_2(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    code, out, err = _run(capsys, "time", "--extract", str(missing), "--now", NOW)
    assert code == 2 and out == ""
    assert err.startswith(f"error: cannot read {str(missing)!r}")
    binary = tmp_path / "latin1.txt"
    binary.write_bytes(b"caf\xe9 in 2020")
    code, out, err = _run(capsys, "time", "--extract", str(binary), "--now", NOW)
    assert code == 2 and out == "" and "UTF-8" in err


def test_time_without_expression_or_extract_exits_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "time", "--now", NOW)
    assert code == 2 and out == ""
    assert err.startswith("error: give a time expression")
