"""Short answers and the facts a sentence states (used to detect disagreement).

Deterministic string rules, no model. The short answer is the smallest span of the best
sentence that answers what the question wants (:func:`wanted`):

* a number with its unit and its range for "how many X" / "how much" / "how tall" /
  多少 / 几 ("10-14 business days", "$5 to $10", "at least 13 years", "48枚金牌", "30天");
* a duration for "how long" / "window" / "period" / 多久 ("10–14 days", "two weeks"), or
  one said in words ("for the duration of the payment term", "for as long as your
  account is active", 在您使用 Firefox 期间), whichever stands nearest the question's words;
* the phone number for "what phone number", the number after its label for "what
  version number" ("Version 1.2"), the labelled number for "which section" ("Section 5");
* the whole date phrase for "when" / "what date" / "effective date" / 哪天 ("February 1,
  2024", "2024年1月1日");
* the names for "who" and for "which company / court / account" ("Edmund Hillary and
  Tenzing Norgay", "GitHub B.V."), when the sentence names exactly one run of them that
  the question does not, or one that is the kind asked for ("Firefox Account";
  ``answer.names``);
* the address for "where can I see / find …" / 在哪里查看, and the e-mail address for
  "which email address" / 邮箱, when the sentence gives one;
* the cell of a table row under the header "which X" / "who" asks for
  (``answer.cells``);
* for a yes/no question the whole sentence: it is what decides it.

When no span of the wanted kind can be chosen the answer is the whole sentence.
"""

from __future__ import annotations

import enum
import re
from datetime import datetime

from chronorag.answer.cells import row_cell, time_cell
from chronorag.answer.lengths import length_in_days
from chronorag.answer.names import WHICH_NAMED, names
from chronorag.answer.zh_quantity import ZH_NUMBER, ZH_TIME_UNITS, first_zh_measure, zh_number
from chronorag.lang import EN_STOP_WORDS, HAN, STATEMENT_STOP_WORDS, has_han
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


_NUMBER_WORD = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|"
                r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a\s+few|several)")
_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_MONEY = rf"(?:(?:US|CA|A)?\$|€|£|¥|USD\s?|EUR\s?)?(?:{_NUMBER}|{_NUMBER_WORD})" \
         r"(?:\s?(?:%|percent\b|per\s+cent\b|million\b|billion\b))?"
_RANGE = rf"{_MONEY}(?:\s*(?:-|–|—|to|and|through|or)\s*{_MONEY})?"
_QUALIFIER = (r"(?:(?:at\s+least|at\s+most|up\s+to|no\s+more\s+than|no\s+less\s+than|"
              r"more\s+than|less\s+than|fewer\s+than|a\s+maximum\s+of|a\s+minimum\s+of|"
              r"between|from)\s+)?")
_TIME_UNIT = (r"(?:(?:business|working|calendar|consecutive)\s+)?"
              r"(?:seconds?|minutes?|hours?|days?|nights?|weeks?|months?|years?)\b")
_MEASURE_UNIT = (r"(?:metres?|meters?|kilometres?|kilometers?|km|cm|mm|miles?|feet|foot|ft|"
                 r"inches|kg|kilograms?|grams?|tonnes?|tons?|pounds?|lbs?|litres?|liters?|"
                 r"square\s+\w+|years?\s+old|years?\s+of\s+age|dollars?|euros?|cents?|"
                 r"(?:kilo|mega|giga|tera)?bytes?|[KMGT]i?B)\b")
