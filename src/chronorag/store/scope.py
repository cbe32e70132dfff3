"""What a query may retrieve, as a rule every search index and store can apply.

``Scope`` lives with the stores because a store that searches inside its database turns
it into SQL (``WHERE``) itself; the retrieval layer builds it from the question
(:func:`chronorag.retrieve.scope.build_scope`) and turns it into masks over its rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from chronorag.model import Document, Interval


@dataclass(frozen=True)
class Scope:
    """What a query may retrieve; a ``None`` field restricts nothing.

    ``readable``: the subjects whose records the asker may read (``None``: all, for an
    admin); ``about``: only records about these subjects (and, with ``public``, the
    documents without a subject); ``window``: only documents whose ``occurred_at``
    overlaps it (or that have none).
    """

    readable: frozenset[str] | None = None
    about: frozenset[str] | None = None
    window: Interval | None = None
    public: bool = False

    @property
    def restricts(self) -> bool:
        return not (self.readable is None and self.about is None and self.window is None)

    def admits(self, doc: Document) -> bool:
        """Whether ``doc`` is inside the scope (the rule the masks apply to rows)."""
        subject = doc.subject
        if self.readable is not None and subject is not None and subject not in self.readable:
            return False
        if self.about is not None and subject not in self.about and not (
                self.public and subject is None):
            return False
        return not (self.window is not None and doc.occurred_at is not None
                    and not doc.occurred_at.overlaps(self.window))
