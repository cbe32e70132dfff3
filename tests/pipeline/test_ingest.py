"""Ingest in committed batches: streaming, bounded memory, errors that name the document,
unchanged detection by text + chunker version + embedder, and reindex."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from chronorag.errors import IngestError, ValidationError
from chronorag.pipeline import ingest as indexer
from chronorag.pipeline.ingest import Batching, Embedders, ingest_paths, reindex_documents
from chronorag.store.sqlite import SQLiteStore

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _jsonl(path: Path, n: int, *, text: str = "Policy {i} applies from 2021 to 2023.") -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for i in range(n):
            handle.write(json.dumps({"id": f"d{i}", "text": text.format(i=i)}) + "\n")
    return path


def _ingest(store: SQLiteStore, paths: list[Path], embedder, **options):
    return ingest_paths(store, paths, embedders=Embedders([embedder]), now=NOW, tz=UTC, **options)


def test_documents_are_committed_in_batches(tmp_path: Path, hash_embedder) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 10)
    seen: list[indexer.IngestProgress] = []
    with SQLiteStore(tmp_path / "kb.db") as store:
        before = store.generation()
        report = _ingest(store, [path], hash_embedder, batching=Batching(docs=3),
                         progress=seen.append)
        assert len(report.added) == 10 and report.chunks == 10
        assert store.generation() - before == 4  # one committed write per batch
        # Once when the file starts, then after each committed batch.
        assert [(p.done, p.total, p.chunks) for p in seen] == [
            (0, 10, 0), (3, 10, 3), (6, 10, 6), (9, 10, 9), (10, 10, 10)]
        assert {(p.file, p.files, p.path) for p in seen} == {(1, 1, str(path))}
        counts = store.count()
        assert counts["documents"] == counts["chunks"] == counts["vectors"] == 10


def test_a_large_document_is_a_batch_of_its_own(tmp_path: Path, hash_embedder) -> None:
    rows = [{"id": "small1", "text": "short one."}, {"id": "big", "text": "word " * 3000},
            {"id": "small2", "text": "short two."}]
    path = tmp_path / "a.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with SQLiteStore(tmp_path / "kb.db") as store:
        before = store.generation()
        _ingest(store, [path], hash_embedder, batching=Batching(docs=10, chars=1000))
        assert store.generation() - before == 3


def test_invalid_document_anywhere_rejects_before_any_write(tmp_path: Path,
                                                            hash_embedder) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 500)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"id": "bad", "text": "t", "valid_from": "2026-13-45"}\n')
    with SQLiteStore(tmp_path / "kb.db") as store:
        with pytest.raises(ValidationError) as caught:
            _ingest(store, [path], hash_embedder, batching=Batching(docs=7))
        assert [str(e) for e in caught.value.errors] == [
            f"{path}:501: valid_from: '2026-13-45' is not a valid ISO 8601 date"]
        assert store.count()["documents"] == 0 and store.generation() == 0


def test_internal_error_names_file_and_document_and_keeps_earlier_batches(
        tmp_path: Path, hash_embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 10)
    real = indexer.chunk_document

    def chunk(doc, **options):
        if doc.id == "d7":
            raise RuntimeError("boom")
        return real(doc, **options)

    monkeypatch.setattr(indexer, "chunk_document", chunk)
    with SQLiteStore(tmp_path / "kb.db") as store:
        with pytest.raises(IngestError) as caught:
            _ingest(store, [path], hash_embedder, batching=Batching(docs=3))
        message = str(caught.value)
        assert message.startswith(f"{path}: document 'd7': internal error while chunking")
        assert "RuntimeError: boom" in message and "\n" not in message
        # Batches d0-d2 and d3-d5 committed; d6-d8 (holding d7) left nothing behind.
        stored = {d.id for d in store.documents()}
        assert stored == {f"d{i}" for i in range(6)}
        assert store.count()["chunks"] == store.count()["vectors"] == 6
    monkeypatch.setattr(indexer, "chunk_document", real)
    with SQLiteStore(tmp_path / "kb.db") as store:
        report = _ingest(store, [path], hash_embedder, batching=Batching(docs=3))
        assert len(report.unchanged) == 6 and len(report.added) == 4


def test_embedder_failure_names_the_batch(tmp_path: Path, hash_embedder) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 4)

    class Broken:
        name, dim = "broken", 8

        def embed(self, texts, *, kind="passage"):
            raise MemoryError("out of memory")

    with SQLiteStore(tmp_path / "kb.db") as store, pytest.raises(IngestError) as caught:
        _ingest(store, [path], Broken(), batching=Batching(docs=2))
    assert f"{path}: documents 'd0' to 'd1': internal error while embedding with broken" in str(
        caught.value)


def test_unchanged_needs_same_text_chunker_and_embedder(
        tmp_path: Path, hash_embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 3)
    with SQLiteStore(tmp_path / "kb.db") as store:
        assert len(_ingest(store, [path], hash_embedder).added) == 3
        assert len(_ingest(store, [path], hash_embedder).unchanged) == 3
        other = type(hash_embedder)("test-hash-b")
        switched = _ingest(store, [path], other)
        assert len(switched.replaced) == 3
        assert store.vector_counts() == {"test-hash-b": 3}
        monkeypatch.setattr(indexer, "CHUNKER_VERSION", "999")
        assert len(_ingest(store, [path], other).replaced) == 3
        assert set(store.fingerprints(["d0"])["d0"][1].split(";")) == {
            "chunker=999", "embedders=test-hash-b", f"text={indexer.EMBED_TEXT_VERSION}"}


def test_reindex_rebuilds_only_stale_documents_and_resumes(
        tmp_path: Path, hash_embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 5)
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [path], hash_embedder)
        stamps_before = store.documents()
        report = reindex_documents(store, embedders=Embedders([hash_embedder]))
        assert report.replaced == () and len(report.unchanged) == 5
        monkeypatch.setattr(indexer, "CHUNKER_VERSION", "999")
        report = reindex_documents(store, embedders=Embedders([hash_embedder]),
                                   batching=Batching(docs=2))
        assert len(report.replaced) == 5 and report.chunks == 5
        # The documents themselves (text, dates, ingested_at) are untouched.
        assert store.documents() == stamps_before
        forced = reindex_documents(store, embedders=Embedders([hash_embedder]), force=True)
        assert len(forced.replaced) == 5


@pytest.mark.slow
def test_200k_line_file_ingests(tmp_path: Path, hash_embedder) -> None:
    path = _jsonl(tmp_path / "big.jsonl", 200_000, text="Note {i}: the meeting was moved.")
    with SQLiteStore(tmp_path / "kb.db") as store:
        report = _ingest(store, [path], hash_embedder, batching=Batching(docs=5000))
        assert len(report.added) == 200_000
        assert store.count()["vectors"] == store.count()["documents"] == 200_000


_MEASURE = """
import json, resource, sys
sys.path.insert(0, sys.argv[3])
from conftest import HashEmbedder
from datetime import datetime, UTC
from chronorag.pipeline.ingest import Embedders, ingest_paths
from chronorag.store.sqlite import SQLiteStore
store = SQLiteStore(sys.argv[2])
store.write([])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
report = ingest_paths(store, [sys.argv[1]], embedders=Embedders([HashEmbedder()]),
                      now=datetime.now(UTC), tz=UTC)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"added": len(report.added), "grew_kb": after - before}))
