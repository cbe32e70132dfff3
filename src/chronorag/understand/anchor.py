"""Questions about a beginning or an end: the constraint applies to one edge of a state.

"Who was appointed chief executive after 2015?" asks whose term *began* after 2015, so a
chief executive who served 2010–2018 does not answer it although part of the term lies
after 2015; "Who left the club in 2005?" asks whose membership *ended* then. The verb that
names the change must share a clause with the constraining time: "In 1994 the Rams left
California. What stadium did they play in from 1995 to 2015?" asks about a state.
Only verbs that name a change of state count; "named" and "founded" are left out
because questions mostly use them in descriptions ("the bank founded in 1991", "the
square named after him") rather than to ask when something began.
"""

from __future__ import annotations

import re

from chronorag.model import Anchor
from chronorag.timex.relations import Related

_START_EN = (
    r"took office|take office|taken office|takes office|assumed office|came to power"
    r"|became|become|becomes|joined|join|joins|was appointed|were appointed|appointed"
    r"|was elected|were elected|elected|was hired|were hired|hired|signed (?:for|with|by)"
    r"|was signed|was sworn in|sworn in|was inaugurated|inaugurated|succeeded"
)
_END_EN = (
    r"left office|leave office|left|leave|leaves|resigned|resign|retired|retire"
    r"|stepped down|step down|quit|departed|was dismissed|was sacked|was fired"
    r"|was replaced|was ousted|was removed"
)
_START_ZH = r"上任|就任|就职|出任|接任|继任|加入|入职|当选|被任命|获任命|被选为|成为|登基|即位"
_END_ZH = r"卸任|离任|离职|辞职|辞去|退休|下台|离开|退出|被解职|被免职"
_VERB = re.compile(
    rf"(?P<start>\b(?:{_START_EN})\b|{_START_ZH})|(?P<end>\b(?:{_END_EN})\b|{_END_ZH})",
    re.IGNORECASE)
# What separates clauses: a comma, semicolon, sentence end (a Latin stop followed by a
# space: "B.o.B" is a name), or a line break.
_CLAUSE_BREAK = re.compile(r"[,;，；。！？\n]|[.!?](?=\s|$)")


def anchor_of(question: str, related: Related | None) -> Anchor | None:
    """The edge the question's time applies to, or None for the whole state.

    A change-of-state verb counts when no clause break lies between it and the
    constraining time expression; the one nearest the time wins.
    """
    if related is None:
        return None
    best: tuple[int, Anchor] | None = None
    for match in _VERB.finditer(question):
        between = question[min(match.end(), related.end):max(match.start(), related.start)]
        if _CLAUSE_BREAK.search(between):
            continue
        distance = len(between)
        anchor = Anchor.START if match["start"] else Anchor.END
        if best is None or distance < best[0]:
            best = (distance, anchor)
    return None if best is None else best[1]
