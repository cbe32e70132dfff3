"""``chronorag conditions list|declare|drop`` and ``ask --context`` (``chronorag.cli``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run_cli as _run

CORPUS = Path(__file__).parents[1] / "cases" / "conditions"


@pytest.fixture
def kb(tmp_path: Path, capsys: pytest.CaptureFixture[str], no_models: None) -> Path:
    db = tmp_path / "kb.db"
    code, _, err = _run(capsys, "conditions", "declare", "region", "EU", "US", "CN", "HK",
                        "--db", str(db))
    assert (code, err) == (0, f"created a new store at {str(db)!r}\n")
    assert _run(capsys, "conditions", "declare", "segment", "business", "consumer",
                "--db", str(db))[0] == 0
    code, _, err = _run(capsys, "ingest", str(CORPUS / "corpus.jsonl"), "--db", str(db))
    assert code == 0, err
    return db


def test_declared_keys_are_listed_as_text_and_json(kb: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "conditions", "list", "--db", str(kb))
    assert (code, out) == (0, "region: CN, EU, HK, US\nsegment: business, consumer\n")
    code, out, _ = _run(capsys, "conditions", "declare", "channel", "--db", str(kb), "--json")
    assert json.loads(out) == {"conditions": {"channel": [], "region": ["CN", "EU", "HK", "US"],
                                              "segment": ["business", "consumer"]}}
    code, out, _ = _run(capsys, "conditions", "list", "--db", str(kb))
    assert "channel: (any value)" in out


def test_a_key_in_use_is_not_dropped_and_a_free_one_is(kb: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "conditions", "drop", "region", "--db", str(kb))
    assert code == 2 and "condition 'region' is used by 3 stored document(s)" in err
    _run(capsys, "conditions", "declare", "channel", "--db", str(kb))
    code, out, _ = _run(capsys, "conditions", "drop", "channel", "--db", str(kb))
    assert code == 0 and "channel" not in out


def test_listing_a_store_that_does_not_exist_says_so(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "conditions", "list", "--db", str(tmp_path / "nope.db"))
    assert code == 1 and "no store at" in err
    assert not (tmp_path / "nope.db").exists()


def test_an_undeclared_condition_rejects_the_file(tmp_path: Path, no_models: None,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "kb.db"
    code, _, err = _run(capsys, "ingest", str(CORPUS / "corpus.jsonl"), "--db", str(db))
    assert code == 2
    assert f"{CORPUS / 'corpus.jsonl'}:2: applies_to: condition 'region' is not declared" in err
    assert not db.exists()


@pytest.mark.slow  # ask loads the cross-encoder
def test_ask_with_context(kb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    question = "How many days do I have to return an item?"
    code, out, _ = _run(capsys, "ask", question, "--db", str(kb), "--now", "2026-06-01",
                        "--context", "region=US", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["context"] == {"region": "US"}
    assert answer["answer"] == "14 days"
    eu = next(e for e in answer["evidence"] if e["doc_id"] == "returns-eu")
    assert eu["applies_to"] == {"region": ["EU"]} and "not_applicable" in eu["flags"]
    code, out, _ = _run(capsys, "ask", question, "--db", str(kb), "--now", "2026-06-01")
    assert "(otherwise)" in out and "for region: EU" in out and "flags: variants" in out
    code, _, err = _run(capsys, "ask", question, "--db", str(kb), "--context", "regoin=EU")
    assert code == 2 and "condition 'regoin' is not declared" in err
    code, _, err = _run(capsys, "ask", question, "--db", str(kb), "--context", "region")
    assert code == 2 and "must be KEY=VALUE" in err
