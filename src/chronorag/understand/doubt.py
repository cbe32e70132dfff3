"""How sure the reading of a question's time is.

A constraint is read from one time of the question. That reading is certain when the
question names one time in full ("in 2021", "2024年7月", "上周"); it is a guess when the
question names several times and the constraint keeps one, when the question compares or
lists events (a time in "2024年巴黎奥运会中郭清获得银牌和公众咨询开始哪个更早" belongs to
the first event only), and when a time without its year or month took now's ("2月",
"至5日"). A doubted constraint still orders the candidates, but only those relevance cannot
tell apart (``rank.temporal``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chronorag.model import Doubt, Relation
from chronorag.timex.engine import Found
from chronorag.timex.relations import Related

# "哪个事件更早发生", "哪一个先", "哪个发生得最晚", "是否在同一个月", "是同一天吗", "分别";
# "which came first", "which happened earlier", "the same month", "respectively".
_COMPARISON_ZH = re.compile(
    r"哪[个個一件项項位场場次].{0,16}?(?:更早|最早|更晚|最晚|较早|较晚|先|早|晚)"
    r"|(?:更早|最早|更晚|最晚|较早|较晚)[^，。？！,?!]{0,8}?是?哪[个個一件项項]"
    r"|哪[个個一件项項][^，。？！,?!]{0,16}?(?:在前|在后|在先)"
    r"|同一[个個]?(?:天|日|月|年|周|星期|季度|时间|时期)|分别|各自|先后|孰先|以下事件")
# English asks "which came first" with a verb of happening; "which was the first team
# ... after 2005" is an ordinal question, not a comparison, and keeps its time.
_COMPARISON_EN = re.compile(
    r"\bwhich\b(?:\s+[\w-]+){0,3}?\s+(?:came|happened|occurred|took\s+place|started|began"
    r"|ended|was\s+(?:held|announced|released))\s+(?:first|earlier|later|last|before|after)\b"
    r"|\b(?:in|on|during)\s+the\s+same\s+(?:day|week|month|year)\b|\brespectively\b",
    re.IGNORECASE)


def compares(question: str) -> bool:
    """Whether ``question`` compares or lists events ("A和B哪个更早", "which came first");
    its 最早 / "first" then asks which of them, not for the first of a kind."""
    return bool(_COMPARISON_ZH.search(question) or _COMPARISON_EN.search(question))


def doubts_of(found: Sequence[Found], chosen: Related | None, *, compared: bool
              ) -> tuple[Doubt, ...]:
    """The doubts about the constraint read from ``chosen``, one of the question's
    times ``found`` (those that constrain it, the present already left out), in a
    question that ``compares`` events or not (``compared``)."""
    if chosen is None:
        return ()
    out: list[Doubt] = []
    # A relation word marks its time as the question's ("established in 1960, ... after
    # Aug 2008"); among plain times the choice of one is a guess.
    if chosen.relation is Relation.IN and len({f.interval for f in found}) > 1:
        out.append(Doubt.SEVERAL_TIMES)
    if compared:
        out.append(Doubt.COMPARISON)
    if borrows_now(chosen.found):
        out.append(Doubt.FROM_NOW)
    return tuple(out)


def borrows_now(found: Found) -> bool:
    """Whether ``found`` took its year or month from now ("2月", "至5日")."""
    return bool(found.rule is not None and found.rule.borrows and not found.anchored)
