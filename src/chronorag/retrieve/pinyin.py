"""Pinyin as a keyword bridge between Chinese and English text.

Chinese names of places, organisations and people are written in English by their
pinyin ("临江" is Linjiang, "汉山大学" Hanshan University, "张伟" Zhang Wei), and
neither BM25 nor a multilingual embedder knows a name it never saw. So keyword search
indexes each short Chinese word also as its toneless pinyin run together ("linjiang"),
and a question adds each pair of neighbouring Latin words that are both pinyin syllables
run together ("Zhang Wei" -> "zhangwei"), since English writes a two-character name as
two words. Only words of two to four characters get a pinyin form: names are that long,
and one syllable alone ("an", "he", "long") is an English word as often as a name.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import Any

from chronorag.deps import guard, import_module
from chronorag.lang import HAN

_NAME_LIKE = re.compile(rf"[{HAN}]{{2,4}}")
_LATIN_WORD = re.compile(r"[a-z]+")
# A toneless Mandarin syllable: optional initial, then a final (ü written u or v).
_SYLLABLE = re.compile(
    r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?"
    r"(?:iang|iong|uang|ueng|ang|eng|ing|ong|ian|iao|uai|uan|van|ai|ei|ao|ou|an|en|in|un"
    r"|vn|ia|ie|iu|ua|uo|ui|ue|ve|er|a|o|e|i|u|v)")


@functools.cache
def _lazy_pinyin() -> Any:
    """pypinyin's ``lazy_pinyin``, imported on first use (its dictionary loads in ~0.2 s;
    the import system's own lock makes a concurrent first call safe)."""
    module = import_module("pypinyin")
    with guard("pypinyin"):
        return module.lazy_pinyin


@functools.lru_cache(maxsize=65536)
def pinyin_of(word: str) -> str | None:
    """The toneless pinyin of a two-to-four character Chinese ``word`` run together
    ("汉山" -> "hanshan"; ü as u, as English spells 吕 Lu), else ``None``."""
    if not _NAME_LIKE.fullmatch(word):
        return None
    syllables = _lazy_pinyin()(word)
    joined = "".join(syllables).replace("ü", "u").replace("v", "u")
    return joined if joined.isascii() and joined.isalpha() else None


def with_pinyin(tokens: list[str]) -> list[str]:
    """``tokens`` followed by the pinyin of each name-like Chinese token among them."""
    extra = [p for p in map(pinyin_of, tokens) if p is not None]
    return tokens + extra if extra else tokens


def is_syllable(word: str) -> bool:
    """Whether ``word`` (lowercase) is one toneless pinyin syllable."""
    return _SYLLABLE.fullmatch(word) is not None


def joined_names(text: str) -> list[str]:
    """Each pair of neighbouring lowercase Latin words of ``text`` that are both pinyin
    syllables, run together ("zhang wei" -> "zhangwei")."""
    words = _LATIN_WORD.findall(text)
    return [a + b for a, b in itertools.pairwise(words) if is_syllable(a) and is_syllable(b)]
