"""The conditions rule: documents written for other askers do not apply (``applies_to``).

Judged after validity, like it: a hit whose document's conditions the asker's attributes
do not meet (``chronorag.conditions.fit``) stays in evidence, not applicable and flagged
``not_applicable``, behind every applicable hit (their order kept); it is never upcoming.
A hit whose document names a key the asker has no value for stays applicable, flagged
``condition_unknown``: the answer gives it as a labelled variant. A store whose documents
have no conditions is returned as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from chronorag.conditions import fit
from chronorag.flags import Flag
from chronorag.model import Document, Hit


def apply_conditions(hits: Sequence[Hit], upcoming: Sequence[Hit], *,
                     documents: Mapping[str, Document], context: Mapping[str, str]
                     ) -> tuple[list[Hit], list[Hit]]:
    """``(evidence, upcoming)`` with the conditions rule applied (see the module)."""
    if not any(_conditions(h, documents) for h in hits):
        return list(hits), list(upcoming)
    judged: dict[int, Hit] = {}
    for hit in hits:
        conditions = _conditions(hit, documents)
        if not conditions:
            judged[id(hit)] = hit
            continue
        verdict = fit(conditions, context)
        flag = (Flag.NOT_APPLICABLE if not verdict.applies
                else Flag.CONDITION_UNKNOWN if verdict.unknown else None)
        judged[id(hit)] = hit if flag is None else replace(
            hit, applicable=hit.applicable and verdict.applies,
            flags=tuple(dict.fromkeys((*hit.flags, flag))))
    evidence = [judged[id(h)] for h in hits]
    # Upcoming hits are hits of the evidence (``apply_validity``), judged above.
    later = [judged[id(h)] for h in upcoming if id(h) in judged]
    return ([h for h in evidence if h.applicable] + [h for h in evidence if not h.applicable],
            [h for h in later if Flag.NOT_APPLICABLE not in h.flags])


def _conditions(hit: Hit, documents: Mapping[str, Document]) -> Mapping[str, tuple[str, ...]]:
    doc = documents.get(hit.chunk.doc_id)
    return doc.applies_to if doc is not None else {}
