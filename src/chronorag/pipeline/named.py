"""Candidates in another script for the names a Chinese question spells in Latin letters,
and for the titles a question says in its own language.

A multilingual model puts a Chinese question nearer to any Chinese passage than to an
English one: for "2021 年 10 月时，按照 GitHub 当时的隐私声明，新用户的邮箱地址默认是设为私密
的吗？" over a store with Mozilla's policies in Chinese and GitHub's in English only, the
first hundred of the dense list were all Chinese (cosine 0.89 and below; GitHub's
privacy statement, 0.867, came 94th) and BM25 matched Chinese words only, so no passage
of the source the question names was a candidate. When no candidate spells one of the
question's Latin names, the dense list is read deeper for passages in another script
that spell it; they follow the candidates, and the pre-rank "names" (``rank.spelled``)
decides whether they are read first. A name some candidate spells gathers nothing: the
Chinese policies that say "Firefox" already answer questions about Firefox, and their
English twins must not be gathered beside them.

A question can name a document by its title in its own words: "如果有人违反了 Mozilla 的
可接受使用政策……" asks about the English "Acceptable Use Policy", while the Chinese
passages that only *mention* that policy fill the candidates. Read through the dictionary
(``retrieve.glossary``), the question says that title whole, its words in the title's
order (``names_title``) or in the order a Chinese title has ("Mozilla 帐户服务条款" for
"Mozilla Accounts Terms of Service"). When it says a title in the other script and none
in its own, and passages in its own script crowd the pool, the passages of the named
document and of its versions (those of the dense list gathered when none is a candidate)
go first, flagged ``title_named``; the pre-rank "names" keeps them first, and the answer
puts them before the rest.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from chronorag.flags import Flag
from chronorag.lang import SET_ASIDE, has_han
from chronorag.model import Hit, Query
from chronorag.rank.spelled import latin_names, naming, spelled_by, spelled_names
from chronorag.retrieve.glossary import concepts
from chronorag.retrieve.tokenize import is_mostly_cjk

__all__ = ["Titles", "names_title", "says_title", "spelled_elsewhere", "titled_elsewhere"]

# What a question sets aside ("除了可接受使用政策以外，还必须符合哪个协议？", "Besides the
# Acceptable Use Policy, which …"): a title said there is not the one asked about.
_EXCLUDED = re.compile(r"除了?[^，,。？?]*?(?:以外|之外|外)|"
                       rf"\b(?:{SET_ASIDE}|except(?:\s+for)?)\b[^,.;?]*", re.IGNORECASE)


def spelled_elsewhere(query: Query, hits: Sequence[Hit], *,
                      deeper: Callable[[int], Sequence[Hit]], depth: int,
                      limit: int) -> list[Hit]:
    """``hits`` followed by up to ``limit`` passages of ``deeper(depth)`` (a dense list
    ``depth`` long) that are not mostly Chinese and spell a Latin name of the question
    that no hit spells (see the module docstring)."""
    names = spelled_names(query.text)
    if not names or depth <= 0 or limit <= 0:
        return list(hits)
    missing = names - spelled_by(names, [h.chunk.text for h in hits])
    if not missing:
        return list(hits)
    spells = naming(missing)
    have = {h.chunk.id for h in hits}
    found = [h for h in deeper(depth) if h.chunk.id not in have
             and spells.search(h.chunk.text) and not is_mostly_cjk(h.chunk.text)]
    return [*hits, *found[:limit]]


@dataclass(frozen=True)
class Titles:
    """A store's document titles by id, those with Chinese in them apart (read once per
    generation: a question looks only at the titles in the other script)."""

    chinese: Mapping[str, str]
    other: Mapping[str, str]
    _translated: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, titles: Mapping[str, str]) -> Titles:
        chinese = {i: t for i, t in titles.items() if has_han(t)}
        return cls(chinese, {i: t for i, t in titles.items() if i not in chinese})

    def translated(self, doc_id: str) -> bool:
        """Whether the store holds this document in the other script too: a title in the
        other script says its title or is said by it, read through the dictionary
        ("Firefox 隐私声明" and "Firefox Privacy Notice"). Known once per document."""
        if doc_id not in self._translated:
            chinese = doc_id in self.chinese
            title = (self.chinese if chinese else self.other).get(doc_id, "")
            others = (self.other if chinese else self.chinese).values()
            self._translated[doc_id] = bool(title) and any(
                says_title(_concepts(title), t) or says_title(_concepts(t), title)
                for t in others)
        return self._translated[doc_id]


def titled_elsewhere(query: Query, hits: Sequence[Hit], *, titles: Titles,
                     deeper: Callable[[int], Sequence[Hit]], depth: int, limit: int,
                     versions: Callable[[set[str]], set[str]] = set) -> list[Hit]:
    """``hits`` with the passages of the documents in another script that the question
    names by title first, flagged ``title_named`` (those of ``deeper(depth)`` gathered
    when no hit is one), the rest after them; ``hits`` as they are when the question
    names no such title, or one in its own script (see ``names_title``).

    A title names every version of its document (``versions``: the documents linked to
    some of these ids, them included), however each version is titled: which of them
    answers is for validity to say.
    """
    if depth <= 0 or limit <= 0 or not hits:
        return list(hits)
    cjk = is_mostly_cjk(query.text)
    other, own = (titles.other, titles.chinese) if cjk else (titles.chinese, titles.other)
    if not other or not any(is_mostly_cjk(h.chunk.text) == cjk for h in hits):
        # No title in the other script, or nothing in the question's script crowds the
        # pool.
        return list(hits)
    asked = concepts(_EXCLUDED.sub(" ", query.text))
    spelled = spelled_names(query.text)
    named = {i for i, t in other.items() if says_title(asked, t) and not _generic(t, spelled)}
    # Of the titles said, those that spell a name the question spells, when some do: "GitHub
    # 服务条款" says "GitHub Terms of Service" and a page titled only "Terms of Service".
    spelling = {i for i in named if latin_names(other[i]) & spelled}
    named = spelling or named
    said = [latin_names(other[i]) & spelled for i in named]
    if not named or any(says_title(asked, t, spare=1) and not _names_other(spelled, t)
                        and not _less_named(t, spelled, said)
                        for t in own.values()) or any(
            h.chunk.doc_id in named and is_mostly_cjk(h.chunk.text) == cjk for h in hits):
        # The question names a document of its own script: by a title in that script,
        # even with one word said otherwise ("the Firefox privacy statement" of the
        # "Firefox Privacy Notice", beside "Firefox 隐私声明") unless it spells fewer of
        # the question's names than the title said in the other script (``_less_named``),
        # or in the other, as Chinese pages titled in English are.
        return list(hits)
    named = {i for i in versions(named) if i in other}
    first = [h for h in hits if h.chunk.doc_id in named]
    if not first:
        # Gathered only when no candidate is of a named document: once one is, more of
        # its passages would crowd out the rest of the pool.
        have = {h.chunk.id for h in hits}
        first = [h for h in deeper(depth) if h.chunk.doc_id in named
                 and h.chunk.id not in have and is_mostly_cjk(h.chunk.text) != cjk][:limit]
    if not first:
        return list(hits)
    ahead = {h.chunk.id for h in first}
    return [*(replace(h, flags=(*h.flags, Flag.TITLE_NAMED)) for h in first),
            *(h for h in hits if h.chunk.id not in ahead)]


def _generic(title: str, spelled: frozenset[str]) -> bool:
    """Whether a title is too plain to name a document where the question names a product:
    two concepts, neither a name the question spells ("Terms of Service" ends half the
    titles of a store; "违反服务条款的内容" in a question about GitHub's privacy statement
    names no page so titled)."""
    return bool(spelled) and not latin_names(title) & spelled and len(_concepts(title)) < 3


def _less_named(title: str, spelled: frozenset[str], said: Sequence[frozenset[str]]) -> bool:
    """Whether a title of the question's script spells fewer of its names than a title
    of the other script it says whole: "Firefox Focus 和 Klar 的使用条款" says "Firefox
    使用条款" but for "Focus" and "Klar", which "Firefox Focus and Klar Terms of Use"
    spells; that title names the document, the look-alike does not."""
    names = latin_names(title) & spelled
    return any(names < other for other in said)


def _names_other(spelled: frozenset[str], title: str) -> bool:
    """Whether a title's Latin names are other than those the question spells: "GitHub
    隐私声明" says "Firefox 隐私声明" but for one word, and that word names another product."""
    names = latin_names(title)
    return bool(spelled and names and not spelled & names)