"""


@pytest.mark.slow
def test_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    """A 40 MB JSONL ingests with the process growing by far less than the file: texts
    are streamed a batch at a time (measured in a fresh process, by peak RSS)."""
    path = _jsonl(tmp_path / "wide.jsonl", 4_000,
                  text="Entry {i}. " + "The committee reviewed the annual report. " * 240)
    size_kb = path.stat().st_size // 1024
    assert size_kb > 38_000
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(path), str(tmp_path / "kb.db"),
                          str(Path(__file__).parents[1])], capture_output=True, text=True,
                         check=True, timeout=600)
    result = json.loads(out.stdout)
    assert result["added"] == 4_000
    assert result["grew_kb"] < size_kb / 2, (result, size_kb)


@pytest.mark.slow
def test_10_mb_document_ingests(tmp_path: Path, hash_embedder) -> None:
    paragraph = ("The council met on 6 May 2021 and again in March 2022. 会议于2023年举行。"
                 " It approved the budget. ") * 8 + "\n\n"
    text = paragraph * (10_000_000 // len(paragraph) + 1)
    path = tmp_path / "huge.md"
    path.write_text("# Minutes\n\n" + text, encoding="utf-8")
    with SQLiteStore(tmp_path / "kb.db") as store:
        report = _ingest(store, [path], hash_embedder, root=tmp_path)
        assert report.added == ("huge",)
        [doc] = store.documents()
        assert len(doc.text) >= 9_900_000  # the heading mark and line-end spaces are markup
        chunks = store.chunks()
        assert chunks[-1].end == len(doc.text)
        assert store.count()["vectors"] == len(chunks) == report.chunks


class _Counting:
    """The hash embedder, counting the texts it is asked to embed."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.dim, self.texts = inner, inner.name, inner.dim, 0
        self.scale = inner.scale

    def embed(self, texts, *, kind="passage"):
        self.texts += len(texts)
        return self.inner.embed(texts, kind=kind)


