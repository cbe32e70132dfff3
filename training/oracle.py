"""The answer oracle: a perfect reader, to measure how far any reader can take ``ask``.

It stands where the trained reader stands (the model of the window reranker) and scores a
window high when it names an answer of the question, low otherwise. It reads only the
windows the pipeline hands a reader, and the temporal stage and validity rules still order
what it scored, so its numbers are the ceiling of a reader *at that place*; widening the
windows or turning the temporal gate off (``training.eval_dev --oracle --wide --no-gate``)
shows what a reader could reach elsewhere. Answers come from the questions, so it runs on
evaluation data only and never ships.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from chronorag.evaluate.metrics import answer_hit_ranks
from chronorag.rank.rerank_windows import WindowReranker

HIGH = 8.0
LOW = -8.0


class AnswerOracle:
    """Scores a text ``HIGH`` when it holds an answer of the question, matched as the
    harness matches answers in hits (``answer_hit_ranks``), else ``LOW``."""

    def __init__(self, answers: Mapping[str, Sequence[str]]) -> None:
        self.answers = dict(answers)

    def score(self, question: str, texts: Sequence[str]) -> np.ndarray:
        """One logit a text, in the order given (``CrossEncoderReranker.score``'s shape)."""
        names = self.answers.get(question, ())
        return np.array([HIGH if answer_hit_ranks([t], names) else LOW for t in texts],
                        dtype=np.float32)


class OracleWindows(WindowReranker):
    """The window reranker with the answer oracle as its model."""

    def __init__(self, *, oracle: AnswerOracle, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.model = oracle  # type: ignore[assignment]
