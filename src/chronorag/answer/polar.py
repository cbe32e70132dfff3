"""The sentence that decides a yes/no question.

The reranker names the sentence most *about* the question; a yes/no question about a
policy is decided by the sentence that states its practice or permission with a
polarity, and a policy rules a practice out in so many words: for "Does Mozilla keep what
is said on calls I make through my Relay phone mask?" the best sentence describes the
service ("Firefox Relay allows you to keep your … phone number safe … by making masks"),
the next passage decides ("We do not monitor or store the content of phone calls you make
through Firefox Relay."). A sentence that says no outright, sharing at least as many of
the question's content words as the best sentence (and at least ``MIN_SHARED``), decides
in its place. It is looked for in the passages of the best one's document among the
answer's near-ties (one document keeps the version and validity the first was judged by),
the most words shared first. A best sentence that is itself negated stays. A premise
restates the question in more of its words than the statement it leads into ("当您订阅
需要付费的服务时，您的付款将依据…进行处理。… Mozilla 不会存储您的全部付款详情。"): in the
best sentence's own passage, a negation at most ``REACH`` sentences after it needs only
``MIN_SHARED`` words, unless the best sentence says the question's modal ("Can I cancel
…?" over "You can cancel …": it states what is asked) or the negation opens with a
contrast ("But", 但: it qualifies the sentence before, which decided).

An affirmative that decides cannot be told by its words from one that only describes, so
only a negation moves the answer, with one exception: a question asking whether something
counts as something ("这样算不算接受了更新后的条款？", "Does my continued use count as
acceptance?") is decided by a sentence that deems it so ("我们会将您继续使用 Firefox 视为接受
该等变更。", "… shall be deemed …"), which states the very characterisation asked
(``decides``).

A question asks yes or no when it opens with an auxiliary or ends with a Chinese particle
(``opens_yes_no``), or when it states its case or its time first and then asks so ("Under
the terms in force then, did GitHub …?", "I was hired. Can I …?", 这样算不算…?:
``asks_yes_no``). The search for a negation above runs only for a question asked
outright: the words a question that states its case shares with a sentence are mostly its
case's, and the reranker read the sentence that asks apart (``rank.rerank_windows``). For
such a question only the best sentence's own passage is read, the ``REACH`` sentences after
it, and a sentence there that decides does so when it says a word of the asking sentence
that the best one does not (``deciding_after_case``).
Within the sentence that answers, a clause that says no where the rest does not is the
answer (``deciding_clause``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chronorag.answer.choose import content_words
from chronorag.ingest.sentences import asked_sentence, split_sentences
from chronorag.lang import HAN
from chronorag.model import Evidence

MIN_SHARED = 2
"""Content words a deciding sentence shares with the question at least: a product's name
alone is no statement about the question's practice."""

REACH = 2
"""How many sentences after the best one a negation needs only ``MIN_SHARED`` words."""

# What a yes/no question asks with, and a sentence answering it in kind says.
# 能 and 会 inside other words (可能 perhaps, 功能 feature, 会员 member) are no modals.
_MODAL = re.compile(r"\b(?:can|could|will|would|may|might|must|should|shall)\b|可以|必须|"
                    r"(?<![可功性智才技体效本])能(?![力源量])|(?<![机社协学大都理约])会(?![员议话计谈])",
                    re.IGNORECASE)
# "这样算不算接受了更新后的条款？" asks whether something counts as something; "我们会将您继续
# 使用 Firefox 视为接受该等变更。" deems it so: it states what is asked, as a negation would.
_ASKS_COUNTS = re.compile(r"算不算|是否算|算是|\bcount(?:s|ed)?\s+as\b|\b(?:considered|deemed|"
                          r"treated\s+as|regarded\s+as)\b", re.IGNORECASE)
_DEEMS = re.compile(r"视为|视作|当作|认定为|\b(?:deemed|considered|treated\s+as|regarded\s+as|"
                    r"constitutes?)\b", re.IGNORECASE)
# "但这并不赋予 Mozilla 对该内容的任何所有权。" after the grant it limits: a sentence opening
# with a contrast qualifies the one before, which decided.
_CONTRAST = re.compile(r"\s*(?:but|however|yet|although|though|still|nevertheless)\b|"
                       r"\s*(?:但是?|然而|不过|可是|尽管)", re.IGNORECASE)

# English: a verb's negation. Chinese: 不 before a verb, except in words where it does not
# negate the sentence (不同 different, 不仅 not only, 不超过 a bound, 不断 continuously,
# 不得不 must, …); 不得 (must not) does.
NEGATION = re.compile(
    r"\b(?:not|never|cannot|no\s+longer|unable|neither|nor)\b|n[’']t\b"
    r"|无法|没有|并未|未能|从未|(?<![要])(?<!不得)不(?![同仅断论管久过超少低高足止]|得不)",
    re.IGNORECASE)
