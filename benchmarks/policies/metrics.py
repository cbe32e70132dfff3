"""How run.py judges the product's output against truth.json and questions.jsonl.

Pure functions over JSON already parsed, so each judgement can be read (and checked by
hand) apart from the subprocess plumbing: doc ids, short answers, headings, cut sentences,
version pairs proposed by ``review``, and the dates the product says a document states.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUFFIXES = (".md", ".markdown", ".txt", ".html", ".htm", ".pdf", ".docx")

_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKS = re.compile(r"(\*\*|__|\*|`|~~)")
_LEAD = re.compile(r"^\s*(#{1,6}\s+|[-*+•]\s+|\d+[.)]\s+|>\s*)")
_END_PUNCT = ".!?。！？;；:：)）\"”’»"
# A sentence that "ends" on one of these did not end: the splitter stopped inside them.
_ABBREV_END = re.compile(r"(\b[A-Z]\.|\b(?:e\.g|i\.e|etc|No|Nos|Mr|Mrs|Ms|Dr|vs|cf|approx|"
                         r"Inc|Ltd|Corp|Co|St|Sec|Art|para|pp|U\.S|U\.K|E\.U)\.)$")


def to_corpus_id(product_id: object, known: Mapping[str, str]) -> str | None:
    """The corpus id a product doc id stands for, or None.

    The product may give ids relative to another root (``corpus/github/x``), with the file
    suffix, with ``./`` or an absolute path; any of those ending in ``/<corpus id>`` counts.
    """
    if not isinstance(product_id, str) or not product_id:
        return None
    pid = product_id.replace("\\", "/").removeprefix("./")
    for suffix in SUFFIXES:
        if pid.lower().endswith(suffix):
            pid = pid[: -len(suffix)]
            break
    if pid in known:
        return known[pid]
    for cid in known:
        if pid.endswith("/" + cid):
            return known[cid]
    return None


def plain(text: str) -> str:
    """Markdown markup and spacing removed, for comparing a span with an answer."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = _LINK.sub(r"\1", text)
    text = _MARKS.sub("", text)
    text = _LEAD.sub("", text)
    return text.strip()


def norm(text: str) -> str:
    """The form two short answers are compared in: plain, no whitespace, case-folded, no
    closing punctuation (Chinese text has no spaces, so spaces carry no meaning here)."""
    out = re.sub(r"\s+", "", plain(text)).casefold()
    return out.rstrip(".,;:!?。，；：！？、")


def exact(answer: str | None, gold: str, accept: Iterable[str] = ()) -> bool:
    return answer is not None and norm(answer) in {norm(g) for g in (gold, *accept)}


