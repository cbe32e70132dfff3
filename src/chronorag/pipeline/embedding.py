"""The vectors ingest stores: each chunk's, each sentence's and each chunk's token
matrices, reusing stored ones.

A chunk is embedded with its page's title before it (``embed_text``); a sentence as
"title: sentence" (``sentence_texts``), the form the window rerankers read, because a lone
sentence ("He was prime minister from 2022") rarely names its subject. Vectors of texts a
stored version of a document already had embedded are read back, not recomputed, when
the stamps allow (``chronorag.store.base.reusable_embedders``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from chronorag.errors import ChronoragError
from chronorag.model import Chunk, Document
from chronorag.rank.late import TokenEncoder
from chronorag.rank.rerank_windows import window_text
from chronorag.retrieve.base import Embedder
from chronorag.store.base import CorpusStore, reusable_embedders

# The version of how chunks and sentences are written for the embedders (``embed_text``,
# ``sentence_texts``, hence ``window_text``): stored vectors are reused across chunker
# versions only while it is unchanged, so bump it with any change to either.
EMBED_TEXT_VERSION = "1"

Known = dict[str, dict[str, np.ndarray]]
"""Per embedder name, the stored vector of each text."""


@dataclass(frozen=True)
class Reuse:
    """Stored vectors that may serve this batch: of chunk texts, of sentence texts and
    the token matrices of chunk texts."""

    chunks: Known
    sentences: Known
    tokens: Known


def embed_text(doc: Document, chunk: Chunk) -> str:
    """The text a chunk is embedded as: the stored chunk text and its offsets stay the
    source's own, but the title disambiguates chunks of long pages ("He was succeeded by
    ...")."""
    if doc.title and not chunk.text.startswith(doc.title):
        return f"{doc.title}. {chunk.text}"
    return chunk.text


def sentence_texts(doc: Document, chunk: Chunk) -> list[str]:
    """The texts a chunk's sentences are embedded as, in order: each the one-sentence
    window the window rerankers read."""
    return [window_text(chunk, p, context=0, title=doc.title)
            for p in range(len(chunk.sentences))]


def stored_vectors(store: CorpusStore, docs: Sequence[Document],
                   stored: Mapping[str, tuple[str, str]], *, stamp: str,
                   known_docs: Mapping[str, Document]) -> Reuse:
    """The stored vectors of the texts the stored versions of ``docs`` had embedded, per
    embedder whose stamp allows reuse (``stored``: id -> (content hash, derivation)), so
    a new chunker version or an edit elsewhere in a document costs no embedding for the
    texts that are unchanged. ``known_docs`` are stored versions already at hand."""
    usable = {part: {d.id: reusable_embedders(stored[d.id][1], stamp, part=part)
                     for d in docs if d.id in stored}
              for part in ("embedders", "sentences", "tokens")}
    ids = sorted({i for names in usable.values() for i, n in names.items() if n})
    if not ids:
        return Reuse({}, {}, {})
    old = {i: known_docs[i] for i in ids if i in known_docs}
    missing = [i for i in ids if i not in old]
    old.update((d.id, d) for d in (store.documents(missing) if missing else ()))
    chunks = [c for c in store.chunks(sorted(store.chunk_ids_of(ids))) if c.doc_id in old]
    reuse = Reuse({}, {}, {})
    for name in set().union(*usable["embedders"].values()):
        mine = [c for c in chunks if name in usable["embedders"].get(c.doc_id, ())]
        vectors = store.chunk_vectors([c.id for c in mine], name)
        reuse.chunks[name] = {embed_text(old[c.doc_id], c): vectors[c.id]
                              for c in mine if c.id in vectors}
    for name in set().union(*usable["sentences"].values()):
        mine = [c for c in chunks if name in usable["sentences"].get(c.doc_id, ())]
        matrices = store.sentence_vectors([c.id for c in mine], name)
        reuse.sentences[name] = {
            text: row for c in mine
            if c.id in matrices and len(matrices[c.id]) == len(c.sentences)
            for text, row in zip(sentence_texts(old[c.doc_id], c), matrices[c.id],
                                 strict=True)}
    for name in set().union(*usable["tokens"].values()):
        mine = [c for c in chunks if name in usable["tokens"].get(c.doc_id, ())]
        tokens = store.token_vectors([c.id for c in mine], name)
        reuse.tokens[name] = {embed_text(old[c.doc_id], c): tokens[c.id]
                              for c in mine if c.id in tokens}
    return reuse


def embed(embedder: Embedder, texts: Sequence[str], known: Mapping[str, np.ndarray]
          ) -> np.ndarray:
    """``texts`` embedded as passages, taking the vectors in ``known`` instead of
    recomputing them; a ``(0, dim)`` matrix for no texts."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    missing = [t for t in dict.fromkeys(texts) if t not in known]
    fresh = embedder.embed(missing, kind="passage") if missing else None
    if fresh is not None and any(v.shape != fresh.shape[1:] for v in known.values()):
        return embedder.embed(list(texts), kind="passage")  # another size: trust nothing old
    vectors = dict(known)
    if fresh is not None:
        vectors.update(zip(missing, np.asarray(fresh, dtype=np.float32), strict=True))
    return np.stack([vectors[t] for t in texts]).astype(np.float32)


def token_matrices(encoders: Sequence[TokenEncoder], texts: Sequence[str], *,
                   read: Sequence[bool], known: Mapping[str, Mapping[str, np.ndarray]],
                   on_error: Callable[[str, BaseException], Exception]
                   ) -> dict[str, list[np.ndarray]]:
    """Per token encoder, one token matrix of each of ``texts`` (the chunks' embedded
    texts), taking those in ``known[name]`` instead of encoding them again. A text whose
    ``read`` is false (a chunk late interaction does not read) gets a matrix of no rows,
    which the store does not keep. A failure of an encoder is raised as
    ``on_error(name, exc)``."""
    out: dict[str, list[np.ndarray]] = {}
    wanted = [t for t, r in zip(texts, read, strict=True) if r]
    for encoder in encoders if texts else ():
        stored = known.get(encoder.name, {})
        missing = [t for t in dict.fromkeys(wanted) if t not in stored]
        try:
            matrices = encoder.encode(missing, kind="passage") if missing else []
        except (ChronoragError, KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except BaseException as exc:  # a bug or a broken model: name it, store nothing
            raise on_error(encoder.name, exc) from exc
        if len(matrices) != len(missing):
            raise on_error(encoder.name, ValueError(
                f"{len(matrices)} token matrices for {len(missing)} texts"))
        fresh = dict(zip(missing, matrices, strict=True))
        dim = next((np.shape(m)[1] for m in (*matrices, *stored.values())), 1)
        none = np.zeros((0, dim), dtype=np.float32)
        out[encoder.name] = [(fresh[t] if t in fresh else stored[t]) if r else none
                             for t, r in zip(texts, read, strict=True)]
    return out
