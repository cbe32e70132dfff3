"""The sentence a question names by a key it spells out.

A ranker chooses the sentence most *about* a question; in a table of cookies every row is
about cookies, and the row the question asks about is the one with the name it spells:
"how long did the saml_csrf_token cookie last?" is answered by the row whose cookie is
saml_csrf_token, not by the org_transform_notice row beside it. A key is what no other
thing is called: an identifier with an underscore (``saml_csrf_token``,
``__Host-user_session_same_site``), matched as a whole token (``saml_csrf_token`` is not
``saml_csrf_token_legacy``). A quoted term is no key: the sentence that introduces it
("also known as the “Shine the Light” law") is seldom the one that answers about it.

When exactly one sentence of a passage holds a key of the question and the ranker's
choice holds none, that sentence is the passage's best one; several holding keys leave
the ranker's choice, as does a choice that holds one itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_IDENTIFIER = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9-]*_[A-Za-z0-9_-]*(?![A-Za-z0-9_-])")


def keys(question: str) -> list[str]:
    """The identifiers ``question`` spells out (see the module)."""
    found = [m.group(0).strip("-") for m in _IDENTIFIER.finditer(question)]
    return [k for k in dict.fromkeys(found) if len(k) >= 3 and re.search("[A-Za-z]", k)]


def holds(text: str, key: str) -> bool:
    """Whether ``text`` holds ``key`` as a whole token."""
    return re.search(rf"(?<![A-Za-z0-9_-]){re.escape(key)}(?![A-Za-z0-9_-])", text,
                     re.IGNORECASE) is not None


def named(question: str, chosen: str, sentences: Sequence[str]) -> str | None:
    """The one sentence of ``sentences`` holding a key of ``question``, when ``chosen``
    holds none; None otherwise."""
    spelled = keys(question)
    if not spelled or any(holds(chosen, k) for k in spelled):
        return None
    naming = [s for s in sentences if any(holds(s, k) for k in spelled)]
    return naming[0] if len(naming) == 1 else None
