"""Tokenizer for keyword search (BM25) that handles English and Chinese in one pass.

Text is NFKC-normalised (full-width letters and digits become ASCII) and lowercased;
runs of Latin letters / digits become words, runs of CJK ideographs are segmented with
jieba's bundled dictionary. Punctuation and a short list of function words are dropped.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from typing import Any

from chronorag.deps import guard, import_module

# CJK Unified Ideographs (+ extension A, compatibility ideographs). Kana/Hangul are not
# segmented by jieba, so they fall through to the word pattern.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"(?P<cjk>[{_CJK}]+)|(?P<word>[^\W_{_CJK}]+)")
_CJK_CHAR_RE = re.compile(rf"[{_CJK}]")
_LETTER_RE = re.compile(r"[^\W\d_]")

# Kept short on purpose: BM25's idf already discounts frequent words; this list only
# removes words that never carry meaning in a question.
_EN_STOPWORDS = (
    "a an and are as at be been but by did do does for from had has have how i if in into "
    "is it its of on or that the their there these this those to was were what when where "
    "which who whom whose why will with"
)
EN_STOPWORDS = frozenset(_EN_STOPWORDS.split(" "))
ZH_STOPWORDS = frozenset("的了吗呢吧啊呀么着之而和与及或是在把被")

_jieba: Any = None
_jieba_lock = threading.Lock()


def _segmenter() -> Any:
    """The jieba tokenizer, loaded on first use (its dictionary takes ~0.5 s to load)."""
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                jieba = import_module("jieba")
                with guard("jieba"):  # reads the dictionary bundled in the wheel
                    # jieba prints "Building prefix dict..." through its own logger.
                    jieba.setLogLevel(logging.WARNING)
                    tokenizer = jieba.Tokenizer()
                    tokenizer.initialize()
                _jieba = tokenizer
    return _jieba


def normalize(text: str) -> str:
    """NFKC + lowercase: the form both documents and queries are matched in."""
    return unicodedata.normalize("NFKC", text).lower()


def tokenize(text: str) -> list[str]:
    """Split ``text`` into lowercase search terms (English words, numbers, Chinese words)."""
    tokens: list[str] = []
    for match in _TOKEN_RE.finditer(normalize(text)):
        word = match.group("word")
        if word is not None:
            if word not in EN_STOPWORDS:
                tokens.append(word)
            continue
        # cut_for_search also emits the parts of long compounds ("退货政策" -> "退货",
        # "政策", "退货政策"), so a query segmented differently still matches.
        for piece in _segmenter().cut_for_search(match.group("cjk"), HMM=True):
            if piece and piece not in ZH_STOPWORDS:
                tokens.append(piece)
    return tokens


def cjk_ratio(text: str) -> float:
    """Share of CJK ideographs among the letters of ``text`` (0.0 when it has none)."""
    letters = _LETTER_RE.findall(text)
    if not letters:
        return 0.0
    cjk = sum(1 for ch in letters if _CJK_CHAR_RE.match(ch))
    return cjk / len(letters)


def is_mostly_cjk(text: str, *, threshold: float = 0.5) -> bool:
    """True when more than ``threshold`` of the letters are CJK ideographs."""
    return cjk_ratio(text) > threshold
