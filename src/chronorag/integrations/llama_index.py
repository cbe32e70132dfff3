"""chronorag as a LlamaIndex retriever (the ``llamaindex`` extra).

``ChronoragRetriever(engine=Engine("kb.db"), user="me").retrieve(question)`` returns its first
``k`` evidence items as ``NodeWithScore``s, best first: a ``TextNode`` whose id is the chunk id
and whose metadata are the evidence fields of the JSON contract plus the answer's
``answer_status`` and ``answer``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from chronorag.engine import Engine
from chronorag.errors import MissingDependencyError
from chronorag.integrations.base import ask
from chronorag.model import Asking

try:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as exc:  # fail at import, naming the extra, not deep inside a query
    raise MissingDependencyError("llama-index-core", extra="llamaindex",
                                 needed_for="the LlamaIndex retriever") from exc

__all__ = ["ChronoragRetriever"]


class ChronoragRetriever(BaseRetriever):
    """Ask ``engine`` and return its evidence as LlamaIndex nodes, best first.

    ``now=None`` reads the clock at each call; ``as_of``, ``user``, ``k``, ``admin`` and
    ``context`` (the asker's attributes) mean what they mean for ``Engine.ask``.
    """

    def __init__(self, *, engine: Engine, now: datetime | None = None,
                 user: str | None = None, k: int = 5, as_of: datetime | None = None,
                 admin: bool = False, context: Mapping[str, str] | None = None,
                 **kwargs: Any) -> None:
        self.engine = engine
        self.context = dict(context or {})
        self.now = now
        self.as_of = as_of
        self.user = user
        self.k = k
        self.admin = admin
        super().__init__(**kwargs)  # callback_manager, verbose, ...

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = ask(self.engine, query_bundle.query_str, Asking(
            user=self.user, admin=self.admin, now=self.now, as_of=self.as_of, k=self.k,
            context=self.context))
        return [NodeWithScore(node=TextNode(text=hit.text, id_=hit.metadata["chunk_id"],
                                            metadata=hit.metadata),
                              score=hit.score)
                for hit in hits]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        # The engine is synchronous: a worker thread keeps the event loop free.
        return await asyncio.to_thread(self._retrieve, query_bundle)