# A pronoun that says no ("Nothing in these Terms is intended to affect those rights", "none
# of your data is sold"): in lower case, or opening the sentence before its other words. A
# capital inside a sentence is a name ("…，Nothing Phone (2)正式发布").
NO_PRONOUN = re.compile(r"\b(?:nothing|nobody|none|no\s+one)\b|"
                        r"^\W*(?:Nothing|Nobody|None|No\s+one)\s+\w")


def negated(sentence: str) -> bool:
    """Whether ``sentence`` says no outright (see ``NEGATION`` and ``NO_PRONOUN``)."""
    return NEGATION.search(sentence) is not None or NO_PRONOUN.search(sentence) is not None


def decides(question: str, sentence: str) -> bool:
    """Whether ``sentence`` states what the yes/no ``question`` asks in so many words: it
    says no, or it deems what the question asks whether something counts as."""
    return negated(sentence) or (_ASKS_COUNTS.search(question) is not None
                                 and _DEEMS.search(sentence) is not None)


# A reply that says yes or no by itself, however short: "Yes.", "No, never.", "可以。"
# (对 opens 对于 "regarding" too, which replies nothing).
_REPLY = re.compile(r"\W*(?:(?:yes|yeah|yep|no|nope|sure|correct|indeed|of\s+course)\b|"
                    r"是的|不是|不可以|可以|不能|不会|没有|对(?!于))", re.IGNORECASE)


def replies(sentence: str) -> bool:
    """Whether ``sentence`` answers a yes/no question by itself, however short: it opens
    with yes or no ("Yes.", "不可以。") or says no outright."""
    return _REPLY.match(sentence) is not None or negated(sentence)


_AUX = (r"(?:is|are|was|were|am|do|does|did|can|could|may|might|will|would|shall|should|"
        r"must)")
# A question asked outright opens with an auxiliary ("Can I …?", "Has it …?") or ends its last
# clause with a Chinese particle or a paired form (…吗？, 是否…, 有没有…).
_OPENS_YES_NO = re.compile(
    rf"^\s*(?:{_AUX}|has|have|had)\b|(?:吗|(?<![什怎那这多要])么|是否|能否|可否|是不是|有没有|能不能|"
    r"可不可以|会不会)[^，,]*[？?]?\s*$", re.IGNORECASE)
# A Chinese wh-word before 有没有 / 是否 in the clause that asks makes it a wh-question
# ("我的哪些信息有没有被泄露？" asks which); one ending in 吗 asks yes or no whatever it
# holds ("会收集我访问了哪些网站的数据吗？").
_ZH_WH_FIRST = re.compile(r"(?:哪些|哪几|哪[个种类家位项]|什么|谁)[^吗]*"
                          r"(?:有没有|是否|是不是|会不会|能不能)[^吗]*[？?]?\s*$")


def opens_yes_no(question: str) -> bool:
    """Whether ``question`` asks yes or no from its first word ("Can I cancel…?") or with
    its Chinese particle (…吗？), not after a case or a time it states first."""
    return _OPENS_YES_NO.search(question) is not None \
        and not _ZH_WH_FIRST.search(re.split("[，,]", question)[-1])


# The clause that asks opens with an auxiliary, after the case or the time it is asked in:
# "Under the terms in force then, did GitHub use …?", "If I turn on the VPN, does it …?".
# Not "has": after a comma it is as often the verb of a statement asked as a question
# ("Metro Line 2, as built, had a stop that was situated where?").
_AUX_CLAUSE = re.compile(rf"(?:^|[,，]\s*){_AUX}\s+(?!not\b)\w", re.IGNORECASE)
# A wh-word asks for something other than yes or no ("…, does it sell which data?", "Is
# there a limit on how many …?"); "when"/"where" before a subject opens a clause of the
# case ("When I contact GitHub, should I …?"), before an auxiliary or at the end it asks.
_WH = re.compile(rf"\b(?:what|which|who|whom|whose|why|how)\b|\b(?:when|where)\s+{_AUX}\b"
                 r"|\b(?:when|where)\W*$", re.IGNORECASE)
# "Could it be an outage, or could it go away for good?" asks which of two.
_ALTERNATIVE = re.compile(r"[,，]\s*or\b", re.IGNORECASE)
# Chinese asks yes or no with a verb and its negation: 算不算, 要不要, 用不用.
_A_NOT_A = re.compile(rf"([{HAN}])不\1")
_ZH_WH = re.compile("什么|哪|谁|怎么|怎样|如何|多少|几")


def asks_yes_no(question: str) -> bool:
    """Whether ``question`` asks yes or no where its case comes first: its asking sentence
    (``asked_sentence``) opens a clause with an auxiliary and says no wh-word and no
    second choice, or its last clause asks with a Chinese verb and its negation (这样算不算
    接受了条款？) and no wh-word."""
    asking = asked_sentence(question) or question
    clause = _AUX_CLAUSE.search(asking)
    if clause and not _WH.search(asking) and not _ALTERNATIVE.search(asking):
        return True
    last = re.split("[，,]", question)[-1]
    return _A_NOT_A.search(last) is not None and not _ZH_WH.search(last)