def test_a_new_chunker_version_reuses_the_vectors_of_unchanged_chunks(
        tmp_path: Path, hash_embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 4)
    counting = _Counting(hash_embedder)
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [path], counting)
        assert counting.texts == 4
        before = store.chunk_vectors([f"d{i}#0" for i in range(4)], counting.name)
        monkeypatch.setattr(indexer, "CHUNKER_VERSION", "999")
        report = reindex_documents(store, embedders=Embedders([counting]))
        assert len(report.replaced) == 4 and counting.texts == 4  # nothing embedded again
        after = store.chunk_vectors([f"d{i}#0" for i in range(4)], counting.name)
        assert all((before[k] == after[k]).all() for k in before) and len(after) == 4


def test_an_edited_document_embeds_only_its_changed_chunks(
        tmp_path: Path, hash_embedder) -> None:
    first = "\n\n".join(f"Paragraph {i} says something about policy {i}. " * 30
                        for i in range(3))
    counting = _Counting(hash_embedder)
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [_doc(tmp_path / "a.jsonl", first)], counting)
        chunks = store.count()["chunks"]
        assert chunks >= 3 and counting.texts == chunks
        edited = first.replace("Paragraph 2 says", "Paragraph 2 now says")
        report = _ingest(store, [_doc(tmp_path / "a.jsonl", edited)], counting)
        assert report.replaced == ("d",)
        assert chunks < counting.texts < 2 * chunks  # the unchanged chunks were reused
        fresh = _Counting(hash_embedder)
        with SQLiteStore(tmp_path / "fresh.db") as other:
            _ingest(other, [_doc(tmp_path / "a.jsonl", edited)], fresh)
            ids = [c.id for c in other.chunks()]
            expected = other.chunk_vectors(ids, fresh.name)
        got = store.chunk_vectors(ids, counting.name)
        assert all(np.allclose(got[k], expected[k]) for k in ids)


def test_an_old_stamp_without_a_text_version_embeds_everything(
        tmp_path: Path, hash_embedder) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 2)
    counting = _Counting(hash_embedder)
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [path], counting)
        store._conn.execute("UPDATE documents SET derivation = 'chunker=1;embedders=test-hash'")
        reindex_documents(store, embedders=Embedders([counting]))
        assert counting.texts == 4


def _doc(path: Path, text: str) -> Path:
    path.write_text(json.dumps({"id": "d", "title": "Rules", "text": text}) + "\n",
                    encoding="utf-8")
    return path


