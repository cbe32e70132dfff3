"""Scripts and stop words have one definition, ``chronorag.lang``, which every user reads.

Property tests: a Han ideograph is CJK to every module that asks (tokenizer, sentence
splitter, term matcher, evidence terms, question content, token estimate), no ASCII
character is, and any text passes through all of them. Source tests: no other module of
``src/`` spells a CJK code-point range or a stop-word list of its own.
"""

from __future__ import annotations

import ast
import itertools
import re
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import chronorag
from chronorag import lang
from chronorag.answer.evidence import terms_of
from chronorag.ingest.sentences import cjk_count, split_sentences
from chronorag.retrieve.tokenize import cjk_ratio, normalize, tokenize
from chronorag.semantic import terms
from chronorag.semantic.pack import estimate_tokens
from chronorag.understand.content import remove_spans

PACKAGE = Path(chronorag.__file__).resolve().parent
SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if p != PACKAGE / "lang.py")


def _ranges(cls: str) -> list[tuple[int, int]]:
    """The ``(first, last)`` code points of a class string made of ``a-b`` ranges."""
    assert len(cls) % 3 == 0 and all(cls[i + 1] == "-" for i in range(0, len(cls), 3))
    return [(ord(cls[i]), ord(cls[i + 2])) for i in range(0, len(cls), 3)]


# Assigned ideographs only: an unassigned code point is no letter to ``\w``.
HAN_CHAR = (st.one_of([st.integers(lo, hi) for lo, hi in _ranges(lang.HAN)]).map(chr)
            .filter(lambda c: unicodedata.category(c) == "Lo"))
ASCII_TEXT = st.text(st.characters(max_codepoint=127))
ANY_TEXT = st.text(st.one_of(st.characters(exclude_categories=("Cs",)), HAN_CHAR,
                             st.sampled_from(" \n\u3000。，？ab1的")), max_size=80)


def test_classes_are_ranges_of_the_blocks_they_name() -> None:
    assert (0x4E00, 0x9FFF) in _ranges(lang.HAN)
    assert (0x20000, 0x3FFFF) in _ranges(lang.HAN)
    assert not lang.has_han("\u4dc0\u3000。，ア한")  # Yijing symbol, space, punctuation...
    assert lang.SPACELESS_RE.match("。") and lang.SPACELESS_RE.match("，")
    assert not lang.SPACELESS_RE.match("\u3000") and not lang.SPACELESS_RE.match("한")
    assert lang.EAST_ASIAN_RE.match("한")


@settings(deadline=None)
@given(c=HAN_CHAR)
def test_every_han_character_is_cjk_to_every_user(c: str) -> None:
    assert lang.has_han(c)
    # Tokenizer: an ideograph is segmented on its own and splits the Latin words around it.
    folded = normalize(c)
    middle = [] if folded in lang.ZH_STOP_WORDS else [folded]
    assert tokenize(f"ab{c}cd") == ["ab", *middle, "cd"]
    assert cjk_ratio(c) == 1.0
    assert cjk_count(c) == 1  # sentence splitter and chunk sizes
    assert terms._pattern(c) is None  # term matcher: substring, not whole-word, match
    assert terms_of(f"xyz{c}{c}xyz") == {c + c}  # evidence: character bigrams
    assert remove_spans(f"ab {c} cd", []) == f"ab{c}cd"  # content: no spaces around it
    assert estimate_tokens(f"ab{c}cd") == 3  # context pack: one token per ideograph


@given(text=ASCII_TEXT)
def test_no_ascii_character_is_cjk(text: str) -> None:
    assert not lang.has_han(text)
    assert not lang.SPACELESS_RE.search(text) and not lang.EAST_ASIAN_RE.search(text)
    assert cjk_count(text) == 0 and cjk_ratio(text) == 0.0


