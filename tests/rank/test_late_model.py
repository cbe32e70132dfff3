"""The built-in token encoder, the real model (slow: it loads the model)."""

from __future__ import annotations

import numpy as np
import pytest

from chronorag.rank.late import TOKEN_ENCODERS, maxsim

pytestmark = pytest.mark.slow


def test_colbert_small_encodes_tokens_and_ranks_the_relevant_passage_first() -> None:
    encoder = TOKEN_ENCODERS.create("colbert-small")
    passages = ["Caroline: I went to the LGBTQ support group yesterday, it was so powerful.",
                "Melanie: We painted a sunrise over the lake last weekend.",
                "The 2019 annual report lists revenue by region."]
    matrices = encoder.encode(passages, kind="passage")
    assert [m.shape[1] for m in matrices] == [384] * 3
    assert all(m.dtype == np.float32 and m.shape[0] > 5 for m in matrices)
    np.testing.assert_allclose(np.linalg.norm(matrices[0], axis=1), 1.0, rtol=1e-5)
    [query] = encoder.encode(["When did Caroline go to the support group?"], kind="query")
    scores = [maxsim(query, m) for m in matrices]
    assert scores[0] > scores[1] and scores[0] > scores[2]
    with pytest.raises(ValueError, match="kind"):
        encoder.encode(["x"], kind="document")
