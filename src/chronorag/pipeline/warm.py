"""Loading a pipeline's models ahead of its first question, in a background thread."""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, tzinfo

from chronorag.config import SearchConfig
from chronorag.people import Directory
from chronorag.pipeline.search import Components
from chronorag.understand import understand

log = logging.getLogger(__name__)

# Any fixed moment: warming reads no clock.
_WARM_MOMENT = datetime(2000, 1, 1, tzinfo=UTC)


def warm_up(components: Components, config: SearchConfig, *, tz: tzinfo) -> threading.Thread:
    """Start loading the reranker, the late-interaction encoder and the dense embedder of
    ``config``, and compile the time-expression scanners; returns the started thread. A
    failure is left for the question itself to meet and report."""
    reranker = components.reranker(config)
    late = components.late_order(config.late) if config.late else None
    dense = components.embedder(config.embedder) if "dense" in config.retrievers else None

    def load() -> None:
        try:
            warm = getattr(reranker, "warm_up", None)
            if warm is not None:
                warm()
            if late is not None:
                late.encoder.encode(["warm up"], kind="query")
            if dense is not None:
                dense.embed(["warm up"], kind="query")
            understand("in 2020", now=_WARM_MOMENT, tz=tz, people=Directory())
        except Exception:  # the question itself will meet and report the problem
            log.debug("warm-up failed", exc_info=True)

    thread = threading.Thread(target=load, name="chronorag-warm-up", daemon=True)
    thread.start()
    return thread
