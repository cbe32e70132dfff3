"""``chronorag eval retrieval DIR`` end to end on a tiny TimeQA-format folder.

The folder is written in tmp_path: four pages and eight questions (easy and hard, one hard
question without an answer); evidence spans are computed with ``text.index(answer)`` the
way shared/data/timeqa marks them.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from chronorag import cli
from chronorag.store.sqlite import SQLiteStore

KS = (1, 5, 10, 20, 50)
METHODS = ("bm25", "hybrid", "chronorag")

PAGES: dict[str, tuple[str, str]] = {
    "/wiki/Riverton_Rovers": (
        "Riverton Rovers",
        "Riverton Rovers is a football club based in the harbour town of Riverton. "
        "Tom Baker managed Riverton Rovers from 1990 to 1996 and won the regional cup twice. "
        "Alan Smith was the manager from 1996 to 2003, when the club was promoted. "
        "Owen Price led the team from 2003 to 2011. Since 2011 the club has been managed by "
        "Lucia Ferreira.",
    ),
    "/wiki/Marta_Kowal": (
        "Marta Kowal",
        "Marta Kowal is a Polish economist. She worked for Nordbank from 2001 to 2008, then "
        "joined Vistula Insurance as chief economist, where she stayed until 2015. From 2015 "
        "to 2020 she taught at the Warsaw School of Economics.",
    ),
    "/wiki/Port_Elden": (
        "Port Elden",
        "Port Elden is a fishing port on the north coast. Henrik Dahl was mayor of Port Elden "
        "from 1985 to 1994. He was succeeded by Ingrid Holm, who served until 2006. Pavel "
        "Novak was mayor from 2006 to 2018.",
    ),
    "/wiki/Ardent_Observatory": (
        "Ardent Observatory",
        "The Ardent Observatory stands on Mount Ardent. Its first director was Clara Voss, "
        "who ran it from 1952 to 1970. Samuel Reyes directed the observatory from 1970 to "
        "1988.",
    ),
}

# (id, question, level, answers, page the answers are on)
QUESTIONS: list[tuple[str, str, str, list[str], str]] = [
    ("q1", "Who managed Riverton Rovers from 1990 to 1996?", "easy", ["Tom Baker"],
     "/wiki/Riverton_Rovers"),
    ("q2", "Who was the manager of Riverton Rovers from 1996 to 2003?", "easy",
     ["Alan Smith"], "/wiki/Riverton_Rovers"),
    ("q3", "Which employer did Marta Kowal work for from 2001 to 2008?", "easy",
     ["Nordbank"], "/wiki/Marta_Kowal"),
    ("q4", "Who was mayor of Port Elden from 1985 to 1994?", "easy", ["Henrik Dahl"],
     "/wiki/Port_Elden"),
    ("q5", "Who managed Riverton Rovers between 2005 and 2007?", "hard", ["Owen Price"],
     "/wiki/Riverton_Rovers"),
    ("q6", "Which employer did Marta Kowal work for in 2010?", "hard", ["Vistula Insurance"],
     "/wiki/Marta_Kowal"),
    ("q7", "Who was mayor of Port Elden in 1999?", "hard", ["Ingrid Holm"],
     "/wiki/Port_Elden"),
    ("q8", "Who directed the Ardent Observatory in 1930?", "hard", [],
     "/wiki/Ardent_Observatory"),
]


def _write_folder(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "corpus.jsonl").open("w", encoding="utf-8") as out:
        for doc_id, (title, text) in PAGES.items():
            out.write(json.dumps({"id": doc_id, "title": title, "text": text}) + "\n")
    with (folder / "questions.jsonl").open("w", encoding="utf-8") as out:
        for qid, question, level, answers, page in QUESTIONS:
            text = PAGES[page][1]
            evidence = [{"doc_id": page, "start": text.index(a), "end": text.index(a) + len(a)}
                        for a in answers]
            out.write(json.dumps({"id": qid, "question": question, "level": level,
                                  "answers": answers, "evidence": evidence}) + "\n")
    return folder


@pytest.fixture(scope="module")
def timeqa(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write_folder(tmp_path_factory.mktemp("timeqa") / "mini")


@pytest.fixture(scope="module")
def report(timeqa: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One run of ``eval retrieval --json --plot``, shared by the shape tests."""
    png = tmp_path_factory.mktemp("plot") / "curves.png"
    pytest.importorskip("matplotlib")
    argv = ["eval", "retrieval", str(timeqa), "--json", "--methods", ",".join(METHODS),
            "--plot", str(png)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(argv)
    assert code == 0
    payload: dict[str, Any] = json.loads(out.getvalue())
    payload["_png"] = png
    return payload


def _fraction(value: Any) -> bool:
    return isinstance(value, int | float) and 0.0 <= value <= 1.0


@pytest.mark.slow  # report: the eval harness over e5-small and the cross-encoder
def test_eval_json_shape(report: dict[str, Any]) -> None:
    assert set(report["methods"]) == set(METHODS)
    for name, summary in report["methods"].items():
        for level in ("easy", "hard"):
            row = summary[level]
            for k in KS:
                assert _fraction(row[f"AR@{k}"]), (name, level, k)
                assert _fraction(row[f"ER@{k}"]), (name, level, k)
            # Recall only grows with k.
            ars = [row[f"AR@{k}"] for k in KS]
            ers = [row[f"ER@{k}"] for k in KS]
            assert ars == sorted(ars) and ers == sorted(ers), (name, level)
            assert row["AR@20"] >= row["AR@1"]
        assert _fraction(summary["hard_unanswerable_abstained"])
        assert _fraction(summary["hard_answerable_answered"])
        latency = summary["latency_ms"]
        assert set(latency) >= {"p50", "p95"}
        assert 0.0 < latency["p50"] <= latency["p95"]
    assert report["questions"] == len(QUESTIONS)


@pytest.mark.slow
def test_eval_counts_answerable_questions_per_level(report: dict[str, Any]) -> None:
    easy = sum(1 for q in QUESTIONS if q[2] == "easy" and q[3])
    hard = sum(1 for q in QUESTIONS if q[2] == "hard" and q[3])
    for summary in report["methods"].values():
        assert summary["easy"]["questions"] == easy
        assert summary["hard"]["questions"] == hard


@pytest.mark.slow
def test_eval_finds_the_answers_of_a_tiny_corpus(report: dict[str, Any]) -> None:
    # Four pages, one chunk each: every answer page is within the top 5 for every method.
    for name, summary in report["methods"].items():
        for level in ("easy", "hard"):
            assert summary[level]["AR@5"] == 1.0, (name, level)
            assert summary[level]["ER@5"] == 1.0, (name, level)


@pytest.mark.slow
def test_eval_full_pipeline_abstains_on_the_unanswerable_question(
        report: dict[str, Any]) -> None:
    # The observatory page states directors from 1952 on: nothing answers "in 1930".
    assert report["methods"]["chronorag"]["hard_unanswerable_abstained"] == 1.0


@pytest.mark.slow
def test_eval_plot_writes_a_png(report: dict[str, Any]) -> None:
    png: Path = report["_png"]
    assert png.stat().st_size > 1000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow  # ingests the corpus with e5-small
def test_eval_readable_table(timeqa: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["eval", "retrieval", str(timeqa), "--methods", "bm25", "--limit", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "AR@1" in out and "bm25" in out


def test_eval_missing_corpus_exits_nonzero(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = _write_folder(tmp_path / "broken")
    (folder / "corpus.jsonl").unlink()
    code = cli.main(["eval", "retrieval", str(folder), "--json"])
    captured = capsys.readouterr()
    assert code != 0
    assert captured.out == ""
    assert f"{folder / 'corpus.jsonl'} does not exist" in captured.err
    assert "Traceback" not in captured.err


@pytest.mark.slow  # ingests the corpus with e5-small
def test_eval_unknown_method_exits_nonzero(timeqa: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["eval", "retrieval", str(timeqa), "--methods", "bm25,nonsense"])
    captured = capsys.readouterr()
    assert code != 0
    assert "nonsense" in captured.err
    assert "Traceback" not in captured.err


def test_eval_folder_without_benchmarks_exits_nonzero(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    code = cli.main(["eval", "retrieval", str(tmp_path / "empty"), "--json"])
    captured = capsys.readouterr()
    assert code != 0 and captured.out == ""
    assert "holds no benchmark" in captured.err


@pytest.mark.slow  # ingests two small corpora with e5-small
def test_eval_folder_of_sets_reports_each(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("one", "two"):
        _write_folder(tmp_path / "sets" / name)
    (tmp_path / "sets" / "notes").mkdir()  # a folder that is no benchmark is skipped
    argv = ["eval", "retrieval", str(tmp_path / "sets"), "--methods", "bm25", "--limit", "3",
            "--db", str(tmp_path / "stores")]
    assert cli.main([*argv, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert sorted(payload["sets"]) == ["one", "two"]
    assert all(s["questions"] == 3 for s in payload["sets"].values())
    assert sorted(p.name for p in (tmp_path / "stores").iterdir()
                  if p.suffix == ".db") == ["one.db", "two.db"]
    assert cli.main(argv) == 0
    table = capsys.readouterr().out
    assert "one" in table and "two" in table and "AR@1" in table


# --- dated questions (LoCoMo-style) on the hashed test embedder: no model loads -----------

# Dialogue turns of two sessions; each turn is a document dated by when it was said.
TURNS: list[dict[str, Any]] = [
    {"id": "D1:3", "text": "Caroline: I went to a LGBTQ support group yesterday and it was "
     "so powerful.", "occurred_at": "2023-05-08T13:56:00"},
    {"id": "D1:5", "text": "Melanie: I painted a lake sunrise last year.",
     "occurred_at": "2023-05-08T14:02:00"},
    {"id": "D2:1", "text": "Caroline: I am researching adoption agencies because I want to "
     "be a mother.", "occurred_at": "2023-05-25T13:14:00"},
    {"id": "D2:4", "text": "Melanie: We went camping with the kids at the beach last weekend.",
     "occurred_at": "2023-05-25T13:20:00"},
    {"id": "D2:7", "text": "Melanie: My pottery class is on Tuesdays; I made a bowl for my "
     "daughter.", "occurred_at": "2023-05-25T13:31:00"},
]

DATED_QUESTIONS: list[dict[str, Any]] = [
    {"id": "c1", "question": "When did Caroline go to the LGBTQ support group?",
     "answers": ["7 May 2023"], "evidence": ["D1:3"], "category": 2,
     "category_name": "temporal", "now": "2023-06-10T09:00:00"},
    {"id": "c2", "question": "When did Melanie paint a lake sunrise?", "answers": ["2022"],
     "evidence": ["D1:5"], "category": 2, "category_name": "temporal",
     "now": "2023-06-10T09:00:00+00:00"},
    {"id": "c3", "question": "What is Caroline researching, and where did Melanie camp "
     "with the kids?", "answers": ["adoption agencies"], "evidence": ["D2:1", "D2:4"],
     "category": 1, "now": "2023-06-10T09:00:00", "user": "caroline"},
    {"id": "c4", "question": "What did Melanie make in her pottery class?",
     "answers": ["a bowl"], "evidence": ["D2:7"], "category": 4},
]
DATED_METHODS = ("bm25", "dense", "hybrid")


@pytest.fixture
def dated(tmp_path: Path, test_embedders: tuple[str, ...]) -> tuple[Path, Path]:
    """A dated benchmark folder and a store that records the hashed test embedder and no
    judges, so ``eval`` ingests and searches without loading a model."""
    folder = tmp_path / "dated"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text("".join(json.dumps(t) + "\n" for t in TURNS))
    (folder / "questions.jsonl").write_text(
        "".join(json.dumps(q) + "\n" for q in DATED_QUESTIONS))
    db = tmp_path / "kb.db"
    with SQLiteStore(db) as store:
        store.set_setting("embedder", "test-hash")
        store.set_setting("judges", "")
    return folder, db


def test_eval_dated_questions_json(dated: tuple[Path, Path],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder, db = dated
    argv = ["eval", "retrieval", str(folder), "--db", str(db), "--json",
            "--methods", ",".join(DATED_METHODS)]
    assert cli.main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["questions"] == len(DATED_QUESTIONS) and payload["ks"] == list(KS)
    for name in DATED_METHODS:
        summary = payload["methods"][name]
        # Grouped by category_name, else the category number.
        assert {lv for lv in summary if isinstance(summary[lv], dict)
                and "AR@1" in summary[lv]} == {"temporal", "1", "4"}, name
        for level in ("temporal", "1", "4"):
            row = summary[level]
            ers = [row[f"ER@{k}"] for k in KS]
            assert all(_fraction(v) for v in ers) and ers == sorted(ers), (name, level)
            assert row["ER@50"] == 1.0, (name, level)  # five turns: every one is retrieved
            assert _fraction(row["SA"]), (name, level)
        assert summary["temporal"]["time_golds"] == 2 and summary["4"]["time_golds"] == 0
        # Two gold turns: finding one of them at rank 1 scores a half, not a hit.
        assert summary["1"]["ER@1"] in (0.0, 0.5)
    # Keyword search puts each dated turn first; its answer names the turn's day ("7 May
    # 2023 ("yesterday", said on 8 May 2023)") and year ("2022 ("last year", ...)").
    bm25 = payload["methods"]["bm25"]["temporal"]
    assert bm25["ER@1"] == 1.0 and bm25["SA"] == 1.0


def test_eval_dated_questions_table(dated: tuple[Path, Path],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    folder, db = dated
    assert cli.main(["eval", "retrieval", str(folder), "--db", str(db),
                     "--methods", "bm25", "--tz", "Europe/Berlin"]) == 0
    out = capsys.readouterr().out
    for column in ("AR@50", "ER@50", "SA", "p50 ms", "temporal", "bm25"):
        assert column in out, column


def test_eval_rejects_a_malformed_question(dated: tuple[Path, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder, db = dated
    with (folder / "questions.jsonl").open("a") as out:
        out.write(json.dumps({"id": "bad", "question": "?", "now": "8 May 2023"}) + "\n")
    code = cli.main(["eval", "retrieval", str(folder), "--db", str(db), "--json"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert f"questions.jsonl:{len(DATED_QUESTIONS) + 1}: now: not an ISO 8601" in captured.err
