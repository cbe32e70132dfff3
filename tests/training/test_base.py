"""The reader's base in torch: dequantised weights, parity with onnxruntime, INT8 export."""

# ruff: noqa: E402
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")
# training.* imports torch: it is imported only once the skip above has passed.
from training.base import (
    config_for,
    default_model_dir,
    float_graph,
    load_cross_encoder,
    read_state_dict,
)
from training.base_parity import (
    Pair,
    Parity,
    onnx_scores,
    runner,
    session,
    session_scores,
    torch_scores,
)
from training.base_speed import time_steps
from training.export import export_int8, latency
from training.model import BertConfig, CrossEncoder, dynamic_uint8

pytestmark = pytest.mark.slow

PAIRS = (
    Pair("Who coached the team from 2004 to 2006?",
         "In 2004 Smith became head coach of the team; he left in 2006 for Leeds.", True),
    Pair("Who coached the team from 2004 to 2006?",
         "The stadium was rebuilt in 1998 and holds 40,000 spectators.", False),
    Pair("Which party did she join in 1990?",
         "She joined the Labour Party in 1990 and was elected to parliament in 1997.", True),
    Pair("Which party did she join in 1990?",
         "Her brother studied medicine in Vienna before moving to Canada.", False),
)

TINY = BertConfig(hidden=32, layers=2, heads=4, intermediate=64, max_positions=64)


@pytest.fixture(scope="module")
def base() -> CrossEncoder:
    return load_cross_encoder()


@pytest.fixture(scope="module")
def bert():
    return runner(max_length=128)


def test_dynamic_uint8_is_onnxruntimes_dynamic_quantisation():
    ort = pytest.importorskip("onnxruntime")
    helper = onnx.helper
    graph = helper.make_graph(
        [helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "z"]),
         helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"])],
        "dql", [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [None, None])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [None, None])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    x = np.random.default_rng(0).normal(size=(7, 33)).astype(np.float32) * 3 + 1
    expected = sess.run(None, {"x": x})[0]
    got = dynamic_uint8(torch.from_numpy(x)).numpy()
    assert np.allclose(got, expected, atol=1e-6)
    assert torch.equal(dynamic_uint8(torch.zeros(3)), torch.zeros(3))


def test_every_weight_of_the_model_comes_from_the_graph():
    state = read_state_dict(default_model_dir() / "model.onnx")
    model = CrossEncoder(config_for(state))
    expected = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    assert {k: tuple(v.shape) for k, v in state.items()} == expected
    assert config_for(state) == BertConfig()


def test_torch_model_matches_the_float_twin_of_the_shipped_graph(base, bert):
    twin = session(float_graph(default_model_dir() / "model.onnx"), threads=1)
    reference = session_scores(twin, bert, PAIRS)
    ours = torch_scores(base, bert, PAIRS, int8=False)
    assert np.abs(reference - ours).max() < 1e-4


def test_torch_model_ranks_like_the_shipped_int8_graph(base, bert):
    shipped = onnx_scores(bert, PAIRS)
    ours = torch_scores(base, bert, PAIRS, int8=False)
    # INT8 rounding moves logits by up to ~0.4 (onnxruntime against itself without fusions)
    assert np.abs(shipped - ours).max() < 1.0
    assert ours[0] > ours[1] and ours[2] > ours[3]
    assert shipped[0] > shipped[1] and shipped[2] > shipped[3]


def test_padding_does_not_change_an_fp32_score(base, bert):
    alone = torch_scores(base, bert, PAIRS, int8=False)
    feeds = {k: torch.from_numpy(v)
             for k, v in bert.encode([(p.question, p.passage) for p in PAIRS]).items()}
    with torch.inference_mode():
        batched = base(**feeds).reshape(-1).numpy()
    assert np.abs(alone - batched).max() < 1e-4


def test_int8_export_round_trip_runs_in_the_products_runner(base, bert, tmp_path):
    from chronorag.rank.rerank_ce import OnnxBert

    path = export_int8(base, tmp_path / "reader", tokenizer=default_model_dir() / "tokenizer.json")
    assert path.stat().st_size < 40e6
    exported = OnnxBert(path.parent, max_length=128, threads=1)
    ours = onnx_scores(exported, PAIRS)
    parity = Parity.of(onnx_scores(bert, PAIRS), ours)
    assert parity.max_abs < 1.0
    assert ours[0] > ours[1] and ours[2] > ours[3]
    timing = latency(session(path, threads=1), windows=2, length=16, repeats=2)
    assert 0 < timing.best_ms <= timing.median_ms


def test_a_tiny_model_exports_exactly_in_fp32(tmp_path):
    from training.export import export_fp32

    torch.manual_seed(0)
    model = CrossEncoder(TINY).eval()
    path = export_fp32(model, tmp_path / "tiny.onnx")
    ids = torch.randint(0, TINY.vocab_size, (3, 11))
    mask = torch.ones_like(ids)
    mask[1, 7:] = 0
    types = torch.zeros_like(ids)
    with torch.inference_mode():
        expected = model(ids, mask, types).numpy()
    feeds = {"input_ids": ids.numpy(), "attention_mask": mask.numpy(),
             "token_type_ids": types.numpy()}
    got = session(path, threads=1).run(None, feeds)[0]
    assert np.abs(got - expected).max() < 1e-5


def test_weight_only_export_scores_a_pair_the_same_in_any_batch(tmp_path):
    pytest.importorskip("onnx_ir")
    from training.export import export_fp32, quantize_weight_only

    torch.manual_seed(0)
    model = CrossEncoder(TINY).eval()
    path = quantize_weight_only(export_fp32(model, tmp_path / "tiny.onnx"), tmp_path / "w8.onnx")
    ids = torch.randint(0, TINY.vocab_size, (4, 12))
    mask = torch.ones_like(ids)
    mask[2, 5:] = 0
    feeds = {"input_ids": ids.numpy(), "attention_mask": mask.numpy(),
             "token_type_ids": torch.zeros_like(ids).numpy()}
    sess = session(path, threads=1)
    batched = sess.run(None, feeds)[0]
    alone = np.concatenate([sess.run(None, {k: v[i : i + 1] for k, v in feeds.items()})[0]
                            for i in range(4)])
    assert np.abs(batched - alone).max() < 1e-5  # float reordering at most, no rescaling
    with torch.inference_mode():
        expected = model(ids, mask, torch.zeros_like(ids)).numpy()
    assert np.abs(batched - expected).max() < 0.05


def test_a_training_step_is_timed_and_changes_the_weights():
    torch.manual_seed(0)
    model = CrossEncoder(TINY)
    before = model.classifier.weight.detach().clone()
    timing = time_steps(model, threads=1, batch=2, length=16, steps=2)
    assert len(timing.seconds) == 2 and timing.median > 0
    assert timing.hours_per_epoch(4) == pytest.approx(2 * timing.median / 3600)
    assert not torch.equal(before, model.classifier.weight)

