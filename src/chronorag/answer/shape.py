"""Short answers and the facts a sentence states (used to detect disagreement).

Deterministic string rules, no model. The short answer is the smallest span of the best
sentence that answers what the question wants (:func:`wanted`):

* a number with its unit and its range for "how many X" / "how much" / "how tall" /
  多少 / 几 ("10-14 business days", "$5 to $10", "at least 13 years", "48枚金牌", "30天"),
  of several counts the one of the noun asked ("one phone number mask"), a count without
  a number ("an unlimited number of email masks", "no phone number masks", 不限数量), an
  age with its bound for "how old" / "what age" ("under the age of 13");
* a duration for "how long" / "window" / "period" / 多久 ("10–14 days", "two weeks"), or
  one said in words ("for the duration of the payment term", "for as long as your
  account is active", 在您使用 Firefox 期间), whichever stands nearest the question's words;
* the phone number for "what phone number", the number after its label for "what
  version number" ("Version 1.2"), the labelled number for "which section" ("Section 5");
* the whole date phrase for "when" / "what date" / "effective date" / 哪天 ("February 1,
  2024", "2024年1月1日"), or a wait ("after 2 months") or "immediately" when the sentence
  names no date; "immediately" for "how soon" too (of it and a length, the one in the
  clause of the question's words: ``choose.by_clause``);
* the names for "who" and for "which company / court / account" ("Edmund Hillary and
  Tenzing Norgay", "GitHub B.V."), when the sentence names exactly one run of them that
  the question does not, or one that is the kind asked for ("Firefox Account";
  ``answer.names``);
* the address for "where can I see / find …" / 在哪里查看, and the e-mail address for
  "which email address" / 邮箱, when the sentence gives one;
* the cell of a table row under the header "which X" / "who" asks for
  (``answer.cells``);
* for a yes/no question the whole sentence, which decides it, or its one clause that says
  no where the rest does not (``polar.deciding_clause``).

When no span of the wanted kind can be chosen the answer is the whole sentence.
"""

from __future__ import annotations

import enum
import re
from datetime import datetime

from chronorag.answer.called import asks_called, called_span
from chronorag.answer.cells import cell_sentence, is_row, row_cell, time_cell
from chronorag.answer.choose import nearest, stems
from chronorag.answer.codes import named_code, number_code
from chronorag.answer.durations import (
    AT_ONCE,
    DURATION,
    NUMBER_WORD,
    QUALIFIER,
    RANGE,
    duration,
    relative_wait,
)
from chronorag.answer.examples import listed_items, series_after
from chronorag.answer.items import asks_item, numbered_item
from chronorag.answer.names import WHICH_NAMED, names
from chronorag.answer.polar import asks_yes_no, deciding_clause, opens_yes_no
from chronorag.answer.zh_list import zh_listed
from chronorag.answer.zh_quantity import (
    ZH_UNLIMITED,
    first_zh_measure,
    zh_number,
)
from chronorag.answer.zh_slot import slot
from chronorag.lang import EN_STOP_WORDS, HAN
from chronorag.retrieve.tokenize import is_mostly_cjk
from chronorag.timex.extract import extract


class Want(enum.StrEnum):
    """What kind of span a question asks for."""

    NUMBER = "number"
    DURATION = "duration"
    DATE = "date"
    NAME = "name"
    YES_NO = "yes_no"
    LINK = "link"
    SENTENCE = "sentence"


_MEASURE_UNIT = (r"(?:metres?|meters?|kilometres?|kilometers?|km|cm|mm|miles?|feet|foot|ft|"
                 r"inches|kg|kilograms?|grams?|tonnes?|tons?|pounds?|lbs?|litres?|liters?|"
                 r"square\s+\w+|years?\s+old|years?\s+of\s+age|dollars?|euros?|cents?|"
                 r"(?:kilo|mega|giga|tera)?bytes?|[KMGT]i?B)\b")
# A rate: "1.0% per month", "$5 a month".
_PER = r"(?:\s+(?:per|an?)\s+(?:second|minute|hour|day|week|month|year|annum))"
# A bound said after the number: "13 years of age or older".
_OR_MORE = (r"(?:\s+or\s+(?:more|older|greater|higher|above|over|less|fewer|younger|lower|"
            r"below|under))")
