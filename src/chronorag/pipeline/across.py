"""The Chinese passages nearest to a question in English, always judged.

A multilingual model puts a question nearer to any passage in its own script than to one
in the other, and the keyword retriever matches words of the question's own script only.
Over GitHub's policies in English and Mozilla's in English and Chinese, "What kinds of
content can I create on addons.mozilla.org for other community members to use?" found the
AMO policies, published in Chinese only, 87th of the hundred candidates, behind English
passages that merely mention addons.mozilla.org; the late order, which reads English, put
them 42nd, and the multilingual judge, which reads the first few, never saw them. A
document a store holds in one language only could not answer a question in the other.

So for a question in English the ``limit`` Chinese passages that the dense retriever finds
nearest to it join the candidates, flagged ``other_script``, and the reranker's judge
reads them wherever the pool order puts them (it costs no model run). Whether they go
first is the judge's to say: their relevance is calibrated per script pair, as every
passage it judges (``rank.multilingual``).

A gathered passage must say two of the question's concepts, read through CC-CEDICT: the
nearest Chinese passage is the nearest of a few hundred, and over the policies, when
nothing in Chinese answers, it says one concept or none ("不符合这些政策的附加内容…" for
"will the results include breaches of adult or dating sites?": "Firefox" alone), and
then took the first place from English passages the cross-encoder read low; those
gathered for the eight questions about the AMO policies said two to thirteen.

Only passages of documents the store does not also hold in English are gathered: a
translation says what its original says, and a reader asking in English is answered in
English. Gathered without that test, the Chinese Firefox privacy notice answered "30 天"
where the English one said "30 days": six answers lost for two gained. A translation is
known by its title: read through CC-CEDICT, "Firefox 隐私声明" says "Firefox Privacy
Notice" (``pipeline.named.Titles.translated``); a store without Chinese titles holds
nothing to gather, and its dense list is not read deeper.

A question in Chinese gathers nothing this way. The judge reads every pair of a Chinese
question, in both scripts, and English passages gathered for it by the same rule (of the
English documents without a Chinese title) took the first place from the Chinese passage
that answers: gathered for questions in both scripts (before the concept test), 22 right
answers of the 820 development policy questions were lost and 3 gained; for questions in
English alone, with it, none lost and 2 gained (benchmarks/README.md §60). The English
sources a Chinese question names reach it by their names and titles (``pipeline.named``).
Nor does a question whose own script no candidate is in gather anything: the passages of
the other script are the candidates then, and the judge reads them already.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from chronorag.flags import Flag
from chronorag.model import Hit, Query
from chronorag.pipeline.named import Titles
from chronorag.retrieve.glossary import concepts, stems_of
from chronorag.retrieve.tokenize import is_mostly_cjk

__all__ = ["OTHER_SCRIPT_LIMIT", "other_script_passages"]

OTHER_SCRIPT_LIMIT = 2
"""How many Chinese passages are gathered: a document's nearest two, as a sentence and
the one before it often fall in two chunks."""

_SAID = 2
"""How many of the question's concepts a gathered passage says through the dictionary:
one alone ("Firefox", "Mozilla") names no subject, as one concept names no title
(``pipeline.named.names_title``)."""


def other_script_passages(query: Query, hits: Sequence[Hit], *, titles: Titles,
                          deeper: Callable[[int], Sequence[Hit]], depth: int,
                          limit: int = OTHER_SCRIPT_LIMIT) -> list[Hit]:
    """``hits`` with the first ``limit`` Chinese passages of ``deeper(depth)`` (a dense
    list ``depth`` long) of documents the store holds in Chinese only
    (``Titles.translated``) that say two of the question's concepts flagged
    ``other_script``, those not among ``hits`` after them, for a question in English
    (see the module docstring)."""
    if depth <= 0 or limit <= 0 or not titles.chinese or is_mostly_cjk(query.text) or \
            all(is_mostly_cjk(h.chunk.text) for h in hits):
        return list(hits)
    nearest = [h for h in deeper(depth) if is_mostly_cjk(h.chunk.text)
               and not titles.translated(h.chunk.doc_id)][:limit]
    asked = concepts(query.text)
    nearest = [h for h in nearest if _says(asked, h.chunk.text) >= _SAID]
    if not nearest:
        return list(hits)
    chosen = {h.chunk.id for h in nearest}
    have = {h.chunk.id for h in hits}
    return [_flagged(h) if h.chunk.id in chosen else h for h in hits] + [
        _flagged(h) for h in nearest if h.chunk.id not in have]


def _says(asked: Sequence[frozenset[str]], text: str) -> int:
    """How many of the question's concepts (``asked``) ``text`` says, read through the
    dictionary."""
    said = stems_of(text)
    return sum(1 for concept in set(asked) if concept & said)


def _flagged(hit: Hit) -> Hit:
    if Flag.OTHER_SCRIPT in hit.flags:
        return hit
    return replace(hit, flags=(*hit.flags, Flag.OTHER_SCRIPT))
