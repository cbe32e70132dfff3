"""The two flows of the engine, each wired from its stages.

``ingest``: files -> validated documents -> chunks, sentences, time mentions, vectors ->
store, in committed batches. ``search``: a prepared question -> retrieve (keyword, dense)
-> fuse -> rerank -> temporal scoring -> validity rules. The stages live in ``ingest/``,
``store/``, ``retrieve/`` and ``rank/``; ``Engine`` calls these two functions.
"""
