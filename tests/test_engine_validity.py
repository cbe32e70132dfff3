"""Source validity end to end: golden cases (tests/cases/engine_validity/*.yaml) through the
real Engine with the real embedding and cross-encoder models and a fixed ``now``.

Each case file is one corpus, ingested once into one module-scoped engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from chronorag import cli
from chronorag.engine import Engine
from chronorag.flags import Flag
from chronorag.model import Answer
from chronorag.rank.validity import FLAG_ORDER

# Every case runs through the real Engine: e5-small embeddings and the cross-encoder.
pytestmark = pytest.mark.slow

CASES = Path(__file__).parent / "cases" / "engine_validity"
KNOWN_FLAGS = frozenset((*FLAG_ORDER, Flag.NON_DECISIVE))
"""Evidence flags a case compares exactly (pipeline flags like time_unknown are ignored)."""


def _load(name: str) -> dict[str, Any]:
    return yaml.safe_load((CASES / name).read_text(encoding="utf-8"))


def _checks() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*.yaml")):
        for i, check in enumerate(_load(path.name)["checks"]):
            params.append(pytest.param(path.name, i, id=f"{path.stem}-{i}-{check['question']}"))
    return params


def _write_corpus(case: dict[str, Any], folder: Path) -> Path:
    path = folder / "corpus.jsonl"
    lines = [json.dumps(doc, ensure_ascii=False) for doc in case["documents"]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Engine]]:
    """One engine per case file, created on first use and shared by its checks."""
    opened: dict[str, Engine] = {}
    yield opened
    for engine in opened.values():
        engine.close()


def _engine(engines: dict[str, Engine], name: str, tmp: pytest.TempPathFactory) -> Engine:
    if name not in engines:
        case = _load(name)
        folder = tmp.mktemp(Path(name).stem)
        engine = Engine(folder / "kb.db")
        engine.ingest([_write_corpus(case, folder)],
                      now=datetime.fromisoformat(case["now"]))
        engines[name] = engine
    return engines[name]


@pytest.mark.parametrize(("name", "number"), _checks())
def test_golden_case(engines: dict[str, Engine], tmp_path_factory: pytest.TempPathFactory,
                     name: str, number: int) -> None:
    case = _load(name)
    check = case["checks"][number]
    now = datetime.fromisoformat(check.get("now", case["now"]))
    as_of = datetime.fromisoformat(check["as_of"]) if "as_of" in check else None
    answer = _engine(engines, name, tmp_path_factory).ask(check["question"], now=now,
                                                          as_of=as_of)
    _expect(answer, check["expect"])


def _expect(answer: Answer, expect: dict[str, Any]) -> None:
    got = answer.to_json()
    context = json.dumps({k: got[k] for k in ("as_of", "status", "answer", "flags")})
    assert got["status"] == expect["status"], context
    if "as_of" in expect:
        assert got["as_of"] == expect["as_of"], context
    if "answer" in expect:
        assert got["answer"] == expect["answer"], context
    for part in expect.get("answer_contains", []):
        assert part in (got["answer"] or ""), context
    for part in expect.get("answer_excludes", []):
        assert part not in (got["answer"] or ""), context
    if "deciding" in expect:
        assert got["evidence"][0]["doc_id"] == expect["deciding"], context
    if "upcoming" in expect:
        assert [u["doc_id"] for u in got["upcoming"]] == expect["upcoming"], context
    for flag in expect.get("flags", []):
        assert flag in got["flags"], context
    by_doc: dict[str, dict[str, Any]] = {}
    for item in got["evidence"]:
        by_doc.setdefault(item["doc_id"], item)
    for doc_id, want in expect.get("evidence", {}).items():
        assert doc_id in by_doc, f"{doc_id} missing from evidence; {context}"
        item = by_doc[doc_id]
        assert item["applicable"] is want["applicable"], (doc_id, item["flags"])
        assert set(item["flags"]) & KNOWN_FLAGS == set(want["flags"]), (doc_id, item["flags"])


def test_every_evidence_item_carries_metadata(engines: dict[str, Engine],
                                              tmp_path_factory: pytest.TempPathFactory,
                                              ) -> None:
    engine = _engine(engines, "replacement.yaml", tmp_path_factory)
    answer = engine.ask("How many days do I have to return an item?",
                        now=datetime.fromisoformat("2026-11-05T12:00:00+00:00"))
    first = answer.evidence[0]
    assert (first.title, first.source_type, first.status, first.owner) == (
        "Return policy 2026", "policy", "approved", "customer-care")
    assert first.valid_from == datetime.fromisoformat("2026-11-01T00:00:00+00:00")
    assert first.sentence is not None and "30 days" in first.sentence


def test_cli_as_of(engines: dict[str, Engine], tmp_path_factory: pytest.TempPathFactory,
                   capsys: pytest.CaptureFixture[str]) -> None:
    engine = _engine(engines, "not_yet_effective.yaml", tmp_path_factory)
    db = str(engine.store.path)  # type: ignore[attr-defined]
    question = "How many days do I have to return an item?"
    code = cli.main(["ask", question, "--db", db, "--now", "2026-11-05T12:00:00+00:00",
                     "--as-of", "2026-12-10T00:00:00+00:00", "--json"])
    assert code == 0
    got = json.loads(capsys.readouterr().out)
    assert got["as_of"] == "2026-12-10T00:00:00+00:00"
    assert (got["status"], got["answer"]) == ("answered", "21 days")
    assert got["evidence"][0]["doc_id"] == "policy-v2"