_MEASURED = re.compile(rf"(?<![\w.]){QUALIFIER}{RANGE}(?:[\s-]*{_MEASURE_UNIT})?{_PER}?"
                       rf"{_OR_MORE}?",
                       re.IGNORECASE)
# An age with its bound: "under the age of 13", "13 years of age or older", "age 16",
# "13 or older".
_AGE_QUESTION = re.compile(r"\bhow\s+old\b|\bages?\b", re.IGNORECASE)
_AGE = re.compile(
    rf"(?<![\w.])(?:(?:under|over|below|above|at\s+least|younger\s+than|older\s+than)\s+)?"
    rf"(?:the\s+age\s+of\s+(?:\d+|{NUMBER_WORD})|(?:\d+|{NUMBER_WORD})\s+years?\s+"
    rf"(?:of\s+age|old)|ages?\s+\d+|\d+(?=\s+or\s+(?:older|younger|over)\b))"
    rf"(?:\s+or\s+(?:older|younger|over|under|above|below|more|less))?(?![\w])", re.IGNORECASE)
# "An unlimited number of email masks": a count without a number.
_UNLIMITED = r"(?:an?\s+)?unlimited\s+(?:(?:number|amount)\s+of\s+)?|no\s+"
# The counted noun is the last word before the verb: "how many free accounts may …".
_HOW_MANY = re.compile(
    r"\bhow\s+(?:many|much)\s+(?!(?:do|does|did|is|are|was|were|can|could|will|would|"
    r"should|may|might|must|has|have|had)\b)(?:[a-z]+\s+){0,2}?([a-z]+)"
    r"(?=\s+(?:can|could|do|does|did|is|"
    r"am|are|was|were|will|would|may|might|should|shall|must|has|have|had|i|you|we|they|he|"
    r"she|it|of|in|on|for|to|per|at|from)\b|\s*[?.,;!]|\s*$)|\bhow\s+(?:many|much)\s+"
    r"([a-z]+)", re.IGNORECASE)
_HOW_MEASURE = re.compile(
    r"\bhow\s+(?:much|tall|high|far|big|large|old|wide|deep|heavy|long\s+is\s+the\s+\w+"
    r"\s+(?:river|road|bridge|wall|tunnel))\b|\bwhat\s+(?:is\s+the\s+|was\s+the\s+)?"
    r"(?:fee|price|cost|percentage|percent|rate|amount|population|number|cap|limit|"
    r"maximum|minimum|threshold|age|interest|size|quota|discount|penalty|deposit)\b|"
    r"\b(?:below|above|under|over)\s+what\b|"
    r"\bwhat\s+(?:is|was|would\s+be)\s+the\s+(?:most|least)\b",
    re.IGNORECASE)
# A period bounded in the question ("in the time period from 880 to 887, what was …")
# is the time asked about, not a length asked for.
_DURATION_QUESTION = re.compile(
    r"\bhow\s+long\b|\bwindow\b|\bperiod\b(?!\s+(?:from|between|before|after|until|since)\b)|"
    r"\bdeadline\b|\btime\s+limit\b|多久|多长时间|"
    r"期限|时限|几天内|多少天内", re.IGNORECASE)
# Asks for a length of time even in the words of a quantity ("how much notice").
_TIME_QUESTION = re.compile(
    r"\bhow\s+(?:soon|quickly|fast|far\s+in\s+advance|much\s+(?:advance\s+)?(?:notice|"
    r"time|lead\s+time|warning))\b|\bhow\s+many\s+(?:seconds|minutes|hours|days|weeks|"
    r"months|years)\s+(?:in\s+advance|before|notice)\b|提前多久|多快|多长时间内", re.IGNORECASE)
_DATE_QUESTION = re.compile(
    r"(?:^|[,;:]\s*)(?:by\s+|until\s+|from\s+)?when\b|\bwhat\s+(?:date|day|year|month)\b|"
    r"\bwhich\s+(?:date|day|year|month)\b|\b(?:effective|start|end|expiry|expiration)\s+date\b|\bsince\s+when\b|"
    r"什么时候|何时|哪天|哪一天|哪年|哪一年|几月|几号|哪个月|生效日期|什么时间", re.IGNORECASE)
