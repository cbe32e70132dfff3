"""Words for the present: when a time word asks "as of now" and sets no constraint.

"now", "currently", "at present", 目前, 当前, 现在 (the time parser's ``ref`` words for
the present) always mean the present: a question about the present asks what any question
without a time asks, so the word sets no constraint and leaves the content. 现行 ("in
force") and "these days" are such words too, though the parser reads no time in them.

"today", 今天, 今日 are read by the parser as the day that holds ``now``, and they mean one
of two things. In "How long is the return window today?" or "今天的退货期限是多久？" the
word asks what holds *at* the present, exactly like "now": constraining the search to the
day would move ``as_of`` back to midnight and treat the policies in force as mere
neighbours of that day. In "What did I eat today?" or "今天我吃了什么？" it asks for what
happened *within* the day: records of the day, so the day must stay.

The rule: "today" means the present when the question asks the value of a state, that is

* its verb is the present copula (is, are, 's, 是) or a modal of a rule (have to, can, may,
  能, 可以): states are asked about in the simple present;
* nothing in it marks events of the day: a past or perfective verb (did, was, ate, -ed;
  了, 过, 是…的), a future one (will, going to; 要, 会, 将), a question for a clock time
  or a count (intent TIME or COUNT: "几点吃的午饭", "how many times"), "there is" / 有什么
  (listing what occurs), or a noun that names a day's events (meeting, lunch, schedule;
  会议, 午饭, 日程);
* it does not ask about the asker's own doings: a first-person word (I, my, we; 我) is
  the subject of records unless a rule modal makes "I" any customer ("How many days do I
  have to return an item today?"), and even then not with the pro-verb "do" ("What do I
  have to do today?" asks for the day's tasks).

The two readings fail differently, which is why the rule needs positive evidence of a
state: a state question read as a day loses only a few hours of ``as_of`` (the answer is
still the version in force that day), while an event question read as the present loses
its day and may be answered by another day's records. Words that name a part of the day
(tonight, this morning, 今晚) name a time that is not now and are never the present;
"before today", "since today" keep their relation.
"""

from __future__ import annotations

import re
from datetime import datetime

from chronorag.model import Intent, Relation
from chronorag.timex.engine import Found
from chronorag.timex.relations import Related

_TODAY = re.compile(r"today|今天|今日|今儿", re.IGNORECASE)
# Present words the time parser reads no time in; removed from the content like "now".
PRESENT_WORDS = re.compile(r"现行|\bthese\s+days\b", re.IGNORECASE)

_APOSTROPHE = "['’]"
_STATE = re.compile(
    rf"\b(?:is|are|am|isn{_APOSTROPHE}t|aren{_APOSTROPHE}t)\b"
    rf"|\b(?:what|who|how|where|which|it|that|this|here){_APOSTROPHE}s\b|{_APOSTROPHE}re\b"
    r"|(?<![但可于要若总还])是", re.IGNORECASE)
_RULE_MODAL = re.compile(
    r"\b(?:have|has|need|needs|ought)\s+to\b|\b(?:can|cannot|could|may|might|must|should)\b"
    r"|\b(?:allowed|permitted|entitled|eligible)\b|能|可以|可否|需要|必须|允许|应该",
    re.IGNORECASE)
_TASK = re.compile(
    r"\b(?:to|can|could|may|might|must|should)\s+(?:I\s+|we\s+)?do\b"
    r"|(?:能|可以|需要|必须|应该|得)(?:做|干)", re.IGNORECASE)
_ASKER = re.compile(r"\b(?-i:I)\b|\b(?:me|my|mine|myself|we|our|ours|ourselves)\b"
                    r"|\b(?-i:us|Us)\b|我|咱", re.IGNORECASE)
_PAST_EN = re.compile(
    r"\b(?:did|didn't|was|wasn't|were|weren't|had|hadn't|ate|eaten|drank|drunk|went|gone"
    r"|saw|seen|met|took|taken|got|gotten|spent|wrote|written|ran|bought|paid|sent|said"
    r"|told|came|gave|given|slept|woke|woken|felt|heard|won|sold|brought|caught|thought"
    r"|forgot|forgotten|began|begun|broke|broken|chose|chosen|drove|driven|flew|flown|fell"
    r"|fallen|kept|knew|rode|sat|spoke|spoken|stood|swam|threw|thrown|wore|worn|done|built"
    r"|held|grew|grown|drew|drawn|sang|sung|rang|shot|hid|fought|taught|sought|meant"
    r"|happened|occurred)\b",
    re.IGNORECASE)
# A regular past; rule adjectives in -ed ("Am I allowed", "is it closed") describe states,
# and most words in -eed are no past ("need", "indeed"); a capitalised word is a name.
_ED = re.compile(r"\b[a-z]{2,}ed\b")
_NOT_PAST_ED = frozenset((
    "hundred", "shed", "bed", "red", "wed", "allowed", "permitted", "entitled", "required",
    "supposed", "based", "named", "called", "used", "needed", "closed", "opened", "limited",
    "included", "covered", "accepted", "excluded", "restricted", "prohibited", "priced"))
