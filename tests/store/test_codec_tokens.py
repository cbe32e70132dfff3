"""Token matrices kept as int8 with a scale per token: what comes back is what went in,
to within half a quantisation step of each row's largest value."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from chronorag.store.codec import decode_tokens, encode_tokens

_MATRICES = st.integers(0, 12).flatmap(lambda rows: st.integers(1, 9).flatmap(
    lambda dim: arrays(np.float32, (rows, dim),
                       elements=st.floats(-1e6, 1e6, width=32, allow_nan=False))))


@given(_MATRICES)
def test_round_trip_within_half_a_step(matrix: np.ndarray) -> None:
    blob = encode_tokens(matrix)
    rows, dim = matrix.shape
    assert len(blob) == rows * (dim + 4)
    back = decode_tokens(rows, dim, blob)
    assert back.shape == matrix.shape and back.dtype == np.float32
    step = np.abs(matrix).max(axis=1, initial=0.0, keepdims=True) / 127.0
    assert np.all(np.abs(back - matrix) <= step * 0.5001 + 1e-30)


def test_a_zero_row_stays_zero_and_signs_are_kept() -> None:
    matrix = np.array([[0.0, 0.0], [0.6, -0.8]], dtype=np.float32)
    back = decode_tokens(2, 2, encode_tokens(matrix))
    np.testing.assert_array_equal(back[0], [0.0, 0.0])
    assert back[1, 0] > 0 > back[1, 1]
    np.testing.assert_allclose(back[1], matrix[1], atol=0.5 * 0.8 / 127)
