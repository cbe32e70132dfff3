"""The time a question is about (``resolve_as_of``): its own explicit time, else ``now``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chronorag.understand import resolve_as_of, understand

NOW = datetime(2024, 6, 5, 12, tzinfo=UTC)


@pytest.mark.parametrize(("question", "as_of"), [
    ("Who won the Tour?", NOW),
    ("Who won the Tour before 2022?", datetime(2021, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
    ("Who won the Tour until 2022?", datetime(2022, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
    ("Who won the Tour in 2019?", datetime(2019, 1, 1, tzinfo=UTC)),
    ("Who won the Tour after 2019?", datetime(2020, 1, 1, tzinfo=UTC)),
    ("Who won between 2003 and 2005?", datetime(2003, 1, 1, tzinfo=UTC)),
    ("2019年以前谁赢了?", datetime(2018, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
])
def test_resolve_as_of(question: str, as_of: datetime) -> None:
    assert resolve_as_of(understand(question, now=NOW), NOW) == as_of
