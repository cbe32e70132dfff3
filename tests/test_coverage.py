"""``chronorag coverage``: the periods a store's texts speak of, per group, the holes
between them and the documents that state no time (golden cases in tests/cases/coverage)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag import cli
from chronorag.coverage import as_table, coverage, store_coverage
from chronorag.engine import Engine
from chronorag.errors import ConfigError
from chronorag.model import Document, Interval

from .conftest import register_test_embedders

CASES = Path(__file__).parent / "cases" / "coverage"
NOW = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    register_test_embedders()
    path = tmp_path_factory.mktemp("coverage") / "kb.db"
    with Engine(path, embedder="test-hash", judges=()) as engine:
        engine.ingest([CASES / "acme.jsonl"], now=NOW)
    return path


def test_golden_by_title(db: Path) -> None:
    with Engine(db, embedder="test-hash", judges=()) as engine:
        report = engine.coverage(now=NOW)
    expected = json.loads((CASES / "acme_by_title.json").read_text(encoding="utf-8"))
    assert report.to_json() == expected
    acme = report.group("Acme")
    assert acme is not None
    asked = Interval(datetime(1993, 6, 1, tzinfo=UTC), datetime(1993, 7, 1, tzinfo=UTC))
    assert acme.missing(asked) == (acme.holes[1],)
    assert acme.missing(Interval(datetime(1992, 1, 1, tzinfo=UTC),
                                 datetime(1993, 1, 1, tzinfo=UTC))) == ()


def test_by_source_type_and_entity_and_month(db: Path) -> None:
    with Engine(db, embedder="test-hash", judges=()) as engine:
        by_type = engine.coverage(by="source_type", now=NOW).to_json()
        by_entity = engine.coverage(by="entity", now=NOW).to_json()
        months = engine.coverage(unit="month", now=NOW)
    assert {g["group"]: g["documents"] for g in by_type["groups"]} == {
        "wiki": 2, "news": 1, "policy": 2, "record": 1}
    assert [g["group"] for g in by_entity["groups"]] == ["(none)", "me"]
    returns = months.group("Returns")
    assert returns is not None and returns.to_json()["holes"] == ["2025-06–2026-02"]
    # An open validity runs to ``now`` (1 December, excluded): March to November 2026.
    units = returns.to_json()["units"]
    assert "2026-11" in units and "2026-12" not in units


def test_a_decade_or_century_is_no_record_of_it() -> None:
    from chronorag.model import Chunk, Granularity, Mention, Sentence

    era = Interval(datetime(1800, 1, 1, tzinfo=UTC), datetime(1900, 1, 1, tzinfo=UTC),
                   Granularity.CENTURY)
    sentence = Sentence("d", 0, 0, 30, "The nineteenth century.",
                        (Mention("nineteenth century", 4, 22, era),))
    report = coverage([Document(id="d", text="x", title="T")],
                      [Chunk("d#0", "d", 0, 0, 30, "x", (sentence,))], now=NOW)
    assert report.undated == 1


def test_unknown_grouping_or_unit_is_refused() -> None:
    with pytest.raises(ConfigError, match="title, source_type, entity"):
        coverage([], [], by="owner", now=NOW)
    with pytest.raises(ConfigError, match="year, month"):
        coverage([], [], unit="day", now=NOW)


@given(st.lists(st.tuples(st.integers(1, 2100), st.integers(0, 30)), max_size=12))
def test_holes_are_exactly_the_uncovered_units_inside_the_span(
        spans: list[tuple[int, int]]) -> None:
    docs = [Document(id=f"d{i}", text="x", title="T",
                     valid_from=Interval(datetime(y, 1, 1, tzinfo=UTC),
                                         datetime(y, 1, 1, tzinfo=UTC) + timedelta(days=1)),
                     valid_to=Interval(datetime(min(y + n, 9000), 1, 2, tzinfo=UTC),
                                       datetime(min(y + n, 9000), 1, 3, tzinfo=UTC)))
            for i, (y, n) in enumerate(spans)]
    group = coverage(docs, [], now=NOW).group("T")
    if not spans:
        assert group is None
        return
    assert group is not None and group.span is not None
    covered = set(group.counts)
    years = range(min(covered), max(covered) + 1)
    holed = {y for h in group.holes for y in range(h.start.year, h.end.year)}
    assert holed == set(years) - covered
    assert all(h.start.year not in covered for h in group.holes)


def test_cli_table_json_png_and_errors(db: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["coverage", "--db", str(db), "--now", "2026-12-01T00:00:00+00:00"]) == 0
    table = capsys.readouterr().out
    assert "6 document(s) in 3 group(s) by title; 1 state no time (17%)" in table
    assert "Acme: 3 doc(s), 1 undated; 1990–1995; holes 1991, 1993–1994" in table
    png = tmp_path / "coverage.png"
    assert cli.main(["coverage", "--db", str(db), "--json", "--png", str(png),
                     "--now", "2026-12-01T00:00:00+00:00"]) == 0
    assert json.loads(capsys.readouterr().out)["undated"] == 1
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert cli.main(["coverage", "--db", str(tmp_path / "missing.db")]) == 1
    assert "missing.db" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        cli.main(["coverage", "--db", str(db), "--by", "colour"])
    assert usage.value.code == 2


def test_the_table_says_when_groups_are_left_out(db: Path) -> None:
    with Engine(db, embedder="test-hash", judges=()) as engine:
        report = store_coverage(engine.store, now=NOW)
    assert as_table(report, limit=1).splitlines()[-1] == "  ... 2 more group(s) (--limit)"