def names_title(asked: Sequence[frozenset[str]], title: Sequence[frozenset[str]], *,
                spare: int = 0) -> bool:
    """Whether a question (``asked``, its concepts) says a title of two or more concepts
    whole: one concept of the question after another matching the title's in its order,
    so "可接受使用政策" says "Acceptable Use Policy", and "Mozilla 的隐私政策" no "Privacy
    Notice". One concept alone ("Policy", "条款") names no document. With ``spare``, that
    many of the title's concepts at either end may go unsaid (two are always said)."""
    size = max(len(title) - spare, 2)
    runs = [title[k:k + size] for k in range(len(title) - size + 1)]
    return any(all(asked[i + j] & run[j] for j in range(size))
               for run in runs for i in range(len(asked) - size + 1))


def says_title(asked: Sequence[frozenset[str]], title: str, *, spare: int = 0) -> bool:
    """Whether a question (``asked``, its concepts) says ``title`` (``names_title``) in
    one of the orders it can be said in (``_readings``)."""
    return any(names_title(asked, reading, spare=spare) for reading in _readings(title))


# "Terms of Service", "Privacy Notice for Mozilla Location Services": a noun and what it is
# of (or for), which a Chinese title says first.
_OF = re.compile(r"(?P<head>.*?)(?P<noun>\S+)\s+(?:of|for)\s+(?P<tail>.+)", re.IGNORECASE)


@functools.lru_cache(maxsize=65536)
def _readings(title: str) -> tuple[tuple[frozenset[str], ...], ...]:
    """A title's concepts as written and, for "A B of C", in the orders a Chinese title
    says them: "A C B" ("Mozilla Accounts Terms of Service": Mozilla 帐户服务条款) and
    "C A B" ("Privacy Notice for Mozilla Location Services": Mozilla 位置服务隐私声明)."""
    match = _OF.fullmatch(title.strip())
    if match is None:
        return (_concepts(title),)
    head, noun, tail = match["head"], match["noun"], match["tail"]
    return (_concepts(title), _concepts(f"{head} {tail} {noun}"),
            _concepts(f"{tail} {head} {noun}"))


@functools.lru_cache(maxsize=65536)
def _concepts(title: str) -> tuple[frozenset[str], ...]:
    """A title's concepts, a concept said twice in a row once ("Mozilla 订阅服务 | 服务条款"
    is said "Mozilla 订阅服务条款")."""
    out: list[frozenset[str]] = []
    for concept in concepts(title):
        if not out or concept != out[-1]:
            out.append(concept)
    return tuple(out)
