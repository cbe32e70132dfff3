"""Script and word facts of the two languages chronorag reads: English and Chinese.

The character classes are strings to put inside a regex ``[...]`` (they hold ranges, so
they can be combined into larger classes or negated), each with a compiled one-character
pattern. A module takes the piece it means: a tokenizer wants ideographs only, a sentence
splitter also punctuation. The stop-word sets are one base list and named extensions for
the users whose matching needs more.
"""

from __future__ import annotations

import re

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
"""Han ideographs: the words of Chinese, one character each.

Unified (U+4E00-U+9FFF), Extension A (U+3400-U+4DBF) and the compatibility ideographs
(U+F900-U+FAFF, which NFKC maps to unified ones). Planes 2 and 3 (U+20000-U+3FFFF) are
allocated to ideographs only (Extensions B-I, compatibility supplement): rare characters
of names and classical text, which must split words like any other ideograph. U+4DC0-
U+4DFF between Extension A and the unified block holds Yijing symbols, not ideographs.
"""

CJK_PUNCTUATION = "\u3001-\u303f"
"""CJK symbols and punctuation (、。「」【】〜...). U+3000, the first character of the
block, is left out: the ideographic space is whitespace (``\\s`` matches it)."""

KANA = "\u3040-\u30ff"
"""Hiragana and katakana: Japanese, written without spaces like Chinese."""

HANGUL = "\uac00-\ud7af"
"""Hangul syllables. Korean puts spaces between words, so it is not ``SPACELESS``."""

FULLWIDTH = "\uff00-\uffef"
"""Halfwidth and fullwidth forms: Chinese punctuation (，！？：；（）) and full-width
Latin letters and digits, typed in Chinese text."""

SPACELESS = CJK_PUNCTUATION + KANA + HAN + FULLWIDTH
"""Characters of text written without spaces between words (Chinese, Japanese): a space
beside one of them separates no words."""

EAST_ASIAN = SPACELESS + HANGUL
"""Characters measured one at a time rather than in space-separated words (language share
and size of a text block). Hangul counts too, although Korean spaces its words: a syllable
block carries about as much as an ideograph."""

SET_ASIDE = r"besides|apart\s+from|aside\s+from|other\s+than|in\s+addition\s+to"
"""English words that set something aside and ask past it ("Besides Google, which …"), as
a regular-expression alternation."""

HAN_RE = re.compile(f"[{HAN}]")
SPACELESS_RE = re.compile(f"[{SPACELESS}]")
EAST_ASIAN_RE = re.compile(f"[{EAST_ASIAN}]")


def has_han(text: str) -> bool:
    """True when ``text`` holds a Han ideograph."""
    return HAN_RE.search(text) is not None


STATING_WORDS = 4
"""Words a sentence needs to state anything: a shorter one is a heading, a label or a
link ("30-Day Refund Policy.", "Google", "Microsoft (Bing)"), about as relevant to a
question as the page or section it names and answering none."""


def said_words(text: str) -> float:
    """How many words ``text`` says: its whitespace-separated pieces, and a word for each
    one and a half Han ideographs (Chinese words, written without spaces, average about
    1.5 characters)."""
    han = len(HAN_RE.findall(text))
    return len(HAN_RE.sub(" ", text).split()) + han / 1.5


def states(text: str) -> bool:
    """Whether ``text`` is long enough to state something (``STATING_WORDS``)."""
    return said_words(text) >= STATING_WORDS


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that never carry meaning in a question; the tokenizer drops them from documents and
# questions alike. Kept short on purpose: BM25's idf already discounts frequent words.
EN_STOP_WORDS = _words("""
a an and are as at be been but by did do does for from had has have how i if in into is it
its of on or that the their there these this those to was were what when where which who
whom whose why will with
""")
ZH_STOP_WORDS = frozenset("的了吗呢吧啊呀么着之而和与及或是在把被")

# Counting shared words has no idf to discount the words every sentence of a biography
# holds, so the possessive pronouns are dropped too.
OVERLAP_STOP_WORDS = EN_STOP_WORDS | {"his", "her"}

# Whether two sentences state the same fact is judged by their content words: words that
# frame a statement (modal verbs, negation, pronouns, quantifiers, time prepositions) are
# not the fact, and two policies phrase the same rule with different ones.
STATEMENT_STOP_WORDS = OVERLAP_STOP_WORDS | _words("""
can may must shall should no not so than then up any all also more most other such only
same each per our us we you your they them after before during until since within without
""")

# CC-CEDICT's glosses say how a sense is used ("to do sth for sb", "(lit.) ...") with
# words that are no part of its meaning; matching them would pair any two texts.
GLOSS_STOP_WORDS = EN_STOP_WORDS | _words("""
sth sb sb's sth's one's oneself etc lit fig esp also used one something someone kind type
thing person make do have get take give
""")

# Senses CC-CEDICT lacks for the words that title policies in Chinese: it gives 条款 only as
# "clause" (its 使用条款 is "terms of use"), 声明 as "statement" (a "Privacy Notice" is a
# 隐私声明 on the publishers' own Chinese pages).
GLOSS_MORE: dict[str, str] = {"条款": "terms", "声明": "notice"}

# A question about one's own records ("how many times did I ... last week", "我上周几点...")
# is phrased with count, time and first-person words that no record contains.
RECORD_QUESTION_WORDS = EN_STOP_WORDS | ZH_STOP_WORDS | _words("""
many times often time during last past ago day days week weeks me my mine myself
几次 多少次 几回 多少回 几遍 多少 几点 什么 什么时候 时候 啥 哪天 一共 总共 我 你 他 她
""")
