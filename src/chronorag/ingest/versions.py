"""Documents that look like versions of one another, and the chains they form.

Two documents are taken for versions when their names are related — the same title, or
path stems whose words (years and version numbers left out) one holds all of the other's:
"privacy-statement" and "github-privacy-statement-2020" — and their texts overlap by at
least ``RELATED_OVERLAP``; or, whatever their texts, when they are files of one folder under
one name, years and version numbers aside (``terms.md`` and ``terms-2021.md``: a
repository holds one file of a name, so a second is a version of it, however rewritten);
or, whatever their names, when their texts overlap by
at least ``SAME_OVERLAP`` (a copy filed under another name); or, rewritten, when they keep
both title and file name and overlap by ``RELATED_OVERLAP`` counting boilerplate. Overlap
is the Jaccard similarity of the sets of word 5-shingles of the normalised texts (markup,
case and spacing removed; Han characters count as words) without the company's
boilerplate: shingles that documents of ``BOILERPLATE_GROUPS`` or more unrelated names
share. Edits keep most shingles of a version, while policies of one company share little
beyond their boilerplate (benchmarks/README.md, section 24, measures this against plain
Jaccard and a diff ratio). Candidate pairs come from MinHash banding, so a large store is
not compared pair by pair; each candidate's overlap is then computed exactly.

``version_chains`` groups the pairs into chains (connected documents), ordered by their
dates: ``valid_from``, else a proposed ``valid_from`` (``chronorag.ingest.stated``), else
``published_at``, else ``modified_at`` (stated or proposed); exact duplicates are reported
apart, first.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from itertools import combinations

import numpy as np

from chronorag.ingest.dates import DateError, parse_date
from chronorag.ingest.stated import proposals_of
from chronorag.lang import HAN
from chronorag.model import Document

__all__ = ["RELATED_OVERLAP", "SAME_OVERLAP", "Chain", "VersionPair", "overlap",
           "shingles", "version_chains", "version_pairs"]

RELATED_OVERLAP = 0.3
SAME_OVERLAP = 0.75
SHINGLE = 5
BOILERPLATE_GROUPS = 3
_PERMUTATIONS = 64
_BANDS = 32  # 2 rows a band: pairs at Jaccard 0.3 are candidates with probability ~0.95
_PRIME = (1 << 61) - 1
_WORD = re.compile(f"[{HAN}]|[^\\W_]+")
_MARKUP = re.compile(r"<!--.*?-->|[*_`#>|~\[\]()]+", re.DOTALL)
_NAME_NOISE = re.compile(r"^(?:v?\d+|\d{4}\w*|rev\d*|version|draft|final|old|new|current)$")


@dataclass(frozen=True)
class VersionPair:
    """Two documents that look like versions (``a < b``), how much their texts overlap, and
    whether their normalised texts are the same."""

    a: str
    b: str
    overlap: float
    duplicate: bool
    names_related: bool


@dataclass(frozen=True)
class Chain:
    """Documents that look like versions of one another, oldest first by their dates
    (``dates`` parallel to ``doc_ids``, ``None`` where a document has none)."""

    doc_ids: tuple[str, ...]
    dates: tuple[datetime | None, ...]
    overlap: float


def normalised(text: str) -> list[str]:
    """The words of ``text`` without markup, case folded; each Han character a word."""
    return _WORD.findall(_MARKUP.sub(" ", text).casefold())


def shingles(text: str, *, size: int = SHINGLE) -> frozenset[int]:
    """Hashes of the word ``size``-grams of ``text`` (the whole text when shorter)."""
    words = normalised(text)
    grams = ([" ".join(words)] if len(words) < size else
             [" ".join(words[i:i + size]) for i in range(len(words) - size + 1)])
    return frozenset(int.from_bytes(hashlib.blake2b(g.encode(), digest_size=8).digest(),
                                    "little") for g in grams if g)


def overlap(a: frozenset[int], b: frozenset[int]) -> float:
    """Jaccard similarity of two shingle sets (0 when both are empty)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def name_words(doc: Document) -> tuple[frozenset[str], frozenset[str]]:
    """The words of a document's path stem and of its title, without years and versions."""
    stem = doc.id.rsplit("/", 1)[-1].rsplit(":", 1)[0]
    def words(text: str) -> frozenset[str]:
        return frozenset(w for w in normalised(text.replace("-", " ").replace("_", " "))
                         if not _NAME_NOISE.match(w))
    return words(stem), words(doc.title)


