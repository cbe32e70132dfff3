"""Any valid UTF-8 is input ingest must survive: front matter, JSONL lines, date fields and
the chunker either accept it or name what is wrong (``path:line: field: reason``)."""

from __future__ import annotations

import json
import os
from datetime import UTC
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronorag.errors import ValidationError
from chronorag.ingest import DateError, chunk_document, load_paths, parse_date
from chronorag.ingest.frontmatter import split_front_matter
from chronorag.model import Document

# Every code point but surrogates (not encodable as UTF-8), weighted towards the characters
# that steer the parsers: digits, date punctuation, YAML syntax, CJK and line breaks.
ANY = st.characters(exclude_categories=("Cs",))
STEERING = st.sampled_from(list("0123456789-:T+Z./ \n\t\r\u2028\u3000年月日上周二前后"
                                "{}[]\"'#---...,"))
TEXT = st.lists(st.one_of(ANY, STEERING), max_size=300).map("".join)
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(text=TEXT)
def test_chunker_keeps_offsets_on_any_text(text: str) -> None:
    if not text.strip():
        return
    doc = Document(id="d", text=text)
    for chunk in chunk_document(doc):
        assert text[chunk.start:chunk.end] == chunk.text
        for sentence in chunk.sentences:
            assert text[sentence.start:sentence.end] == sentence.text
            for mention in sentence.mentions:
                iv = mention.interval
                assert iv.start is None or iv.start.tzinfo is not None
                assert iv.start is None or iv.end is None or iv.start < iv.end


@FUZZ
@given(text=TEXT)
def test_front_matter_never_raises(text: str) -> None:
    front = split_front_matter(text)
    assert front.error is None or front.error_line >= 0


@FUZZ
@given(value=st.one_of(TEXT, st.integers(), st.floats(), st.booleans(), st.none()))
def test_date_field_is_an_interval_or_a_date_error(value: object) -> None:
    try:
        interval = parse_date(value, tz=UTC)
    except DateError:
        return
    assert interval.start is not None and interval.start.tzinfo is not None
    if interval.end is None:  # the last period of year 9999 has no representable end
        assert interval.start.year == 9999
    else:
        assert interval.start < interval.end


def _check(path: Path) -> None:
    try:
        files = load_paths([path], root=path.parent)
    except ValidationError as exc:
        for error in exc.errors:
            assert error.path == str(path) and error.line >= 0 and error.field
            assert "\n" not in error.reason
        return
    for source in files:
        for document in source.documents:
            assert document.text.strip()


@FUZZ
@given(lines=st.lists(st.one_of(TEXT, TEXT.map(lambda t: json.dumps({"id": t, "text": t}))),
                      max_size=5))
def test_any_jsonl_file_loads_or_names_each_problem(tmp_path_factory, lines: list[str]) -> None:
    path = tmp_path_factory.mktemp("jsonl") / "a.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    _check(path)


@FUZZ
@given(text=TEXT)
def test_any_markdown_file_loads_or_names_each_problem(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("md") / "a.md"
    path.write_text(text, encoding="utf-8")
    _check(path)


WIDE_SPACES = "\x85\xa0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000"


def test_wide_space_before_a_period_splits_without_a_panic() -> None:
    from chronorag.ingest import split_sentences

    for space in WIDE_SPACES:
        text = f"Mr. E{space}. Smith came in 2021. He left."
        spans = split_sentences(text)
        assert spans and spans[-1][1] == len(text)
        assert all(text[a:b].strip() == text[a:b] for a, b in spans)


def test_a_panicking_splitter_falls_back_to_punctuation(monkeypatch) -> None:
    from chronorag.ingest import sentences

    class PanicException(BaseException):  # what pyo3 raises for a Rust panic
        pass

    class Broken:
        @staticmethod
        def segment(language: str, block: str) -> list[str]:
            raise PanicException("index is not a char boundary")

    monkeypatch.setattr(sentences, "_sentencex", lambda: Broken)
    text = "First one. Second one! 第三句。Fourth"
    assert [text[a:b] for a, b in sentences.split_sentences(text)] == [
        "First one.", "Second one!", "第三句。", "Fourth"]