_WHERE_TO_LOOK = re.compile(
    r"\bwhere\s+(?:can|do|could|should|may|will)\s+(?:i|we|you|users?|customers?)\s+"
    r"(?:see|find|view|read|get|download|access|look\s+up|check|review)\b|"
    r"(?:在哪里|在哪儿|哪里可以|何处)(?:可以|能)?(?:查看|找到|看到|阅读|下载|获取)", re.IGNORECASE)
_URL = re.compile(r"(?:https?://|www\.)[^\s<>()\[\]{}\"'“”‘’，。；）]+")
# A question asking for an email address, not one that names the reader's own ("Apart
# from my email address, what details can I add?").
_EMAIL_QUESTION = re.compile(
    r"\b(?:which|what)\s+(?:[a-z-]+\s+){0,2}?e-?mail(?:\s+address(?:es)?\b|(?=\s+(?:should|"
    r"can|could|do|does|did|may|must|will|would|is|was|to|for|of)\b|\s*[?？]))|"
    r"\be-?mail\s+address(?:es)?\s+(?:should|can|could|do|does|did|may|must|to|for|of)\b|"
    r"\be-?mail\s+address(?:es)?\s*[?？]?\s*$|(?:电子)?邮(?:箱|件)(?:地址)?(?:是|为)?"
    r"(?:哪个|哪一个|什么|多少)|(?:哪个|什么)(?:电子)?邮(?:箱|件地址)|"
    r"(?:发|寄)送?(?:电子)?邮件(?:到|至|给)(?:哪个|哪一个|什么)", re.IGNORECASE)
# An address as written, or spelled out against harvesters: privacy[at]github[dot]com.
_AT, _DOT = r"(?:@|\[at\]|\(at\))", r"(?:\.|\[dot\]|\(dot\))"
_EMAIL = re.compile(rf"[\w.+-]+{_AT}[\w-]+(?:{_DOT}[\w-]+)*{_DOT}[A-Za-z]{{2,}}")
# A number that is no quantity: "what phone number", "what version number"; "which
# section" asks for the labelled number itself ("Section 22581").
_WHAT_NUMBER = re.compile(r"\bwhat\s+(?:([a-z]+)\s+)?number\b|\bwhat\s+(version)\b|"
                          r"\b(?:which|what)\s+(section|article|clause|chapter|paragraph)\b|"
                          r"(?:哪(?:几|一)?|第几)(节|条|章|款)", re.IGNORECASE)
# A label after its name: "Section 22581", "section 1798.83", "Sections D.4 — D.7", a
# lettered part ("Section H", "Section B(5)") or a Roman numeral ("Article IV"). Letters
# count only as capitals (the pattern runs case-blind for the name: "section of" is none)
# and alone, so "Section A" labels while "Section Applies" does not.
_LABEL = (r"(?:[A-Z]\.)?\d[\w.-]*\w(?:\(\w{1,3}\))*|(?:[A-Z]\.)?\d(?:\(\w{1,3}\))*|"
          r"(?-i:[IVX]+|[A-Z](?:\.\d+)*)(?:\(\w{1,3}\))*(?![\w(])")
# What a Chinese question's 节 / 条 names in an English text, and the Chinese label itself.
_ZH_LABELS = {"节": "section", "条": "article|section|clause", "章": "chapter", "款": "clause"}
_PHONE_QUESTION = re.compile(r"\b(?:(?:tele)?phone|fax)\s+number\b|\bnumber\s+(?:can|could|"
                             r"should|do|may|must)\s+\w+\s+(?:call|dial)\b|电话号码",
                             re.IGNORECASE)
_PHONE = re.compile(r"(?<![\w.])\+?\(?\d{1,4}\)?(?:[\s.-]\(?\d{2,4}\)?){2,4}(?![\w.-]*\d)")
_WHO_QUESTION = re.compile(r"(?:^|[,;:]\s*)(?:who|whom|whose)\b|\bby\s+whom\b",
                           re.IGNORECASE)
# "谁", "哪家", "哪个公司 / 服务商 / 国家": a Chinese question for a party or a place. Its
# name is looked for only in a sentence mostly in another script that is no table row
# (``span_of``): a Chinese sentence's one run of Latin capitals ("CEO", "NBA") is seldom
# the party asked for.
ZH_NAMED = re.compile(r"谁|哪一?家|哪一?[个位](?:公司|企业|机构|组织|服务商|供应商|提供商|"
                      r"厂商|平台|银行|国家|城市|法院|州)")