def test_token_vectors_are_stored_per_chunk_and_stamped(tmp_path: Path, hash_embedder,
                                                        hash_tokens) -> None:
    path = _doc(tmp_path / "a.jsonl", "Rex was adopted in May. " * 60)
    tokens = hash_tokens("tok")
    with SQLiteStore(tmp_path / "kb.db") as store:
        ingest_paths(store, [path], embedders=Embedders([hash_embedder], tokens=[tokens]),
                     now=NOW, tz=UTC)
        chunks = store.chunks()
        assert len(chunks) > 1
        stored = store.token_vectors([c.id for c in chunks], "tok")
        assert set(stored) == {c.id for c in chunks}
        for chunk in chunks:
            [expected] = tokens.encode([f"Rules. {chunk.text}"], kind="passage")
            np.testing.assert_allclose(stored[chunk.id], expected, atol=0.5 / 127)
        assert "tokens=tok" in store.fingerprints(["d"])["d"][1]
        # A store ingested without them gets them from reindex (the stamp differs), and
        # its chunk vectors are reused, not embedded again.
        reindex_documents(store, embedders=Embedders([hash_embedder]))
        assert store.token_vectors([c.id for c in store.chunks()], "tok") == {}
        counting = _Counting(hash_embedder)
        reindex_documents(store, embedders=Embedders([counting], tokens=[tokens]))
        assert len(store.token_vectors([c.id for c in store.chunks()], "tok")) == len(chunks)
        assert counting.texts == 0


def test_token_matrices_of_unchanged_chunks_are_reused_on_an_edit(
        tmp_path: Path, hash_embedder, hash_tokens) -> None:
    class Counting(hash_tokens):  # type: ignore[misc, valid-type]
        encoded = 0

        def encode(self, texts: Sequence[str], *, kind: str) -> list[np.ndarray]:
            self.encoded += len(texts)
            return super().encode(texts, kind=kind)

    first = "\n\n".join(f"Paragraph {i} says the rule {i} holds. " * 40 for i in range(3))
    edited = first.replace("Paragraph 2 says", "Paragraph 2 now says")
    tokens = Counting("tok")
    embedders = Embedders([hash_embedder], tokens=[tokens])
    with SQLiteStore(tmp_path / "kb.db") as store:
        ingest_paths(store, [_doc(tmp_path / "a.jsonl", first)], embedders=embedders,
                     now=NOW, tz=UTC)
        once = tokens.encoded  # each distinct chunk text once
        assert store.count()["chunks"] >= once >= 3
        ingest_paths(store, [_doc(tmp_path / "a.jsonl", edited)], embedders=embedders,
                     now=NOW, tz=UTC)
        assert 0 < tokens.encoded - once < once  # only the edited chunks again
        ids = [c.id for c in store.chunks()]
        got = store.token_vectors(ids, "tok")
    with SQLiteStore(tmp_path / "fresh.db") as other:
        ingest_paths(other, [_doc(tmp_path / "a.jsonl", edited)],
                     embedders=Embedders([hash_embedder], tokens=[hash_tokens("tok")]),
                     now=NOW, tz=UTC)
        expected = other.token_vectors([c.id for c in other.chunks()], "tok")
    assert set(got) == set(expected) == set(ids)
    assert all(np.array_equal(got[k], expected[k]) for k in ids)


def test_chinese_chunks_get_no_token_vectors(tmp_path: Path, hash_embedder,
                                             hash_tokens) -> None:
    seen: list[str] = []

    class Counting(hash_tokens):  # type: ignore[misc, valid-type]
        def encode(self, texts: Sequence[str], *, kind: str) -> list[np.ndarray]:
            seen.extend(texts)
            return super().encode(texts, kind=kind)

    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"id": "en", "text": "Rex was adopted in May."}) + "\n"
                    + json.dumps({"id": "zh", "text": "雷克斯是五月被领养的。"}) + "\n",
                    encoding="utf-8")
    tokens = Counting("tok")
    with SQLiteStore(tmp_path / "kb.db") as store:
        ingest_paths(store, [path], embedders=Embedders([hash_embedder], tokens=[tokens]),
                     now=NOW, tz=UTC)
        assert seen == ["Rex was adopted in May."]  # the late stage reads no Chinese
        assert set(store.token_vectors(["en#0", "zh#0"], "tok")) == {"en#0"}
        assert all("tokens=tok" in stamp for _, stamp in store.fingerprints(["en", "zh"]).values())
        reindex_documents(store, embedders=Embedders([hash_embedder], tokens=[tokens]),
                          force=True)
        assert seen == ["Rex was adopted in May."]  # reused, Chinese still skipped


