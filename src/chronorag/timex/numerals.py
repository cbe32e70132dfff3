"""Number words: English (one..ninety-nine) and Chinese numerals (三, 十二, 两, 二〇一九)."""

from __future__ import annotations

_EN_UNITS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "couple": 2, "a couple of": 2,
}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
            "seventy": 70, "eighty": 80, "ninety": 90}

#: Regex alternation of English number words (longest first so "seventeen" beats "seven").
EN_NUMBER = (
    r"(?:\d+|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three"
    r"|four|five|six|seven|eight|nine))?|a couple of|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|an|a)"
)

_CN_DIGITS = {"〇": 0, "零": 0, "○": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}

#: Character class of Chinese numeral characters.
CN_NUM_CHARS = "〇零○一二两三四五六七八九十百千"
#: A number written in Arabic digits or Chinese numerals.
NUMBER = rf"(?:\d+|[{CN_NUM_CHARS}]+)"
#: A number of up to four digits or numerals, never the tail of a longer one ("12345天前" is
#: not "2345天前").
BOUNDED_NUMBER = rf"(?:(?<!\d)\d{{1,4}}|(?<![{CN_NUM_CHARS}])[{CN_NUM_CHARS}]{{1,4}})"


def en_number(word: str) -> int:
    """Value of an English number word or digit string ("twenty-one" -> 21)."""
    word = word.lower().strip()
    if word.isdigit():
        return int(word)
    if word in _EN_UNITS:
        return _EN_UNITS[word]
    parts = word.replace("-", " ").split()
    total = 0
    for part in parts:
        total += _EN_TENS.get(part, _EN_UNITS.get(part, 0))
    if total == 0:
        raise ValueError(f"not a number word: {word!r}")
    return total


def cn_number(text: str) -> int:
    """Value of Arabic digits or a Chinese numeral ("二十一" -> 21, "两" -> 2, "十二" -> 12)."""
    if text.isdigit():
        return int(text)
    total, current = 0, 0
    for char in text:
        if char in _CN_DIGITS:
            current = _CN_DIGITS[char]
        elif char in _CN_UNITS:
            # "十二": a unit with no digit before it means one of that unit.
            total += (current or 1) * _CN_UNITS[char]
            current = 0
        else:
            raise ValueError(f"not a Chinese numeral: {text!r}")
    return total + current


def cn_digits(text: str) -> int:
    """A year spelt digit by digit ("二〇一九" -> 2019) or in Arabic digits."""
    if text.isdigit():
        return int(text)
    return int("".join(str(_CN_DIGITS[c]) for c in text))
