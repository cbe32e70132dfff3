"""The integration tests share ``demo_engine`` (tests/conftest.py): the demo corpus and
people, embedded by the hashed test embedder with no judges and the hybrid preset."""

from __future__ import annotations

RETURNS = "How many days do I have to return an item?"
