"""Export a torch ``CrossEncoder`` to INT8 ONNX that onnxruntime runs like the shipped model.

Two steps, as the shipped ms-marco graph was made: the TorchScript-based ``torch.onnx``
exporter (``dynamo=False``: the default dynamo exporter needs ``onnxscript``, one more
package, and its graphs quantise no better), then ``quantize_dynamic`` (int8 weights, one
scale per tensor, uint8 activations quantised at run time). The graph takes the product's
feeds (``input_ids``, ``attention_mask``, ``token_type_ids``, int64) and gives ``logits``,
so ``chronorag.rank.rerank_ce.OnnxBert`` runs it unchanged.

    python -m training.export --out /tmp/reader    # round trip of the base: parity, size, speed
    python -m training.export --out /tmp/reader-w8 --weight-only
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

FEEDS = ("input_ids", "attention_mask", "token_type_ids")


def export_fp32(model: Any, path: Path, *, opset: int = 17) -> Path:
    """``model`` (eval mode, fp32) as an ONNX graph with dynamic batch and length."""
    import torch

    model.eval()
    model.set_simulate_int8(on=False)
    example = tuple(torch.ones((2, 8), dtype=torch.int64) for _ in FEEDS)
    axes = {name: {0: "batch", 1: "length"} for name in FEEDS}
    axes["logits"] = {0: "batch"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.inference_mode(), warnings.catch_warnings():
        # The TorchScript exporter says it is deprecated; it is still the one without extra
        # packages, and its graphs are what onnxruntime's quantiser expects.
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, example, str(path), input_names=list(FEEDS),
                          output_names=["logits"], dynamic_axes=axes, opset_version=opset,
                          dynamo=False, do_constant_folding=True)
    return path


def quantize_int8(fp32: Path, int8: Path) -> Path:
    """Dynamic INT8 quantisation, with the settings the shipped graph was made with."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=False)
    return int8


def quantize_weight_only(fp32: Path, out: Path, *, bits: int = 8, block: int = 32,
                         accuracy_level: int | None = None) -> Path:
    """Weights quantised, activations left fp32: ``MatMulNBits`` (symmetric, ``block``
    weights per scale) for the matmuls and uint8 embeddings. A pair then scores the same
    alone and in any batch, which dynamic INT8 does not promise (one activation scale per
    batch tensor). ``accuracy_level=4`` quantises activations per row block instead: still
    batch-independent, faster. Needs ``onnx-ir`` (onnxruntime's quantiser imports it)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.quantization.matmul_nbits_quantizer import (
        DefaultWeightOnlyQuantConfig,
        MatMulNBitsQuantizer,
    )

    config = DefaultWeightOnlyQuantConfig(block_size=block, is_symmetric=True, bits=bits,
                                          accuracy_level=accuracy_level)
    quantizer = MatMulNBitsQuantizer(onnx.load(str(fp32)), bits=bits, block_size=block,
                                     is_symmetric=True, accuracy_level=accuracy_level,
                                     algo_config=config)
    quantizer.process()
    matmuls = out.with_suffix(".matmuls.onnx")
    quantizer.model.save_model_to_file(str(matmuls), False)
    quantize_dynamic(str(matmuls), str(out), op_types_to_quantize=["Gather"],
                     weight_type=QuantType.QUInt8)
    matmuls.unlink()
    return out


def export_int8(model: Any, directory: Path, *, tokenizer: Path | None = None,
                weight_only: bool = False) -> Path:
    """``directory/model.onnx`` (INT8; ``weight_only``: see ``quantize_weight_only``) and,
    given one, a copy of ``tokenizer.json`` beside it: the layout ``OnnxBert`` loads. The
    fp32 graph is left as ``model.fp32.onnx``."""
    directory.mkdir(parents=True, exist_ok=True)
    fp32 = export_fp32(model, directory / "model.fp32.onnx")
    int8 = (quantize_weight_only(fp32, directory / "model.onnx") if weight_only
            else quantize_int8(fp32, directory / "model.onnx"))
    if tokenizer is not None:
        (directory / "tokenizer.json").write_bytes(tokenizer.read_bytes())
    return int8


@dataclass(frozen=True)
class Latency:
    """Wall time of scoring ``windows`` pairs in one batch, best and median of ``repeats``."""

    windows: int
    length: int
    best_ms: float
    median_ms: float


def latency(session: Any, *, windows: int = 20, length: int = 192, repeats: int = 7,
            seed: int = 15) -> Latency:
    """Latency of one padded batch of random token ids (speed does not depend on them)."""
    rng = np.random.default_rng(seed)
    feeds = {
        "input_ids": rng.integers(1000, 29000, size=(windows, length), dtype=np.int64),
        "attention_mask": np.ones((windows, length), dtype=np.int64),
        "token_type_ids": np.zeros((windows, length), dtype=np.int64),
    }
    session.run(None, feeds)  # the first run allocates
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        session.run(None, feeds)
        times.append((time.perf_counter() - started) * 1000)
    return Latency(windows, length, float(min(times)), float(np.median(times)))


def main(argv: Sequence[str] | None = None) -> None:
    from training.base import default_model_dir, load_cross_encoder
    from training.base_parity import (
        Parity,
        batched_scores,
        make_pairs,
        runner,
        session,
        session_scores,
    )

    from chronorag.rank.rerank_ce import OnnxBert

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/timeqa-train"))
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--weight-only", action="store_true",
                        help="8-bit weights, fp32 activations (batch-independent scores)")
    args = parser.parse_args(argv)
    source = default_model_dir()
    int8 = export_int8(load_cross_encoder(source / "model.onnx"), args.out,
                       tokenizer=source / "tokenizer.json", weight_only=args.weight_only)
    pairs = make_pairs(args.data, count=args.pairs)
    bert = runner(threads=args.threads)
    shipped, ours = (session(p, threads=args.threads)
                     for p in (source / "model.onnx", int8))
    fp32 = session(args.out / "model.fp32.onnx", threads=args.threads)
    scores = {name: session_scores(s, bert, pairs)
              for name, s in (("shipped", shipped), ("exported", ours), ("fp32", fp32))}
    scores["exported, batches of 16"] = batched_scores(OnnxBert(args.out, max_length=192,
                                                                threads=args.threads), pairs)
    for reference, name in (("shipped", "exported"), ("shipped", "fp32"), ("fp32", "exported"),
                            ("exported", "exported, batches of 16")):
        parity = Parity.of(scores[reference], scores[name])
        print(f"{reference} vs {name}: max |diff| {parity.max_abs:.3f}, mean |diff| "
              f"{parity.mean_abs:.3f}, Spearman {parity.spearman:.4f}")
    for name, path, s in (("shipped", source / "model.onnx", shipped), ("exported", int8, ours),
                          ("exported fp32", args.out / "model.fp32.onnx", fp32)):
        timing = latency(s)
        print(f"{name}: {path.stat().st_size / 1e6:.1f} MB, {timing.windows} windows x "
              f"{timing.length} tokens: best {timing.best_ms:.0f} ms, "
              f"median {timing.median_ms:.0f} ms")


if __name__ == "__main__":
    main()