@settings(deadline=None)
@given(text=ANY_TEXT)
def test_any_text_passes_every_user(text: str) -> None:
    tokens = tokenize(text)
    assert all(t and t not in lang.EN_STOP_WORDS | lang.ZH_STOP_WORDS for t in tokens)
    assert 0.0 <= cjk_ratio(text) <= 1.0
    assert cjk_count(text) == len(lang.EAST_ASIAN_RE.findall(text))
    spans = split_sentences(text)
    assert all(0 <= s < e <= len(text) for s, e in spans)
    assert all(e1 <= s2 for (_, e1), (s2, _) in itertools.pairwise(spans))
    assert estimate_tokens(text) >= len(lang.HAN_RE.findall(text))
    assert all(len(t) == 2 or not lang.has_han(t) for t in terms_of(text))
    assert isinstance(remove_spans(text, []), str)


def test_stop_word_sets_extend_the_base_list() -> None:
    base = lang.EN_STOP_WORDS
    assert base < lang.OVERLAP_STOP_WORDS < lang.STATEMENT_STOP_WORDS
    assert base | lang.ZH_STOP_WORDS < lang.RECORD_QUESTION_WORDS


# A range between two code points of the CJK blocks (U+2E80 up) or of planes 2 and 3,
# spelled as escapes in the source ("\u4e00-\u9fff") or as characters ("一-龥").
_ESCAPE = r"\\(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})"
_ESCAPED_RANGE = re.compile(f"{_ESCAPE}-{_ESCAPE}")
_CJK_POINT = re.compile(r"[\u2e80-\uffef\U00020000-\U0003ffff]")
_LITERAL_RANGE = re.compile(rf"{_CJK_POINT.pattern}-{_CJK_POINT.pattern}")


def _cjk_escape(escape: str) -> bool:
    return bool(_CJK_POINT.match(chr(int(escape[2:], 16))))


def test_no_module_defines_its_own_cjk_range() -> None:
    found = []
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        for match in _ESCAPED_RANGE.finditer(source):
            first, last = match.group().split("-")
            if _cjk_escape(first) or _cjk_escape(last):
                found.append(f"{path.name}: {match.group()}")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found += [f"{path.name}: {m.group()}" for m in _LITERAL_RANGE.finditer(node.value)]
    assert not found, f"use chronorag.lang's classes instead of: {found}"


_STOP_NAME = re.compile(r"(?i)stop|question_words")
_WORD_LIST = re.compile(r"[a-z\u4e00-\u9fff\s]+")
_STOP_WORDS = lang.EN_STOP_WORDS | lang.ZH_STOP_WORDS


def _stop_words_in(node: ast.AST) -> int:
    """How many stop words a word-list string or a collection of strings holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        if not text.strip() or not _WORD_LIST.fullmatch(text):
            return 0
        # A one-word string may be a set of characters: frozenset("的了吗...").
        words = set(text.split()) | (set(text) if len(text.split()) == 1 else set())
        return len(words & _STOP_WORDS)
    if isinstance(node, ast.Set | ast.List | ast.Tuple):
        return len({e.value for e in node.elts if isinstance(e, ast.Constant)} & _STOP_WORDS)
    return 0


def test_no_module_defines_its_own_stop_words() -> None:
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found += [f"{path.name}: {t.id}" for t in targets
                          if isinstance(t, ast.Name) and _STOP_NAME.search(t.id)]
            if id(node) not in docstrings and _stop_words_in(node) >= 6:
                found.append(f"{path.name}:{getattr(node, 'lineno', '?')}")
    assert not found, f"take stop words from chronorag.lang: {found}"


def test_a_sentence_states_something_from_four_words_a_chinese_one_in_1_5_characters() -> None:
    assert not lang.states("Google") and not lang.states("Microsoft (Bing)")
    assert not lang.states("30-Day Refund Policy.")
    assert lang.states("Refunds take ten days.")
    assert not lang.states("隐私声明") and lang.states("我们不出售数据")
    assert lang.said_words("Firefox 隐私声明") == 1 + 4 / 1.5


@given(text=ANY_TEXT)
def test_said_words_counts_pieces_and_half_han(text: str) -> None:
    said = lang.said_words(text)
    assert said >= len(lang.HAN_RE.findall(text)) / 1.5
    assert lang.states(text) == (said >= lang.STATING_WORDS)