# A rate: "1.0% per month", "$5 a month".
_PER = r"(?:\s+(?:per|an?)\s+(?:second|minute|hour|day|week|month|year|annum))"
_DURATION = re.compile(rf"\b{_QUALIFIER}{_RANGE}[\s-]+{_TIME_UNIT}", re.IGNORECASE)
# A length of time said in words: "for the duration of the payment term", "for as long
# as your account is active", "within its defined window". The phrase runs to the end of
# its clause (a mark, or "or" / "and" / "but" starting another), at most ten words past
# its head.
_WORDED_DURATION = re.compile(
    r"\b(?:(?:for|during|throughout)\s+(?:as\s+long\s+as|the\s+(?:duration|length|life|"
    r"lifetime|period|term|rest|remainder|span)\s+of|the\s+(?:current|remaining|entire|"
    r"whole|same|applicable|relevant)\s+(?:[a-z]+\s+){0,2}?(?:period|term|cycle))|within\s+"
    r"(?:its|their|the|our|your|a|an)\s+(?:[a-z]+\s+){0,2}?(?:window|period|time\s?frame|"
    r"timeframe))\b(?:\s+(?!(?:or|and|but|unless|except|while)\b)[^\s,;:.()“”\"]+){0,10}",
    re.IGNORECASE)
# A bound said after the number: "13 years of age or older".
_OR_MORE = (r"(?:\s+or\s+(?:more|older|greater|higher|above|over|less|fewer|younger|lower|"
            r"below|under))")
_MEASURED = re.compile(rf"(?<![\w.]){_QUALIFIER}{_RANGE}(?:[\s-]*{_MEASURE_UNIT})?{_PER}?"
                       rf"{_OR_MORE}?",
                       re.IGNORECASE)
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
    r"\b(?:below|above|under|over)\s+what\b",
    re.IGNORECASE)
_DURATION_QUESTION = re.compile(
    r"\bhow\s+long\b|\bwindow\b|\bperiod\b|\bdeadline\b|\btime\s+limit\b|多久|多长时间|"
    r"期限|时限|几天内|多少天内", re.IGNORECASE)
# Asks for a length of time even in the words of a quantity ("how much notice").
_TIME_QUESTION = re.compile(
    r"\bhow\s+(?:soon|quickly|fast|far\s+in\s+advance|much\s+(?:advance\s+)?(?:notice|"
    r"time|lead\s+time|warning))\b|\bhow\s+many\s+(?:seconds|minutes|hours|days|weeks|"
    r"months|years)\s+(?:in\s+advance|before|notice)\b|提前多久|多快|多长时间内", re.IGNORECASE)
# The largest or the smallest of several: the span is chosen by value, not by position.
_MOST = re.compile(r"\b(?:longest|maximum|most|highest|largest|greatest|upper\s+limit)\b|"
                   r"最长|最多|最大|最高|最久|上限", re.IGNORECASE)
_LEAST = re.compile(r"\b(?:shortest|minimum|(?<!at\s)least|lowest|smallest|fewest|lower\s+"
                    r"limit)\b|最短|最少|最小|最低|下限", re.IGNORECASE)
# The words around a span that say what it is: mostly before it ("retention period of").
_BEFORE, _AFTER = 80, 30
_DATE_QUESTION = re.compile(
    r"(?:^|[,;:]\s*)(?:by\s+|until\s+)?when\b|\bwhat\s+(?:date|day|year|month)\b|"
    r"\bwhich\s+(?:date|day|year|month)\b|\b(?:effective|start|end|expiry|expiration)\s+date\b|\bsince\s+when\b|"
    r"什么时候|何时|哪天|哪一天|哪年|哪一年|几月|几号|哪个月|生效日期|什么时间", re.IGNORECASE)
_WHERE_TO_LOOK = re.compile(
    r"\bwhere\s+(?:can|do|could|should|may|will)\s+(?:i|we|you|users?|customers?)\s+"
    r"(?:see|find|view|read|get|download|access|look\s+up|check|review)\b|"
    r"(?:在哪里|在哪儿|哪里可以|何处)(?:可以|能)?(?:查看|找到|看到|阅读|下载|获取)", re.IGNORECASE)
