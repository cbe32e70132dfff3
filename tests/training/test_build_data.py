"""The reader's training data: windows as ask cuts them, labels, variants, split, determinism."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from training.build_data import build, main, split_pages
from training.data_examples import Mix, original_labels, variant_labels
from training.data_facts import NOW, Fact, gold_time, load_facts
from training.data_pages import load_pages, page_windows
from training.data_perturb import INSIDE_KINDS, Fit, Variant, fit, make_variants

from chronorag.ingest import chunk_document
from chronorag.model import Document, Hit, Query, Relation
from chronorag.pipeline.ingest import with_event_time
from chronorag.rank.rerank_windows import WindowReranker
from chronorag.timex import parse_one
from chronorag.understand import understand

CASES = Path(__file__).parent / "cases"
PAGE = "/wiki/Ada_Example"


@pytest.fixture(scope="module")
def golden() -> tuple[Document, list[Fact]]:
    return load_pages(CASES / "corpus.jsonl")[PAGE], load_facts(CASES / "questions.jsonl")


def _by_word(doc: Document, labels: list[int | None], words: dict[str, int | None]
             ) -> dict[str, int | None]:
    windows = page_windows(doc, context=0)
    found = {}
    for word in words:
        hits = [labels[i] for i, w in enumerate(windows) if word in w.text.split(": ", 1)[1]]
        assert len(hits) == 1, word
        found[word] = hits[0]
    return found


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_golden_labels_of_the_questions_as_asked(golden: tuple[Document, list[Fact]]) -> None:
    doc, facts = golden
    expected = json.loads((CASES / "expected.json").read_text(encoding="utf-8"))
    windows = page_windows(doc, context=0)
    for short, words in expected["original"].items():
        fact = next(f for f in facts if f.qid.endswith(f"#{short}"))
        assert _by_word(doc, original_labels(windows, facts, fact), words) == words, short


def test_golden_labels_of_perturbed_questions(golden: tuple[Document, list[Fact]]) -> None:
    doc, facts = golden
    expected = json.loads((CASES / "expected.json").read_text(encoding="utf-8"))
    windows = page_windows(doc, context=0)
    for case in expected["variants"]:
        question = f"Which employer did Ada Example work for {case['phrase']}?"
        constraint = understand(question, now=NOW).constraint
        assert constraint.relation is Relation(case["relation"])
        assert constraint.interval is not None
        assert (constraint.interval.start, constraint.interval.end) == (
            _moment(case["start"]), _moment(case["end"]))
        variant = Variant("q", "case", question, case["phrase"], constraint.relation,
                          constraint.interval, True)
        labels = variant_labels(windows, facts, variant, "P108")
        assert _by_word(doc, labels, case["labels"]) == case["labels"], case["phrase"]


def test_golden_page_examples(tmp_path: Path) -> None:
    built = build(CASES, seed=13, valid_share=0.0)
    kinds = Counter(e.kind for e in built.train)
    assert kinds["original.gold"] == 3 and kinds["original.sibling"] == 6
    assert all(e.label == 0 for e in built.train if e.kind == "unanswerable.bm25")
    assert 0 < kinds["unanswerable.bm25"] <= Mix().unanswerable
    unrelated = [e for e in built.train if e.kind == "original.unrelated"]
    assert unrelated and not any(a in e.window for e in unrelated
                                 for a in ("Acme", "Bolt", "Cobalt"))
    assert len({e.id for e in built.train}) == len(built.train)
    assert len({(e.question, e.window) for e in built.train}) == len(built.train)
    assert all(e.window.startswith("Ada Example: ") for e in built.train)


@pytest.mark.parametrize("context", [0, 1])
def test_windows_are_the_ones_ask_cuts(golden: tuple[Document, list[Fact]],
                                       context: int) -> None:
    doc, _ = golden
    reranker = WindowReranker(per_chunk=1000, context=context, titles=lambda _id: doc.title)
    question = "Which employer did Ada Example work for in 1985?"
    query = Query(question, NOW, NOW, understand(question, now=NOW))
    ours = {w.text for w in page_windows(doc, context=context)}
    theirs = {text for chunk in with_event_time(doc, chunk_document(doc))
              for _, text in reranker._windows(query, Hit(chunk=chunk, score=0.0))}
    assert ours == theirs


def test_every_variant_reads_as_the_interval_it_claims(
        golden: tuple[Document, list[Fact]]) -> None:
    _, facts = golden
    dropped: Counter[str] = Counter()
    kinds = set()
    for fact in facts:
        for v in make_variants(fact, rng=random.Random(fact.qid), per_kind=3, dropped=dropped):
            _check_variant(fact, v)
            kinds.add(v.kind)
    assert {"in_year", "in_month", "in_part", "in_decade", "in_between", "before", "after",
            "shift_in", "shift_before", "shift_after"} <= kinds


def _check_variant(fact: Fact, v: Variant) -> None:
    assert fact.time is not None
    assert v.phrase in v.question and v.question != fact.question
    constraint = understand(v.question, now=NOW).constraint
    assert constraint.relation is v.relation
    assert constraint.interval is not None
    assert (constraint.interval.start, constraint.interval.end) == (v.interval.start,
                                                                    v.interval.end)
    phrase = parse_one(v.phrase, now=NOW).interval
    assert (phrase.start, phrase.end) == (v.interval.start, v.interval.end)
    assert v.inside is (v.kind in INSIDE_KINDS)
    assert fit(fact.time.interval, v.relation, v.interval) is (Fit.FIT if v.inside
                                                                else Fit.MISS)


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@given(first=st.integers(1850 * 12, 2020 * 12), length=st.integers(0, 300),
       monthly=st.booleans(), seed=st.integers(0, 1000))
def test_variants_of_any_period_read_as_claimed(first: int, length: int, monthly: bool,
                                                seed: int) -> None:
    last = first + length

    def name(i: int) -> str:
        return f"{_MONTHS[i % 12]} {i // 12}" if monthly else str(i // 12)

    question = f"Which club did Ada Example play for from {name(first)} to {name(last)}?"
    time = gold_time(question)
    if time is None:  # "from 1990 to 1990" and the like
        return
    fact = Fact("p#P54#q0", "p", "P54", question, "", ("Club",), ((0, 1),), time)
    for v in make_variants(fact, rng=random.Random(seed), per_kind=1, dropped=Counter()):
        _check_variant(fact, v)


def _pages(tmp_path: Path, count: int) -> Path:
    """``count`` copies of the golden page under other names, in TimeQA format."""
    corpus = json.loads((CASES / "corpus.jsonl").read_text(encoding="utf-8"))
    questions = [json.loads(line) for line in
                 (CASES / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    docs, qs = [], []
    for k in range(count):
        name = f"Ada Example{k}"
        page = f"{PAGE}{k}"
        docs.append({"id": page, "title": name,
                     "text": corpus["text"].replace("Ada Example", name)})
        for q in questions:
            qs.append({**q, "id": q["id"].replace(PAGE, page),
                       "question": q["question"].replace("Ada Example", name),
                       "evidence": [{**e, "doc_id": page,
                                     "start": e["start"] + len(f"{k}") * 2,
                                     "end": e["end"] + len(f"{k}") * 2}
                                    for e in q["evidence"]]})
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "corpus.jsonl").write_text(
        "".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    (tmp_path / "questions.jsonl").write_text(
        "".join(json.dumps(q) + "\n" for q in qs), encoding="utf-8")
    return tmp_path


def test_the_split_is_by_page(tmp_path: Path) -> None:
    built = build(_pages(tmp_path / "data", 6), seed=5, valid_share=0.34)
    train, valid = {e.page for e in built.train}, {e.page for e in built.valid}
    assert train and valid and not train & valid
    assert train | valid == {f"{PAGE}{k}" for k in range(6)}
    assert sum(e.label for e in built.train) > 0


@given(pages=st.sets(st.text(min_size=1, max_size=8), max_size=40),
       seed=st.integers(0, 100), share=st.floats(0.0, 0.5))
def test_split_pages_is_a_seeded_function_of_the_set(pages: set[str], seed: int,
                                                     share: float) -> None:
    ordered = sorted(pages)
    valid = split_pages(ordered, seed=seed, valid_share=share)
    assert valid == split_pages(list(reversed(ordered)), seed=seed, valid_share=share)
    assert valid <= pages
    if len(pages) >= 2:
        assert 1 <= len(valid) < len(pages)


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    data = _pages(tmp_path / "data", 3)
    outs = [tmp_path / name for name in ("a", "b", "c")]
    for out, seed in zip(outs, (13, 13, 14), strict=True):
        assert main(["--data", str(data), "--out", str(out), "--seed", str(seed),
                     "--valid-share", "0.34"]) == 0
    for name in ("train.jsonl", "valid.jsonl", "summary.json"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    assert (outs[0] / "train.jsonl").read_bytes() != (outs[2] / "train.jsonl").read_bytes()
    row = json.loads((outs[0] / "train.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert list(row) == ["id", "page", "question", "window", "label", "kind"]


_PIECES = st.sampled_from([*"ab Z19 .,;:!?()\n\t-–", " 1998 ", "from", "to", "年", "月", "。",
                           "\u3000", "\n\n"])
# Prose-like pieces (dates, stops, line breaks, Chinese) and any text at all.
_TEXT = st.lists(_PIECES, max_size=120).map("".join) | st.text(max_size=200)


@given(text=_TEXT, title=st.text(max_size=12), context=st.integers(0, 2))
def test_windows_survive_any_text(text: str, title: str, context: int) -> None:
    doc = Document(id="d", text=text, title=title)
    windows = page_windows(doc, context=context)
    prefix = f"{title}: " if title else ""
    assert [w.index for w in windows] == sorted({w.index for w in windows})
    for w in windows:
        assert 0 <= w.low <= w.start < w.end <= w.high <= len(text)
        assert w.text.startswith(prefix) and text[w.start:w.end] in w.text
        if context == 0:
            assert w.text == prefix + text[w.start:w.end]
