"""Sentence splitting and sentence-aligned chunking keep exact offsets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.ingest import chunk_document, split_sentences, text_size
from chronorag.ingest.formats import LAYOUT_KEY
from chronorag.model import Chunk, Document

TIMEQA = Path("/work/shared/data/timeqa/corpus.jsonl")


def _doc(text: str) -> Document:
    return Document(id="d", text=text)


def _check(doc: Document, chunks: tuple[Chunk, ...]) -> None:
    """The offset invariants every consumer relies on."""
    index = 0
    previous_end = 0
    for number, chunk in enumerate(chunks):
        assert chunk.id == f"{doc.id}#{number}" and chunk.index == number
        assert doc.text[chunk.start:chunk.end] == chunk.text
        assert chunk.text == chunk.text.strip() and chunk.text
        assert chunk.start >= previous_end
        assert chunk.sentences[0].start == chunk.start
        assert chunk.sentences[-1].end == chunk.end
        for sentence in chunk.sentences:
            assert sentence.index == index  # in order, none missing
            assert doc.text[sentence.start:sentence.end] == sentence.text
            assert chunk.start <= sentence.start < sentence.end <= chunk.end
            index += 1
        previous_end = chunk.end
    # Every non-space character is in a sentence (a cut may split a whitespace token).
    assert "".join("".join(s.text.split()) for c in chunks for s in c.sentences) == "".join(
        doc.text.split())


def test_pretokenised_english_sentences() -> None:
    text = ("The division was formed on November 27 , 1815 , in Munich . It was called "
            "the 1st Army Division between 1822 and 1848 . Dr. Smith left the U.S. in 1990 .")
    spans = split_sentences(text)
    assert [text[s:e] for s, e in spans] == [
        "The division was formed on November 27 , 1815 , in Munich .",
        "It was called the 1st Army Division between 1822 and 1848 .",
        "Dr. Smith left the U.S. in 1990 ."]


def test_chinese_and_layout_sentences() -> None:
    text = "# 标题\n\n今天我吃了午饭。下午两点开会！你来吗？\n- item one\n- item two\nEnd."
    assert [text[s:e] for s, e in split_sentences(text)] == [
        "# 标题", "今天我吃了午饭。", "下午两点开会！", "你来吗？", "- item one", "- item two",
        "End."]


def test_wrapped_lines_stay_one_sentence() -> None:
    text = "This sentence is wrapped\nover two lines. Next one."
    assert [text[s:e] for s, e in split_sentences(text)] == [
        "This sentence is wrapped\nover two lines.", "Next one."]


def test_english_chunks_are_near_target_size() -> None:
    sentence = "Ten words are in this sentence and that is all."
    doc = _doc(" ".join([sentence] * 60))
    chunks = chunk_document(doc)
    _check(doc, chunks)
    assert [text_size(c.text) for c in chunks] == [120.0, 120.0, 120.0, 120.0, 120.0]


def test_chinese_chunks_count_characters() -> None:
    sentence = "我们在二零二一年五月六日去了公园散步。"  # 18 CJK chars + full stop
    doc = _doc(sentence * 40)
    chunks = chunk_document(doc)
    _check(doc, chunks)
    assert all(len(c.text) <= 300 for c in chunks)
    assert 150 <= len(chunks[0].text) <= 300
    assert text_size("我们" * 3) == pytest.approx(4.0)


def test_long_sentence_is_cut_at_word_boundaries() -> None:
    doc = _doc(" ".join(f"w{i}" for i in range(500)) + ".")
    chunks = chunk_document(doc, max_words=200, target_words=120)
    _check(doc, chunks)
    assert [len(c.text.split()) for c in chunks] == [200, 200, 100]
    assert chunks[1].text.startswith("w200 ")


def test_long_sentence_prefers_a_comma() -> None:
    words = [f"w{i}" for i in range(300)]
    words[149] += ","
    chunks = chunk_document(_doc(" ".join(words)), max_words=200, target_words=120)
    assert chunks[0].text.endswith("w149,")


def test_long_chinese_sentence_is_cut_between_characters() -> None:
    doc = _doc("长" * 700)
    chunks = chunk_document(doc)
    _check(doc, chunks)
    assert [len(c.text) for c in chunks] == [300, 300, 100]


def test_paragraph_break_ends_a_chunk_that_is_half_full() -> None:
    para = " ".join(["Ten words are in this sentence and that is all."] * 7)
    doc = _doc(f"{para}\n\n{para}")
    chunks = chunk_document(doc)
    _check(doc, chunks)
    assert [c.text for c in chunks] == [para, para]


def test_short_tail_joins_the_previous_chunk() -> None:
    doc = _doc(" ".join(["Ten words are in this sentence and that is all."] * 13))
    chunks = chunk_document(doc)
    assert len(chunks) == 1 and text_size(chunks[0].text) == 130


def test_blank_text_has_no_chunks() -> None:
    assert chunk_document(_doc(" \n ")) == ()


def test_sentence_mentions_called_once_with_all_spans(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def fake(text: str, spans: list[tuple[int, int]], **_: object) -> list[tuple[()]]:
        calls.append(len(spans))
        return [() for _ in spans]

    monkeypatch.setattr("chronorag.ingest.chunking.sentence_mentions", fake)
    chunks = chunk_document(_doc("One. Two. Three."))
    assert calls == [3] and sum(len(c.sentences) for c in chunks) == 3


_ALPHABET = st.sampled_from(
    [*"ab cd.,!?\n\n  。！？，你好年月日 123-#\t\u3000\u2028\u00a0", "Dr. ", "\n- "])


@settings(max_examples=150, deadline=None)
@given(st.lists(_ALPHABET, max_size=400).map("".join),
       st.integers(min_value=1, max_value=40))
def test_offsets_hold_on_random_text(text: str, max_words: int) -> None:
    doc = _doc(text)
    _check(doc, chunk_document(doc, max_words=max_words, target_words=max(1, max_words // 2),
                               max_cjk_chars=max_words * 2))


@pytest.mark.slow  # reads the benchmark corpus
@pytest.mark.skipif(not TIMEQA.exists(), reason="TimeQA corpus not available")
def test_timeqa_sample() -> None:
    with TIMEQA.open(encoding="utf-8") as handle:
        rows = [json.loads(next(handle)) for _ in range(5)]
    for row in rows:
        doc = Document(id=row["id"], text=row["text"])
        chunks = chunk_document(doc)
        _check(doc, chunks)
        assert all(text_size(c.text) <= 200 for c in chunks)


def test_a_full_width_stop_ends_a_sentence_before_a_digit() -> None:
    text = "张伟于2009年至2016年担任总裁。2016年，李娜出任总裁。He said “好。”Then left."
    pieces = [text[a:b] for a, b in split_sentences(text)]
    assert pieces[:2] == ["张伟于2009年至2016年担任总裁。", "2016年，李娜出任总裁。"]


_STORED = st.recursive(st.none() | st.integers(-3, 60) | st.text(max_size=3),
                       lambda inner: st.lists(inner, max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=60), rows=_STORED, whole=st.booleans())
def test_any_stored_rows_value_is_read_or_ignored(text: str, rows: object,
                                                  whole: bool) -> None:
    """A layout's ``rows`` as a store might hold it, whatever its shape: never raises, and
    the text's characters all stay in sentences."""
    blocks = [[0, len(text)]] if text.strip() else []
    stored = [*(rows if isinstance(rows, list) else [rows]), *([blocks[0]] if whole and blocks
                                                               else [])]
    doc = Document(id="d", text=text, metadata={LAYOUT_KEY: {"blocks": blocks, "rows": stored}})
    chunks = chunk_document(doc)
    assert bool(chunks) == bool(text.strip())
    if chunks:
        _check(doc, chunks)