def test_a_failing_token_encoder_names_the_document_and_stores_nothing(
        tmp_path: Path, hash_embedder) -> None:
    class Broken:
        name = "broken"

        def encode(self, texts: Sequence[str], *, kind: str) -> list[np.ndarray]:
            raise RuntimeError("model file is corrupt")

    path = _doc(tmp_path / "a.jsonl", "Rex was adopted in May.")
    with SQLiteStore(tmp_path / "kb.db") as store:
        with pytest.raises(IngestError, match="encoding tokens with broken"):
            ingest_paths(store, [path], embedders=Embedders([hash_embedder], tokens=[Broken()]),
                         now=NOW, tz=UTC)
        assert store.document_ids() == []


def test_sentence_vectors_are_stored_stamped_and_reused(
        tmp_path: Path, hash_embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps({"id": "d", "title": "Rules", "text": "One rule. Two rules. "
                                "Three rules apply from 2021."}) + "\n", encoding="utf-8")
    chunks, sentences = _Counting(hash_embedder), _Counting(type(hash_embedder)("test-hash-b"))
    embedders = Embedders([chunks], sentences=[sentences])
    with SQLiteStore(tmp_path / "kb.db") as store:
        ingest_paths(store, [path], embedders=embedders, now=NOW, tz=UTC)
        [chunk] = store.chunks()
        assert sentences.texts == len(chunk.sentences) == 3
        stored = store.sentence_vectors([chunk.id], "test-hash-b")[chunk.id]
        expected = hash_embedder.embed([f"Rules: {s.text}" for s in chunk.sentences])
        np.testing.assert_allclose(stored, expected, rtol=1e-6)
        assert "sentences=test-hash-b" in store.fingerprints(["d"])["d"][1]
        # A new chunker version: the sentences it cuts alike keep their vectors.
        monkeypatch.setattr(indexer, "CHUNKER_VERSION", "999")
        reindex_documents(store, embedders=embedders)
        assert sentences.texts == 3 and chunks.texts == 1
        np.testing.assert_array_equal(
            store.sentence_vectors([chunk.id], "test-hash-b")[chunk.id], stored)
        # Sentence vectors added to a store that had none: the chunk vectors are reused.
        other = Embedders([chunks], sentences=[_Counting(hash_embedder)])
        reindex_documents(store, embedders=other)
        assert chunks.texts == 1 and other.sentences[0].texts == 3


def test_another_chunk_embedder_beside_the_first_reuses_the_first_ones_vectors(
        tmp_path: Path, hash_embedder) -> None:
    path = _jsonl(tmp_path / "a.jsonl", 3)
    first, second = _Counting(hash_embedder), _Counting(type(hash_embedder)("test-hash-b"))
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, [path], first)
        reindex_documents(store, embedders=Embedders([first, second]))
        assert first.texts == 3 and second.texts == 3
        assert store.vector_counts() == {"test-hash": 3, "test-hash-b": 3}


def test_event_time_stands_in_only_where_a_sentence_states_no_time() -> None:
    from chronorag.ingest import chunk_document
    from chronorag.model import Document, Granularity, Interval

    said = datetime(2023, 1, 20, 16, 4, tzinfo=UTC)
    doc = Document("turn", "Lost my job yesterday.\n\nAnyway, how are you?",
                   occurred_at=Interval(said, said.replace(minute=5), Granularity.MINUTE),
                   valid_from=Interval(datetime(2023, 1, 1, tzinfo=UTC),
                                       datetime(2023, 1, 2, tzinfo=UTC), Granularity.DAY))
    [chunk] = indexer.with_event_time(doc, chunk_document(doc))
    first, second = ([m.text for m in s.mentions] for s in chunk.sentences)
    # The validity period goes everywhere; occurred_at only where the text is silent.
    assert first == ["yesterday", "valid"]
    assert second == ["occurred_at", "valid"]
