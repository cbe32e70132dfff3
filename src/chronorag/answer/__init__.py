"""Answer stage: evidence items with metadata, the decision rules, short answers, context.

* ``evidence``: hits -> :class:`~chronorag.model.Evidence` (text + title, type, status,
  owner, dates, best sentence).
* ``decide``: which evidence decides, ``uncertain`` for undated or disagreeing owners,
  ``not_found``, relevant ``upcoming`` documents.
* ``build``: ``build_answer`` used by ``Engine.ask``.
* ``context``: ``context_for_generation(answer)`` for a future LLM.

Applicability is judged in code (``chronorag.rank.validity``) on the ranked hits, not in
the store query: the hits are few (``candidates``), the validity index is cached per store
generation, and filtering in SQL would hide relevant-but-not-applicable documents that the
answer must still show with their flags (superseded, not_yet_valid, ...).
"""

from chronorag.answer.build import build_answer
from chronorag.answer.context import context_for_generation

__all__ = ["build_answer", "context_for_generation"]
