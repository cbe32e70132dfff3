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
# A run of letters other than ideographs (a word of an alphabet, kana, Hangul).
_WORD_RE = re.compile(rf"[^\W\d_{HAN}]+")

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


_tagger: Any = None


def pos_tagger() -> Any:
    """jieba's part-of-speech tagger over the same dictionary, loaded on first use:
    ``pos_tagger().cut(text)`` yields pairs with ``word`` and ``flag`` ("n", "v", "uj")."""
    global _tagger
    if _tagger is None:
        segmenter = _segmenter()
        with _jieba_lock:
            if _tagger is None:
                posseg = import_module("jieba.posseg")
                with guard("jieba"):  # reads the tag table bundled in the wheel
                    _tagger = posseg.POSTokenizer(segmenter)
    return _tagger


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


def words(text: str) -> list[str]:
    """``text`` cut into jieba's words (spaces and punctuation are pieces too)."""
    return list(_segmenter().cut(text, HMM=True))


def word_ends(text: str) -> set[int]:
    """The offsets in ``text`` where a word ends, as jieba segments it (every offset that
    ends a piece, punctuation and spaces included, and ``len(text)``)."""
    ends, at = {0}, 0
    for piece in words(text):
        at += len(piece)
        ends.add(at)
    return ends


# Ideographs in a Chinese word, on average: jieba segments the Chinese of ChronoQA's news,
# the Mozilla policies and XQuAD's Wikipedia into words of 1.90, 1.75 and 1.83 (300
# chunks of each).
_HAN_PER_WORD = 1.8


def cjk_ratio(text: str) -> float:
    """Share of Chinese among the words of ``text`` (0.0 when it has none): its ideographs
    counted as words of ``_HAN_PER_WORD`` ideographs, beside its words in other letters.

    Counted by letters, a Chinese passage that ends on an address ("Mozilla Corporation
    Attn: Legal Notices, 149 New Montgomery Street") or a question naming a product
    ("Firefox 有没有隐藏 IP 地址的 VPN 功能？") would be English: read by a model that
    knows no Chinese and calibrated as another pair. Counted by ideographs, an English
    filmography giving each title in Chinese too would be Chinese.
    """
    cjk = len(HAN_RE.findall(text)) / _HAN_PER_WORD
    words = len(_WORD_RE.findall(text))
    return cjk / (cjk + words) if cjk + words else 0.0


def is_mostly_cjk(text: str, *, threshold: float = 0.5) -> bool:
    """True when Chinese is more than ``threshold`` of the words of ``text`` (``cjk_ratio``)."""
    return cjk_ratio(text) > threshold