def deciding_after_case(question: str, first: Evidence) -> Evidence:
    """``first``, or the sentence of its own passage at most ``REACH`` after its sentence
    that decides what a question that states its case asks (``decides``): it says a word
    of the asking sentence (``asked_sentence``) that the best sentence does not ("I have a paid
    VPN subscription. Am I allowed to resell access to it?" over "If you have a paid
    subscription, Mozilla gives you permission to use the VPN. … You may not transfer,
    sublicense, resell, or commercially exploit the service."). The case's words are left
    out: a negation they lead to is about something else."""
    chosen = first.sentence or first.text
    if decides(question, chosen) or _says_modal(question, chosen):
        return first
    asked = content_words(asked_sentence(question) or question)
    said = content_words(chosen)
    spans = split_sentences(first.text)
    best: tuple[int, str] | None = None
    for j in sorted(_near(chosen, first.text, spans)):
        sentence = first.text[spans[j][0]:spans[j][1]].strip()
        shared = asked & content_words(sentence)
        if decides(question, sentence) and not _CONTRAST.match(sentence) and shared - said \
                and (best is None or len(shared) > best[0]):
            best = (len(shared), sentence)
    return first if best is None else replace(first, sentence=best[1])


def deciding(question: str, first: Evidence, band: Sequence[Evidence]) -> Evidence:
    """``first``, or the band passage of its document whose sentence decides the
    yes/no ``question`` (see the module docstring), with that sentence as its own."""
    chosen = first.sentence or first.text
    if decides(question, chosen):
        return first
    asked = content_words(question)
    need = max(len(asked & content_words(chosen)), MIN_SHARED)
    states = _says_modal(question, chosen)
    best: tuple[int, Evidence, str] | None = None
    for item in (e for e in band if e.doc_id == first.doc_id):
        spans = split_sentences(item.text)
        near = set() if states or item is not first else _near(chosen, item.text, spans)
        for j, (start, end) in enumerate(spans):
            sentence = item.text[start:end].strip()
            shared = len(asked & content_words(sentence))
            enough = MIN_SHARED if j in near and not _CONTRAST.match(sentence) else need
            if shared >= enough and decides(question, sentence) \
                    and (best is None or shared > best[0]):
                best = (shared, item, sentence)
    return first if best is None else replace(best[1], sentence=best[2])


# A clause of one sentence: what a semicolon separates, and a parenthesis of a few words.
_PARENTHESIS = re.compile(r"[(（]([^()（）]{20,})[)）]")
_SEMICOLON = re.compile(r";\s+|；")


def deciding_clause(question: str, sentence: str) -> str | None:
    """The clause of ``sentence`` that says no to the yes/no ``question`` when the rest of
    it does not: "…your page content will be sent to a Mozilla server for processing and
    returned to your device; Mozilla does not store this content or resulting summaries."
    answers "Does Mozilla keep the page content?" with its second clause, "you have the
    right to … withdraw your consent (although an employee cannot withdraw consent to …)"
    answers "Can I withdraw my consent…?" with the parenthesis. The negated clause sharing
    most of the question's content words, at least ``MIN_SHARED``; None when no clause or
    every clause says no, or when an affirmative clause says the question's modal (it
    states what is asked: "You can cancel at any time; we do not refund the month")."""
    inner = [m.group(1).strip() for m in _PARENTHESIS.finditer(sentence)]
    outer = [c.strip() for c in _SEMICOLON.split(_PARENTHESIS.sub(" ", sentence))]
    clauses = [c for c in (*outer, *inner) if c]
    said_no = [c for c in clauses if negated(c)]
    said_yes = [c for c in clauses if not negated(c)]
    if not said_no or not said_yes or any(_says_modal(question, c) for c in said_yes):
        return None
    asked = content_words(question)
    shared, clause = max((len(asked & content_words(c)), c) for c in said_no)
    return clause if shared >= MIN_SHARED else None


def _says_modal(question: str, sentence: str) -> bool:
    """Whether ``sentence`` says the modal ``question`` asks with ("Can I cancel …?" over
    "You can cancel …"): it states what is asked, not a premise."""
    asked = {m.lower() for m in _MODAL.findall(question)}
    return bool(asked & {m.lower() for m in _MODAL.findall(sentence)})


def _near(chosen: str, text: str, spans: Sequence[tuple[int, int]]) -> set[int]:
    """The sentences of ``text`` (the chosen sentence's own passage) at most ``REACH``
    after the chosen one: the statement a premise leads into ("… Mozilla will receive your
    account record. Mozilla does not store your full payment details.") shares fewer of the
    question's words than the premise that restates it, and needs only ``MIN_SHARED``."""
    at = text.find(chosen.strip()) if chosen.strip() else -1
    if at < 0:
        return set()
    inside = [j for j, (s, e) in enumerate(spans) if s < at + len(chosen.strip()) and e > at]
    return set(range(inside[-1] + 1, min(inside[-1] + 1 + REACH, len(spans)))) if inside else set()