_URL = re.compile(r"(?:https?://|www\.)[^\s<>()\[\]{}\"'“”‘’，。；）]+")
_EMAIL_QUESTION = re.compile(r"\b(?:e-?mail|email)\s+address\b|\bwhich\s+e-?mail\b|"
                             r"(?:电子)?邮(?:箱|件地址)", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}")
# The same in Chinese: 在您使用 Firefox 期间, 只要您的帐户处于活跃状态, 直至您删除帐户为止.
_ZH_WORDED_DURATION = re.compile(r"在[^，,。；;、：:]{1,24}?期间|只要[^，,。；;、：:]{1,24}|"
                                 r"直(?:至|到)[^，,。；;、：:]{1,24}?(?:为止|$|(?=[，,。；;]))")
# A number that is no quantity: "what phone number", "what version number"; "which
# section" asks for the labelled number itself ("Section 22581").
_WHAT_NUMBER = re.compile(r"\bwhat\s+(?:([a-z]+)\s+)?number\b|\bwhat\s+(version)\b|"
                          r"\b(?:which|what)\s+(section|article|clause|chapter|paragraph)\b",
                          re.IGNORECASE)
_PHONE_QUESTION = re.compile(r"\b(?:(?:tele)?phone|fax)\s+number\b|\bnumber\s+(?:can|could|"
                             r"should|do|may|must)\s+\w+\s+(?:call|dial)\b|电话号码",
                             re.IGNORECASE)
_PHONE = re.compile(r"(?<![\w.])\+?\(?\d{1,4}\)?(?:[\s.-]\(?\d{2,4}\)?){2,4}(?![\w.-]*\d)")
_WHO_QUESTION = re.compile(r"(?:^|[,;:]\s*)(?:who|whom|whose)\b|\bby\s+whom\b",
                           re.IGNORECASE)
_YES_NO = re.compile(
    r"^\s*(?:is|are|was|were|am|do|does|did|can|could|may|might|will|would|shall|should|"
    r"has|have|had|must)\b|(?:吗|(?<![什怎那这多要])么|是否|能否|可否|是不是|有没有|能不能|可不可以|会不会)"
    r"[^，,]*[？?]?\s*$", re.IGNORECASE)
_ZH_QUANTITY = re.compile(r"(?:多少|几)([^\s，。？?、]{0,4})")


def wanted(question: str) -> Want:
    """The kind of span ``question`` asks for (see the module docstring)."""
    if _YES_NO.search(question):
        return Want.YES_NO
    if _TIME_QUESTION.search(question) or (_DURATION_QUESTION.search(question)
                                           and not _HOW_MANY.search(question)):
        return Want.DURATION
    if (_HOW_MANY.search(question) or _HOW_MEASURE.search(question)
            or _WHAT_NUMBER.search(question)
            or _ZH_QUANTITY.search(question) or re.search("多[长高大远重宽深]", question)):
        return Want.NUMBER
    if _DATE_QUESTION.search(question):
        return Want.DATE
    if _WHO_QUESTION.search(question) or WHICH_NAMED.search(question):
        return Want.NAME
    if _WHERE_TO_LOOK.search(question) or _EMAIL_QUESTION.search(question):
        return Want.LINK
    return Want.SENTENCE


def short_answer(question: str, sentence: str, *, now: datetime | None = None) -> str:
    """The smallest span of ``sentence`` that answers ``question``; the sentence when no
    span of the wanted kind is found. A date is looked for only with ``now`` (the time
    relative phrases are read against)."""
    want = wanted(question)
    # A table row answers "which X" / "who" with the cell under the header it asks for,
    # "how long" / "when" with the cell under its header of time.
    cell = row_cell(question, sentence) if want in (Want.NAME, Want.SENTENCE) \
        else time_cell(sentence) if want in (Want.DURATION, Want.DATE) else None
    return (cell or span_of(want, question, sentence, now=now) or sentence).strip()