_ZH_QUANTITY = re.compile(r"(?:多少|几)([^\s，。？?、]{0,4})")


def wanted(question: str) -> Want:
    """The kind of span ``question`` asks for (see the module docstring)."""
    if opens_yes_no(question) or asks_yes_no(question):
        return Want.YES_NO
    if _TIME_QUESTION.search(question) or (_DURATION_QUESTION.search(question)
                                           and not _HOW_MANY.search(question)):
        return Want.DURATION
    if (_HOW_MANY.search(question) or _HOW_MEASURE.search(question)
            or _WHAT_NUMBER.search(question) or asks_item(question)
            or _ZH_QUANTITY.search(question) or re.search("多[长高大远重宽深]", question)):
        return Want.NUMBER
    if _DATE_QUESTION.search(question):
        return Want.DATE
    if _WHO_QUESTION.search(question) or WHICH_NAMED.search(question) \
            or asks_called(question):
        return Want.NAME
    if _WHERE_TO_LOOK.search(question) or _EMAIL_QUESTION.search(question):
        return Want.LINK
    return Want.NAME if ZH_NAMED.search(question) else Want.SENTENCE


def short_answer(question: str, sentence: str, *, now: datetime | None = None) -> str:
    """The smallest span of ``sentence`` that answers ``question``; the sentence when no
    span of the wanted kind is found. A date is looked for only with ``now`` (the time
    relative phrases are read against)."""
    want = wanted(question)
    # A table row answers "which X" / "who" with the cell under the header it asks for,
    # "how long" / "when" with the cell under its header of time.
    cell = row_cell(question, sentence) if want in (Want.NAME, Want.SENTENCE) \
        else time_cell(sentence) if want in (Want.DURATION, Want.DATE) else None
    span = cell or span_of(want, question, sentence, now=now)
    if span is None and want in (Want.NAME, Want.SENTENCE):
        # "Which Commission Implementing Decision?": the code written after that name;
        # "Which services does it name?": the things listed after "such as" / "like";
        # "哪些信息": the things a sentence enumerates with 、.
        span = (named_code(question, sentence)
                or listed_items(question, sentence) or series_after(question, sentence)
                or zh_listed(question, sentence)
                or (slot(question, sentence) if is_mostly_cjk(sentence) else None))
    return (span or cell_sentence(question, sentence) or sentence).strip()


def span_of(want: Want, question: str, sentence: str, *, now: datetime | None) -> str | None:
    """The span of kind ``want`` in ``sentence`` that answers ``question``, or ``None``."""
    if want is Want.NUMBER:
        return _number(question, sentence)
    if want is Want.DURATION:
        return duration(question, sentence)
    if want is Want.DATE and now is not None:
        # "When may my account be deleted?" — "after 2 months": a when without a date.
        return _date(sentence, now=now) or relative_wait(question, sentence)
    if want is Want.NAME:
        if not asks_called(question):
            # A table row's names are its cells, and a Chinese question names none of
            # an English row's headers (``row_cell`` found none): no cell is the answer.
            if ZH_NAMED.search(question) and (is_mostly_cjk(sentence) or is_row(sentence)):
                return None
            return names(question, sentence)
        # "五年前华为发布的报告叫什么？" over "…发布全球产业展望GIV 2025…": no "called" to read
        # the name after, and a run of capitals ("GIV") may be half of it; only a question
        # asking who or which kind looks for names.
        named = _WHO_QUESTION.search(question) or WHICH_NAMED.search(question)
        return called_span(question, sentence) or (names(question, sentence) if named else None)
    if want is Want.YES_NO:
        return deciding_clause(question, sentence)
    if want is Want.LINK:
        found = (_EMAIL.search(sentence) if _EMAIL_QUESTION.search(question) else None) \
            or _URL.search(sentence)
        return found.group(0).rstrip(".,;:!?") if found else None
    return None


