"""The integration tests share ``demo_rules_engine`` (tests/conftest.py): the demo corpus
and people, embedded by the hashed test embedder with no judges, and the default
pipeline's temporal and validity rules without the cross-encoder: relative times such as
上周二 are judged by the temporal stage (a plain preset such as hybrid knows no time)."""

from __future__ import annotations

RETURNS = "How many days do I have to return an item?"
