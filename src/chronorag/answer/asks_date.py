"""What a question asks of a document's own date: when it takes effect ("When did the
current Terms of Use take effect?", 现行条款是哪天生效的？), when it was last updated, or
whether it names a document at all."""

from __future__ import annotations

import re

__all__ = ["asked_field", "names_document"]

_WHEN = re.compile(r"\b(?:when|what\s+(?:date|day)|which\s+(?:date|day|version)|since\s+when"
                   r"|(?:effective|revision|update)\s+date|date\s+of)\b"
                   r"|哪天|哪一天|什么时候|何时|几号|哪个版本|哪一版|日期", re.IGNORECASE)
_EFFECTIVE = re.compile(r"\b(?:takes?\s+effect|took\s+effect|taken\s+effect|effective"
                        r"|in\s+(?:effect|force)|c[oa]mes?\s+into\s+(?:force|effect)"
                        r"|enter(?:s|ed)?\s+into\s+force)\b|生效|施行|实施|起效",
                        re.IGNORECASE)
# "From what date do these Terms apply?", 从哪天起适用: applying from a date is taking effect.
_APPLIES_FROM = re.compile(r"\b(?:from|since|starting|beginning)\s+(?:what|which)\s+(?:date|day)\b"
                           r"[^?]*\bappl(?:y|ies|ied)\b|\bsince\s+when\b[^?]*\bappl(?:y|ies|ied)\b|"
                           r"(?:从|自)(?:哪天|哪一天|什么时候|何时|哪个日期)(?:起|开始)(?:适用|生效)",
                           re.IGNORECASE)
# "The cookie list in force in February 2022": the time a question is asked at, not the
# date it asks for.
_AS_OF = re.compile(r"\b(?:in\s+(?:effect|force)|effective|applicable|valid)\s+(?:in|on|at|as\s+of|"
                    r"during|today|now|then)\b", re.IGNORECASE)
# What has a date of its own to take effect on.
_DOCUMENT = re.compile(r"\b(?:terms|polic(?:y|ies)|notices?|statements?|agreements?|conditions|"
                       r"versions?|addend(?:um|a)|sections?|documents?|guidelines|rules|pages?|"
                       r"licen[cs]es?|contracts?|effective\s+date)\b|条款|声明|政策|协议|版本|规则|"
                       r"规定|办法|条例|通知|文件|守则|须知|许可", re.IGNORECASE)
_UPDATED = re.compile(r"\blast\s+(?:updated|modified|revised|changed|amended)\b"
                      r"|\b(?:updated|revised)\b|最后更新|最近更新|更新|修订", re.IGNORECASE)


def asked_field(question: str) -> str | None:
    """``valid_from`` when ``question`` asks when a document takes effect,
    ``modified_at`` when it asks when one was updated, else None."""
    asked = _AS_OF.sub(" ", question)
    if _WHEN.search(asked) is None:
        return None
    if _UPDATED.search(asked):
        return "modified_at"
    return "valid_from" if _EFFECTIVE.search(asked) or _APPLIES_FROM.search(asked) else None


def names_document(question: str) -> bool:
    """Whether ``question`` names something with a date of its own to take effect on (a
    policy, its terms, a version, 条款)."""
    return bool(_DOCUMENT.search(question))
