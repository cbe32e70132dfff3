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
from chronorag.lang import EN_STOP_WORDS, HAN, HAN_RE, ZH_STOP_WORDS

# Ideographs only: kana and Hangul are not segmented by jieba, so they fall through to the
# word pattern.
_TOKEN_RE = re.compile(rf"(?P<cjk>[{HAN}]+)|(?P<word>[^\W_{HAN}]+)")
_LETTER_RE = re.compile(r"[^\W\d_]")

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
            if word not in EN_STOP_WORDS:
                tokens.append(word)
            continue
        # cut_for_search also emits the parts of long compounds ("退货政策" -> "退货",
        # "政策", "退货政策"), so a query segmented differently still matches.
        for piece in _segmenter().cut_for_search(match.group("cjk"), HMM=True):
            if piece and piece not in ZH_STOP_WORDS:
                tokens.append(piece)
    return tokens


def cjk_ratio(text: str) -> float:
    """Share of CJK ideographs among the letters of ``text`` (0.0 when it has none)."""
    letters = _LETTER_RE.findall(text)
    if not letters:
        return 0.0
    cjk = sum(1 for ch in letters if HAN_RE.match(ch))
    return cjk / len(letters)


def is_mostly_cjk(text: str, *, threshold: float = 0.5) -> bool:
    """True when more than ``threshold`` of the letters are CJK ideographs."""
    return cjk_ratio(text) > threshold
