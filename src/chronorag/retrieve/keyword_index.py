"""The BM25 index of a catalog's rows, updated row by row and saved beside the store.

Terms are the ones :func:`~chronorag.retrieve.keyword.document_terms` gives (words,
jieba pieces, pinyin of Chinese names); only rows added since the previous index are
tokenised, the others keep their counts, and the scores are re-derived for all (the idf
and the mean length change with every row).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chronorag.retrieve.bm25 import Postings, ScoreMatrix, TermTable, score_matrix
from chronorag.retrieve.index import top_rows
from chronorag.retrieve.terms import document_terms, query_terms

# Texts tokenised at a time, and the number of texts from which the whole vocabulary is
# read into a dict rather than looked up a term at a time (a bisection each).
_BATCH = 8192
_BULK = 20_000


@dataclass(frozen=True)
class KeywordIndex:
    """Vocabulary, per-row term counts and the BM25 score matrix of one set of rows."""

    terms: TermTable
    postings: Postings
    matrix: ScoreMatrix

    @classmethod
    def build(cls, texts: Sequence[str], previous: KeywordIndex | None,
              keep: np.ndarray | None, *, k1: float = 1.5, b: float = 0.75) -> KeywordIndex:
        """The rows of ``previous`` where ``keep``, then one row for each of ``texts``.

        Texts are tokenised a batch at a time (a million chunks' tokens at once would not
        fit in memory); new terms take provisional ids after the old ones, and one pass
        at the end puts the vocabulary back in order.
        """
        table = previous.terms if previous is not None else TermTable.empty()
        old = previous.postings if previous is not None else Postings.empty()
        if keep is not None:
            old = old.select(keep)
        ids = _TermIds(table, bulk=len(texts) > _BULK)
        parts = [old]
        for lo in range(0, len(texts), _BATCH):
            rows = [ids.row(document_terms(text)) for text in texts[lo:lo + _BATCH]]
            parts.append(Postings.from_token_ids(rows))
        postings = Postings.concat_all(parts)
        if ids.added:
            table, mapping = ids.ordered()
            postings = postings.renumbered(mapping)
        return cls(table, postings, score_matrix(postings, vocabulary=len(table), k1=k1, b=b))

    def search(self, text: str, *, limit: int, mask: np.ndarray | None,
               rank: np.ndarray) -> list[tuple[int, float]]:
        """Rows with a positive score for ``text`` among ``mask``, best first (ties in
        ``rank`` order), with their scores."""
        n = self.postings.rows
        if n == 0 or limit <= 0:
            return []
        ids = [i for i in (self.terms.lookup(t) for t in query_terms(text)) if i is not None]
        if not ids:
            return []
        scores = self.matrix.score(ids, n_rows=n)
        if mask is not None:
            scores[~mask] = 0.0
        hit = np.flatnonzero(scores > 0)
        best = hit[top_rows(scores[hit], limit, rank[hit])]
        return [(int(r), float(scores[r])) for r in best]

    def arrays(self) -> dict[str, np.ndarray]:
        return {"terms.blob": self.terms.blob, "terms.ptr": self.terms.ptr,
                "postings.ptr": self.postings.ptr, "postings.terms": self.postings.terms,
                "postings.counts": self.postings.counts,
                "postings.lengths": self.postings.lengths, "matrix.ptr": self.matrix.ptr,
                "matrix.rows": self.matrix.rows, "matrix.scores": self.matrix.scores}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, Any]) -> KeywordIndex:
        return cls(TermTable(arrays["terms.blob"], arrays["terms.ptr"]),
                   Postings(arrays["postings.ptr"], arrays["postings.terms"],
                            arrays["postings.counts"], arrays["postings.lengths"]),
                   ScoreMatrix(arrays["matrix.ptr"], arrays["matrix.rows"],
                               arrays["matrix.scores"]))


KEYWORD_ARRAYS = ("terms.blob", "terms.ptr", "postings.ptr", "postings.terms",
                  "postings.counts", "postings.lengths", "matrix.ptr", "matrix.rows",
                  "matrix.scores")


class _TermIds:
    """Term ids while rows are added: a table's own, then provisional ones for new terms."""

    def __init__(self, table: TermTable, *, bulk: bool) -> None:
        self._table = table
        # Every term met so far, old or new; in bulk the whole table up front.
        self.known: dict[str, int] = (
            {t: i for i, t in enumerate(table.tolist())} if bulk else {})
        self._bulk = bulk
        self.added: list[str] = []

    def row(self, terms: list[str]) -> list[int]:
        known = self.known
        return [known[t] if t in known else self._miss(t) for t in terms]

    def _miss(self, term: str) -> int:
        found = None if self._bulk else self._table.lookup(term)
        if found is None:
            found = len(self._table) + len(self.added)
            self.added.append(term)
        self.known[term] = found
        return found

    def ordered(self) -> tuple[TermTable, np.ndarray]:
        """The sorted table of old and new terms, and each (provisional) id's place in it."""
        terms = self._table.tolist() + self.added
        order = sorted(range(len(terms)), key=terms.__getitem__)
        mapping = np.empty(len(terms), np.int64)
        mapping[order] = np.arange(len(terms), dtype=np.int64)
        table = TermTable.from_list([terms[i] for i in order])
        return TermTable(table.blob, table.ptr), mapping