def span_of(want: Want, question: str, sentence: str, *, now: datetime | None) -> str | None:
    """The span of kind ``want`` in ``sentence`` that answers ``question``, or ``None``."""
    if want is Want.NUMBER:
        return _number(question, sentence)
    if want is Want.DURATION:
        return _duration(question, sentence)
    if want is Want.DATE and now is not None:
        # "When may my account be deleted?" — "after 2 months": a when without a date.
        return _date(sentence, now=now) or _relative_wait(sentence)
    if want is Want.NAME:
        return names(question, sentence)
    if want is Want.LINK:
        found = (_EMAIL.search(sentence) if _EMAIL_QUESTION.search(question) else None) \
            or _URL.search(sentence)
        return found.group(0).rstrip(".,;:!?") if found else None
    return None


def _number(question: str, sentence: str) -> str | None:
    if _PHONE_QUESTION.search(question):
        phone = _PHONE.search(sentence)
        return phone.group(0) if phone else None
    label = _number_label(question)
    if label is not None:
        # The number written after its label ("Version 1.2"): "what version number" asks
        # for the number, "which section" for the section.
        name, whole = label
        found = re.search(rf"\b{re.escape(name)}\s*(?:no\.?|number|#)?\s*:?\s*(\d[\w.-]*\w|\d)",
                          sentence, re.IGNORECASE)
        if found is None:
            return None
        return found.group(0) if whole else found.group(1)
    zh = _ZH_QUANTITY.search(question)
    if zh and re.search(f"[{HAN}]", question):
        return zh_number(zh.group(1), sentence)
    if re.search("多[长高大远重宽深]", question):
        return first_zh_measure(sentence)
    unit = counted_noun(question)
    if unit:
        counted = re.search(rf"\b{_QUALIFIER}{_RANGE}[\s-]+(?:[a-z]+\s+){{0,2}}?"
                            rf"{re.escape(unit)}s?\b", sentence, re.IGNORECASE)
        if counted:
            return counted.group(0)
        return _duration(question, sentence) if _DURATION.search(sentence) else None
    return _first_measure(sentence)


def labelled_number(question: str) -> bool:
    """Whether ``question`` asks for a number by its label: a phone number, "what version
    number", "which section"."""
    return bool(_PHONE_QUESTION.search(question)) or _number_label(question) is not None


def _number_label(question: str) -> tuple[str, bool] | None:
    """The label ``question`` asks a number by ("version", "section") and whether the
    answer is the labelled whole ("Section 22581") rather than the number alone."""
    label = _WHAT_NUMBER.search(question)
    if label is None or not (name := label.group(1) or label.group(2) or label.group(3)):
        return None
    return name, label.group(3) is not None


def counted_noun(question: str) -> str | None:
    """The noun "how many X" counts, singular ("how many user accounts" -> "account");
    None when the question counts none ("how many is …": a stop word is no unit)."""
    match = _HOW_MANY.search(question)
    noun = (match.group(1) or match.group(2)).lower() if match else ""
    return noun.rstrip("s") if match and noun not in EN_STOP_WORDS else None


def _duration(question: str, sentence: str) -> str | None:
    if re.search(f"[{HAN}]", question + sentence):
        found = _length(question, sentence, list(re.finditer(
            rf"{ZH_NUMBER}\s*(?:{ZH_TIME_UNITS})", sentence)), _ZH_WORDED_DURATION)
        if found:
            return found
    return _length(question, sentence, list(_DURATION.finditer(sentence)), _WORDED_DURATION)


def _length(question: str, sentence: str, counted: list[re.Match[str]],
            worded: re.Pattern[str]) -> str | None:
    """Of the counted lengths and those said in words, the one the question asks for:
    only a counted length can be the longest or the shortest."""
    if _MOST.search(question) or _LEAST.search(question):
        return _extreme(question, sentence, counted or list(worded.finditer(sentence)))
    found = sorted([*counted, *worded.finditer(sentence)], key=lambda m: m.start())
    return _extreme(question, sentence, found)


