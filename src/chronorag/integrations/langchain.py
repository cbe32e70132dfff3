"""chronorag as a LangChain retriever (the ``langchain`` extra).

``ChronoragRetriever(engine=Engine("kb.db"), user="me").invoke(question)`` returns its first
``k`` evidence items as ``Document``s, best first, its metadata the evidence fields of the JSON
contract plus the answer's ``answer_status`` and ``answer``.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from chronorag.engine import Engine
from chronorag.errors import MissingDependencyError
from chronorag.integrations.base import ask
from chronorag.model import Asking

try:
    from langchain_core.callbacks import (
        AsyncCallbackManagerForRetrieverRun,
        CallbackManagerForRetrieverRun,
    )
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ImportError as exc:  # fail at import, naming the extra, not deep inside a chain
    raise MissingDependencyError("langchain-core", extra="langchain",
                                 needed_for="the LangChain retriever") from exc
from pydantic import ConfigDict, Field

__all__ = ["ChronoragRetriever"]


class ChronoragRetriever(BaseRetriever):
    """Ask ``engine`` and return its evidence as LangChain ``Document``s, best first.

    ``now=None`` reads the clock at each call; ``as_of``, ``user``, ``k``, ``admin`` and
    ``context`` (the asker's attributes) mean what they mean for ``Engine.ask``.
    ``invoke(question, k=3)`` overrides ``k``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    engine: Engine
    now: datetime | None = None
    as_of: datetime | None = None
    user: str | None = None
    k: int = 5
    admin: bool = False
    context: dict[str, str] = Field(default_factory=dict)

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun,
                                **kwargs: Any) -> list[Document]:
        hits = ask(self.engine, query, Asking(user=self.user, admin=self.admin, now=self.now,
                                              as_of=self.as_of, k=int(kwargs.get("k", self.k)),
                                              context=dict(self.context)))
        return [Document(page_content=hit.text, metadata=hit.metadata) for hit in hits]

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun,
                                       **kwargs: Any) -> list[Document]:
        # The engine is synchronous (SQLite or psycopg behind a lock): a worker thread
        # keeps the event loop free while it answers.
        return await asyncio.to_thread(self._get_relevant_documents, query,
                                       run_manager=run_manager.get_sync(), **kwargs)