_PAST_EED = frozenset(("agreed", "disagreed", "freed", "decreed", "guaranteed"))
_PRESENT_BE = re.compile(
    rf"\b(?:is|are|am|be|being|isn{_APOSTROPHE}t|aren{_APOSTROPHE}t)\s+(?:not\s+)?(?:\w+ly\s+)?$"
    rf"|{_APOSTROPHE}(?:s|re)\s+(?:not\s+)?(?:\w+ly\s+)?$", re.IGNORECASE)
# 了 and 过 as aspect markers, not in 为了/除了/了解 or 超过/通过/过期; 是…的 ("谁打的电话",
# "公司是哪一年成立的") reports a past event.
_PAST_ZH = re.compile(r"(?<![为除不得])了(?!解|不起)|(?<![超通不])过(?!期|敏|滤)"
                      r"|刚才|刚刚|已经|曾经"
                      r"|的[？?。！!]?\s*$|(?:谁|哪里|哪儿|在哪|怎么)[^\s的，,。？?]{1,3}的")
_FUTURE = re.compile(
    rf"\b(?:will|won{_APOSTROPHE}t|shall|gonna|going\s+to|plan\s+to|scheduled|planned|due"
    rf"|upcoming|later)\b|{_APOSTROPHE}ll\b"
    r"|(?<![需重主只不想])要(?!求)|会(?!员)|将(?!近)|打算|准备|待会|等会", re.IGNORECASE)
_LISTING = re.compile(r"\bthere\b|有(?:什么|哪些|没有|几|多少[个场次件条])",
                      re.IGNORECASE)
_EVENT_NOUN = re.compile(
    r"\b(?:meeting|agenda|schedule|calendar|appointment|event|plan|menu|task|to-?do"
    r"|reminder|breakfast|lunch|dinner|meal|class|lesson|game|match|shift|outage|incident"
    r"|alert|order|weather|forecast|news|headline)(?:e?s)?\b"
    r"|会议|日程|安排|计划|预约|任务|待办|提醒|早饭|午饭|晚饭|早餐|午餐|晚餐|课|比赛|值班|排班"
    r"|告警|故障|订单|天气|新闻", re.IGNORECASE)


def names_present(question: str, found: Found, related: Related, *, now: datetime,
                  intent: Intent) -> bool:
    """Whether ``found`` (a time of ``question``, with its relation) means the present.

    The parser's words for the present always do; "today" only in a question about a
    state (see the module docstring).
    """
    interval = found.interval
    if interval is None or interval.start is None or interval.end is None:
        return False
    if not interval.start <= now < interval.end:
        return False
    if found.kind == "ref":
        return True
    return (_TODAY.fullmatch(question[found.start:found.end]) is not None
            and related.relation in (Relation.IN, Relation.AS_OF)
            and asks_a_state(question, intent=intent))


def asks_a_state(question: str, *, intent: Intent) -> bool:
    """Whether ``question`` asks the value of a state at the present, not for events.

    Needs a present copula or a rule modal and no sign of events (tense, a clock time or
    count, listing, an event noun, the asker's own doings): see the module docstring.
    """
    if intent is not Intent.CONTENT:
        return False
    if _STATE.search(question) is None and _RULE_MODAL.search(question) is None:
        return False
    if any(sign.search(question) for sign in (_PAST_EN, _PAST_ZH, _FUTURE, _LISTING,
                                                _EVENT_NOUN)):
        return False
    return not _has_regular_past(question) and not _asks_about_the_asker(question)


def _has_regular_past(question: str) -> bool:
    """Whether a verb in -ed reports a past event.

    Not a past: a present passive or adjective after a present "be" ("refunds are
    issued"), a negated adjective in un- ("unused"), a rule adjective, a word in -eed.
    """
    for match in _ED.finditer(question):
        word = match.group(0)
        if (word in _NOT_PAST_ED or word.startswith("un")
                or (word.endswith("eed") and word not in _PAST_EED)
                or _PRESENT_BE.search(question, 0, match.start())):
            continue
        return True
    return False


def _asks_about_the_asker(question: str) -> bool:
    """A first-person word names the asker's own records, unless a rule modal makes the
    asker anyone the rule applies to (and the modal's verb is not the pro-verb "do")."""
    if _ASKER.search(question) is None:
        return False
    return _RULE_MODAL.search(question) is None or _TASK.search(question) is not None


def present_word_spans(question: str) -> list[tuple[int, int]]:
    """Spans of the present words the time parser does not read (现行, "these days")."""
    return [(m.start(), m.end()) for m in PRESENT_WORDS.finditer(question)]