def worded_duration(text: str) -> bool:
    """Whether ``text`` is a length of time said in words ("for as long as your account
    is active"): a whole answer to "how long" without a number."""
    text = text.strip().rstrip(".。")
    return (_WORDED_DURATION.fullmatch(text) or _ZH_WORDED_DURATION.fullmatch(text)) is not None


def _relative_wait(sentence: str) -> str | None:
    """A duration that says when, counted from something ("after 2 months", "within 14
    days", "30 days before", 30天内): not one that says how long something lasted."""
    for found in _DURATION.finditer(sentence):
        lead = re.search(r"\b(after|within|in|before|upon)\s+$",
                         sentence[max(0, found.start() - 12):found.start()], re.IGNORECASE)
        follows = re.match(r"\s+(?:after|before|later|from|of)\b", sentence[found.end():],
                           re.IGNORECASE)
        if lead and lead.group(1).lower() in ("after", "within"):
            return sentence[found.start() - len(lead.group(0)):found.end()]
        if lead or follows:
            return found.group(0)
    zh = re.search(rf"{ZH_NUMBER}\s*(?:{ZH_TIME_UNITS})(?:之内|以内|以后|内|后)", sentence)
    if zh:
        return zh.group(0)
    # "within its defined window" says by when, as "within 14 days" does.
    worded = next((m for m in _WORDED_DURATION.finditer(sentence)
                   if m.group(0).lower().startswith("within")), None)
    return worded.group(0) if worded else None


def _nearest(question: str, sentence: str, found: list[re.Match[str]]) -> str:
    """Of several spans, the one whose words before it share the most content words with
    the question, then the one whose words just after it do, the first on a tie:
    "deleted within 30 days (… Interaction Data, which has a standard retention period of
    90 days)" asked for the retention period of Interaction Data answers 90 days. The
    words that say what a value is stand before it; those after it are as often the next
    clause's ("30 天内删除该数据（交互数据除外…")."""
    asked = content_words(question)
    # A Han character says about as much as a short English word: windows of as many
    # characters would reach three times as far.
    reach = 3 if has_han(sentence) else 1
    ahead, behind = _BEFORE // reach, _AFTER // reach

    def shared(match: re.Match[str]) -> tuple[int, int]:
        before = sentence[max(0, match.start() - ahead):match.start()]
        # A counted span's own words are its unit ("hours"), which the question may ask
        # for; a worded one's are a clause of any words ("… use of Firefox").
        inside = "" if worded_duration(match.group(0)) else match.group(0)
        after = sentence[match.end():match.end() + behind]
        return (len(asked & content_words(before + inside)),
                len(asked & content_words(before + inside + after)))

    return max(found, key=shared).group(0)  # max keeps the first of equals


def content_words(text: str) -> set[str]:
    lowered = text.lower()
    words = {w for w in re.findall(r"[a-z]{3,}", lowered) if w not in STATEMENT_STOP_WORDS}
    han = re.findall(f"[{HAN}]+", text)
    return words | {run[i:i + 2] for run in han for i in range(len(run) - 1)}


def _extreme(question: str, sentence: str, found: list[re.Match[str]]) -> str | None:
    """The span nearest the question's words (``_nearest``); the longest or shortest when
    the question asks for the most or the least ("the longest retention period", 最长期限)
    and each can be measured."""
    spans = [m.group(0) for m in found]
    most, least = _MOST.search(question), _LEAST.search(question)
    if len(spans) < 2:
        return spans[0] if spans else None
    if bool(most) == bool(least):
        return _nearest(question, sentence, found)
    lengths = [length_in_days(span, most=bool(most)) for span in spans]
    if any(length is None for length in lengths):
        return spans[0]
    pick = max if most else min
    return spans[pick(range(len(spans)), key=lambda i: lengths[i] or 0.0)]


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