def headings_of(path: Path) -> set[str]:
    """Heading lines of a Markdown or HTML file, normalised (PDF: none can be told)."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return set()
    text = path.read_text(encoding="utf-8", errors="replace")
    found: list[str] = []
    if suffix in (".html", ".htm"):
        found = re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", text, flags=re.S | re.I)
    else:
        found = [m.group(1) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, flags=re.M)]
        # Setext headings: a line underlined with === or ---.
        found += re.findall(r"^([^\n#|>-][^\n]*)\n(?:=+|-+)[ \t]*$", text, flags=re.M)
        # A line that is bold and nothing else acts as a heading too.
        found += re.findall(r"^\s*\*\*([^*\n]+)\*\*\s*$", text, flags=re.M)
    return {norm(h) for h in found if norm(h)}


def is_heading(answer: str | None, headings: set[str]) -> bool:
    return bool(answer) and norm(answer or "") in headings


def _words(text: str) -> int:
    return len(re.findall(r"[A-Za-z0-9]+", text)) + len(re.findall(r"[\u3400-\u9fff]", text)) // 2


# What stands before a sentence's first word: nothing, a line break, a sentence's end.
_OPENS = ("", "\n", ".", "!", "?", "。", "！", "？")


def is_cut(answer: str | None, sources: Iterable[str]) -> bool:
    """True when an answer that reads as a sentence stops before the sentence does.

    Two signs: it ends on an abbreviation ("... the EU-U."), or it is sentence-sized (six
    words or more), ends without closing punctuation, and the source does not end a line,
    a table cell or a clause right after it (a list item or a cell may end without a full
    stop; a phrase taken from a sentence, "such as the position, size, views and clicks on
    New Tab content or ads, to understand …", ends where a comma, semicolon or bracket
    does, which no sentence splitter cuts at; the tail of a sentence ends where it does).
    """
    if not answer:
        return False
    text = plain(answer).rstrip()
    if _ABBREV_END.search(text):
        return True
    if _words(text) < 6 or text.endswith(tuple(_END_PUNCT)):
        return False
    pattern = re.compile(r"\s+".join(re.escape(w) for w in text.split()))
    for source in sources:
        found = pattern.search(plain_lines(source))
        if found:
            rest = found.string[found.end():]
            ends_clause = rest.lstrip(" \t")[:1] in (",", ";", ")", "，", "；", "）")
            # A full stop right after the span ends its sentence ("… remain active for
            # the length of the paid billing period."); one with a letter after it is
            # inside an abbreviation ("the EU-U" of "EU-U.S.").
            ends_sentence = re.match(r"[.!?](?:\s|$)|[。！？]", rest.lstrip(" \t")) is not None
            # A sentence's opening words up to a comma are a cut sentence, not a phrase.
            opens = found.string[:found.start()].rstrip(" \t")[-1:] in _OPENS
            return not (rest == "" or rest.lstrip(" \t")[:1] in ("\n", "|", "")
                        or ends_sentence or (ends_clause and not opens))
    return True


def plain_lines(text: str) -> str:
    return "\n".join(plain(line) for line in text.splitlines())


# ---- review: which pairs of documents the product says are versions of each other ----

_PAIR_KEYS = re.compile(r"version|chain|duplicate|near|pair|supersed|similar|link|copies|"
                        r"successor|predecessor|group|cluster", re.I)
_NOT_PAIR_KEYS = re.compile(r"undated|dangling|unanchored|missing|orphan|relative", re.I)


@dataclass(frozen=True)
class Group:
    """Documents the review JSON puts together, in the order it gives them."""

    where: str                  # the JSON key path it was found under
    ids: tuple[str, ...]


def review_groups(review: Any, known: Mapping[str, str]) -> list[Group]:
    """Every list or object of at least two corpus doc ids under a key that speaks of
    versions, duplicates, pairs or links (and not of undated or dangling documents)."""
    return list(_walk(review, "", known, relevant=False))


def _walk(node: Any, path: str, known: Mapping[str, str], *, relevant: bool) -> Iterator[Group]:
    if isinstance(node, Mapping):
        direct = ids_in(node.values(), known)
        if relevant and len(direct) >= 2:
            yield Group(path, tuple(direct))
            return
        for key, value in node.items():
            sub = f"{path}.{key}" if path else str(key)
            flag = relevant or bool(_PAIR_KEYS.search(str(key)))
            if _NOT_PAIR_KEYS.search(str(key)):
                flag = False
            yield from _walk(value, sub, known, relevant=flag)
    elif isinstance(node, list):
        direct = ids_in(node, known)
        if relevant and len(direct) >= 2 and len(direct) == len(node):
            yield Group(path, tuple(direct))
            return
        for i, value in enumerate(node):
            yield from _walk(value, f"{path}[{i}]", known, relevant=relevant)


def ids_in(values: Iterable[Any], known: Mapping[str, str]) -> list[str]:
    """Corpus ids standing directly among ``values`` (strings, or lists of strings)."""
    out: list[str] = []
    for value in values:
        items = value if isinstance(value, list) else [value]
        for item in items:
            cid = to_corpus_id(item, known)
            if cid is not None and cid not in out:
                out.append(cid)
    return out


def pairs_of(groups: Iterable[Group]) -> set[frozenset[str]]:
    """Unordered pairs a set of groups proposes: consecutive members of each."""
    out: set[frozenset[str]] = set()
    for group in groups:
        for a, b in itertools.pairwise(group.ids):
            if a != b:
                out.add(frozenset((a, b)))
    return out


def related_pairs(chains: Iterable[list[str]], duplicates: Iterable[list[str]]
                  ) -> set[frozenset[str]]:
    """Pairs that are not false: any two versions of one document, or exact duplicates."""
    out: set[frozenset[str]] = set()
    for members in [*chains, *duplicates]:
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                out.add(frozenset((a, b)))
    return out


# ---- dates the product says a document states ----

# "Last updated" may land in modified_at: it is still the date the text states.
_DATE_KEYS = re.compile(r"valid_from|effective|stated|propos|suggest|published|modified|date",
                        re.I)
_NOT_DATE_KEYS = re.compile(r"ingested|now|as_of|checked|generated", re.I)
_ISO = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?")


def dates_in(node: Any, *, relevant: bool = False) -> list[str]:
    """ISO dates found under date-like keys of a JSON value (YYYY-MM-DD or YYYY-MM)."""
    out: list[str] = []
    if isinstance(node, Mapping):
        for key, value in node.items():
            flag = (relevant or bool(_DATE_KEYS.search(str(key)))) and not _NOT_DATE_KEYS.search(
                str(key))
            out += dates_in(value, relevant=flag)
    elif isinstance(node, list):
        for value in node:
            out += dates_in(value, relevant=relevant)
    elif relevant and isinstance(node, str):
        m = _ISO.match(node)
        if m:
            out.append(m.group(0))
    return out


def any_dates(node: Any) -> list[str]:
    """Every ISO date string anywhere in a JSON value, except under system-time keys."""
    if isinstance(node, Mapping):
        return [d for k, v in node.items() if not _NOT_DATE_KEYS.search(str(k))
                for d in any_dates(v)]
    if isinstance(node, list):
        return [d for v in node for d in any_dates(v)]
    if isinstance(node, str):
        m = _ISO.match(node)
        return [m.group(0)] if m and len(node) <= 40 else []
    return []


def date_matches(found: str, stated: str) -> bool:
    """A day matches its day; a stated month is matched by any day of it."""
    return found[: len(stated)] == stated if len(stated) == 7 else found[:10] == stated