def names_related(a: Document, b: Document) -> bool:
    """Same title, or one path stem's words hold all of the other's (both non-empty)."""
    (stem_a, title_a), (stem_b, title_b) = name_words(a), name_words(b)
    if title_a and title_a == title_b:
        return True
    return bool(stem_a and stem_b) and (stem_a <= stem_b or stem_b <= stem_a)


def same_title(a: Document, b: Document) -> bool:
    """The same non-empty title, years and version numbers aside."""
    title_a, title_b = name_words(a)[1], name_words(b)[1]
    return bool(title_a) and title_a == title_b


def same_file(a: Document, b: Document) -> bool:
    """The same folder and the same file name, years and version numbers aside: one file
    of a repository at two times, however much it was rewritten or retitled."""
    stem_a, stem_b = name_words(a)[0], name_words(b)[0]
    folder = a.id.rpartition("/")[0] == b.id.rpartition("/")[0]
    return folder and bool(stem_a) and stem_a == stem_b


def version_pairs(documents: Sequence[Document], *, related: float = RELATED_OVERLAP,
                  same: float = SAME_OVERLAP) -> list[VersionPair]:
    """Pairs of ``documents`` that look like versions (see the module docstring)."""
    named_pairs = _named(documents)
    raw = [shingles(d.text) for d in documents]
    sets = without_boilerplate(raw, [(i, j) for i, j in named_pairs
                                     if names_related(documents[i], documents[j])])
    keys = [" ".join(normalised(d.text)) for d in documents]
    candidates = _candidates(sets) | named_pairs
    out = []
    for i, j in sorted(candidates):
        score = overlap(sets[i], sets[j])
        duplicate = keys[i] == keys[j]
        named = names_related(documents[i], documents[j])
        # A rewrite that keeps its title and file name is a version even when little
        # beyond the company's boilerplate survives it.
        renamed = named and same_title(documents[i], documents[j])
        if (duplicate or score >= same or (named and score >= related)
                or (renamed and overlap(raw[i], raw[j]) >= related)
                or same_file(documents[i], documents[j])):
            a, b = sorted((documents[i].id, documents[j].id))
            out.append(VersionPair(a, b, score, duplicate, named))
    return out


def without_boilerplate(sets: Sequence[frozenset[int]], related: Iterable[tuple[int, int]]
                        ) -> list[frozenset[int]]:
    """Each set without the shingles found in ``BOILERPLATE_GROUPS`` or more groups of
    documents with related names (a company's contact paragraph, its "changes to this
    policy" clause): what versions of one document share stays. A document that is all
    boilerplate keeps its own set."""
    parent = list(range(len(sets)))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in related:
        parent[root(j)] = root(i)
    groups: dict[int, set[int]] = {}
    for index, items in enumerate(sets):
        for item in items:
            groups.setdefault(item, set()).add(root(index))
    common = {item for item, owners in groups.items() if len(owners) >= BOILERPLATE_GROUPS}
    return [(items - common) or items for items in sets]


def _named(documents: Sequence[Document]) -> set[tuple[int, int]]:
    """Pairs whose names may be related: they share a title or a word of their stems."""
    by_word: dict[str, list[int]] = {}
    for index, doc in enumerate(documents):
        stem, title = name_words(doc)
        for word in stem | {" ".join(sorted(title))}:
            by_word.setdefault(word, []).append(index)
    pairs: set[tuple[int, int]] = set()
    for members in by_word.values():
        if len(members) <= 64:  # a word every document shares says nothing
            pairs.update(combinations(sorted(members), 2))
    return pairs