def _number(question: str, sentence: str) -> str | None:
    phone = _PHONE.search(sentence) if _PHONE_QUESTION.search(question) else None
    if phone:
        # Else "how many phone number masks" counts masks.
        return phone.group(0)
    if asks_item(question):
        return numbered_item(question, sentence)
    label = _number_label(question)
    if label is not None:
        # The number written after its label ("Version 1.2"): "what version number" asks
        # for the number, "which section" for the section.
        name, whole = label
        if name in _ZH_LABELS:
            zh = re.search(rf"第[{HAN}\d]{{1,6}}?{name}", sentence)
            if zh:
                return zh.group(0)
            name = _ZH_LABELS[name]
        found = re.search(rf"\b(?:{name})s?\s*(?:no\.?|number|#)?\s*:?\s*({_LABEL})"
                          rf"(?:\s*(?:—|–|-|to|through|and)\s*(?:{_LABEL}))?", sentence,
                          re.IGNORECASE)
        if found is None:
            # "Which clause number …?" over "… clause at 252.227-7013 (DOD contracts)": a
            # legal citation; a jersey's number is no code of a sentence's years.
            return number_code(question, sentence) if whole else None
        return found.group(0) if whole else found.group(1)
    zh = _ZH_QUANTITY.search(question)
    if zh and re.search(f"[{HAN}]", question):
        return zh_number(zh.group(1), sentence)
    if re.search("多[长高大远重宽深]", question):
        return first_zh_measure(sentence)
    ages = list(_AGE.finditer(sentence)) if _AGE_QUESTION.search(question) else []
    if ages:
        return nearest(question, sentence, ages)
    unit = counted_noun(question)
    if unit:
        counted = list(re.finditer(rf"\b(?:{QUALIFIER}{RANGE}[\s-]+|{_UNLIMITED})(?:[a-z]+\s+)"
                                   rf"{{0,2}}?{re.escape(unit)}s?\b", sentence, re.IGNORECASE))
        if counted:
            # "one phone number mask, an unlimited number of email masks": the count whose
            # own words are the question's.
            asked = stems(question)
            return max(counted, key=lambda m: len(asked & stems(m.group(0)))).group(0)
        return duration(question, sentence) if DURATION.search(sentence) else None
    return _first_measure(sentence)


def whole_without_number(answer: str) -> bool:
    """Whether ``answer`` says how many or how soon without a number, as a whole answer:
    "immediately", "effective immediately", "no phone number masks", "an unlimited
    number of email masks", 不限数量."""
    text = answer.strip().rstrip(".。")
    return bool(AT_ONCE.fullmatch(text) or re.match(rf"(?:{_UNLIMITED})\w", text, re.IGNORECASE)
                or re.fullmatch(ZH_UNLIMITED, text))


def labelled_number(question: str) -> bool:
    """Whether ``question`` asks for a number by its label: a phone number, "what version
    number", "which section"."""
    return bool(_PHONE_QUESTION.search(question)) or _number_label(question) is not None


def _number_label(question: str) -> tuple[str, bool] | None:
    """The label ``question`` asks a number by ("version", "section") and whether the
    answer is the labelled whole ("Section 22581") rather than the number alone."""
    label = _WHAT_NUMBER.search(question)
    if label is None or not (name := label.group(1) or label.group(2) or label.group(3)
                             or label.group(4)):
        return None
    return name, label.group(3) is not None or label.group(4) is not None


def counted_noun(question: str) -> str | None:
    """The noun "how many X" counts, singular ("how many user accounts" -> "account");
    None when the question counts none ("how many is …": a stop word is no unit)."""
    match = _HOW_MANY.search(question)
    noun = (match.group(1) or match.group(2)).lower() if match else ""
    return noun.rstrip("s") if match and noun not in EN_STOP_WORDS else None


def _first_measure(sentence: str) -> str | None:
    for found in _MEASURED.finditer(sentence):
        text = found.group(0).strip()
        if not re.search(r"\d|[a-z]", text) or re.fullmatch(r"(?:1[5-9]|20)\d\d", text):
            continue
        if re.search(r"[$€£¥%]|\b(?:percent|cent|million|billion)\b", text) or \
                re.search(_MEASURE_UNIT, text, re.IGNORECASE):
            return text
    return None


def _date(sentence: str, *, now: datetime) -> str | None:
    found = next((e for e in extract(sentence, now=now) if e.kind == "date"), None)
    return None if found is None else found.text