def _candidates(sets: Sequence[frozenset[int]]) -> set[tuple[int, int]]:
    """Pairs whose MinHash signatures agree on a whole band."""
    if len(sets) < 2:
        return set()
    rng = np.random.default_rng(20240201)
    a = rng.integers(1, _PRIME, _PERMUTATIONS, dtype=np.uint64)
    b = rng.integers(0, _PRIME, _PERMUTATIONS, dtype=np.uint64)
    rows = _PERMUTATIONS // _BANDS
    buckets: dict[tuple[int, bytes], list[int]] = {}
    for index, items in enumerate(sets):
        if not items:
            continue
        values = np.fromiter(items, dtype=np.uint64) % np.uint64(_PRIME)
        # (a x + b) mod p, in wrapping uint64 arithmetic: a hash family, not exact modular
        # arithmetic, which is all MinHash needs.
        signature = ((values[None, :] * a[:, None] + b[:, None]) % np.uint64(_PRIME)).min(1)
        for band in range(_BANDS):
            key = (band, signature[band * rows:(band + 1) * rows].tobytes())
            buckets.setdefault(key, []).append(index)
    pairs: set[tuple[int, int]] = set()
    for members in buckets.values():
        if 1 < len(members) <= 256:
            pairs.update(combinations(members, 2))
    return pairs


def document_date(doc: Document) -> datetime | None:
    """When a version starts, for ordering: its validity, else what its text states, else
    when it was published, else last modified."""
    stated = {p.field: p.value for p in proposals_of(doc.metadata)}
    for value, name in ((doc.valid_from, None), (None, "valid_from"), (doc.published_at, None),
                        (doc.modified_at, None), (None, "modified_at")):
        if value is not None and value.start is not None:
            return value.start
        if name is not None and name in stated:
            moment = _stated_moment(stated[name], doc)
            if moment is not None:
                return moment
    return None


def _stated_moment(value: str, doc: Document) -> datetime | None:
    zone: tzinfo = next((v.start.tzinfo for v in (doc.valid_from, doc.published_at)
                         if v is not None and v.start is not None and v.start.tzinfo), UTC)
    try:
        return parse_date(value, tz=zone).start
    except DateError:
        return None


def _without_interlopers(dates: Mapping[str, datetime | None],
                         pairs: Sequence[VersionPair]) -> list[VersionPair]:
    """``pairs`` without those joined by text alone (names unrelated) where one document's
    date falls strictly inside the span of the other's versions of the same name. A
    renamed version comes before or after the versions of its old name, not between them;
    a document dated in between is a look-alike (another product's terms copied from the
    same template)."""
    named: dict[str, set[str]] = {}
    for pair in pairs:
        if pair.names_related:
            named.setdefault(pair.a, {pair.a}).add(pair.b)
            named.setdefault(pair.b, {pair.b}).add(pair.a)

    def inside(doc_id: str, family: set[str] | None) -> bool:
        moment = dates[doc_id]
        known = [d for d in (dates[m] for m in family or ()) if d]
        return moment is not None and len(known) >= 2 and min(known) < moment < max(known)

    return [p for p in pairs if p.names_related
            or not (inside(p.a, named.get(p.b)) or inside(p.b, named.get(p.a)))]


def version_chains(documents: Mapping[str, Document], pairs: Iterable[VersionPair]
                   ) -> list[Chain]:
    """Connected documents of ``pairs`` (duplicates left out), oldest first, undated last."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x] = parent.get(parent[x], parent[x])
        return x

    kept = [p for p in pairs if not p.duplicate]
    # Each document's date once: it parses the dates its text states.
    dates = {x: document_date(documents[x]) for p in kept for x in (p.a, p.b)}
    scores: dict[str, float] = {}
    for pair in _without_interlopers(dates, kept):
        ra, rb = root(pair.a), root(pair.b)
        parent.setdefault(ra, ra)
        parent[rb] = ra
        for x in (pair.a, pair.b):
            scores[x] = max(scores.get(x, 0.0), pair.overlap)
    groups: dict[str, list[str]] = {}
    for x in scores:
        groups.setdefault(root(x), []).append(x)
    chains = []
    for members in groups.values():
        dated = sorted(((dates[m], m) for m in members),
                       key=lambda t: (t[0] is None, t[0].timestamp() if t[0] else 0, t[1]))
        chains.append(Chain(tuple(m for _, m in dated), tuple(d for d, _ in dated),
                            min(scores[m] for m in members)))
    return sorted(chains, key=lambda c: c.doc_ids)
