"""Fine-tuning the reader: a tiny random model on the hand-made page learns, repeats, reports."""

# ruff: noqa: E402
from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
# training.* imports torch: it is imported only once the skip above has passed.
from training.base import default_model_dir
from training.build_data import build, write_jsonl
from training.model import BertConfig, CrossEncoder
from training.train import Result, Settings, lr_factor, run, total_steps
from training.train_data import bucketed_batches, collate, encode, load_tokenizer
from training.train_eval import roc_auc

pytestmark = pytest.mark.slow

CASES = Path(__file__).parent / "cases"
TINY = BertConfig(layers=2, hidden=32, heads=2, intermediate=64)
OVERFIT = Settings(epochs=40, batch_size=8, accumulate=1, lr=3e-3, warmup=0.1, seed=5,
                   eval_every=1000)


@pytest.fixture(scope="module", autouse=True)
def one_thread() -> Iterator[None]:
    """The tiny model's matmuls are too small to share: with two threads, OpenMP's waits
    (torch may load before ``OMP_WAIT_POLICY`` is set) made it 35x slower on a busy machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """24 examples of the hand-made page (both labels), as train and as valid: the test
    asks whether the loop can fit them, not whether it generalises."""
    built = build(CASES, seed=13, valid_share=0.0)
    pos = [e for e in built.train if e.label == 1][:8]
    neg = [e for e in built.train if e.label == 0][:16]
    folder = tmp_path_factory.mktemp("data")
    write_jsonl(folder / "train.jsonl", [*pos, *neg])
    write_jsonl(folder / "valid.jsonl", [*pos, *neg])
    return folder


def _run(data: Path, out: Path, settings: Settings = OVERFIT) -> Result:
    torch.manual_seed(0)  # the random initialisation; training seeds itself
    return run(CrossEncoder(TINY), data=data, out=out,
               tokenizer_path=default_model_dir() / "tokenizer.json", max_length=64,
               settings=settings, base="tiny", flags={"test": True}, say=lambda _: None)


def test_a_tiny_model_overfits_a_tiny_set(data: Path, tmp_path: Path) -> None:
    result = _run(data, tmp_path / "run")
    assert result.steps == total_steps(24, OVERFIT) == 120
    assert result.final.loss < 0.5 * result.baseline.loss
    assert result.final.auc > 0.9  # 0.97-1.0 over seeds 5-7
    assert result.best.auc >= result.final.auc


def test_same_seed_same_final_loss(data: Path, tmp_path: Path) -> None:
    short = Settings(epochs=3, batch_size=8, accumulate=2, lr=1e-3, seed=5, eval_every=1000)
    first = _run(data, tmp_path / "a", short)
    again = _run(data, tmp_path / "b", short)
    other = _run(data, tmp_path / "c", Settings(**{**short.__dict__, "seed": 6}))
    assert first.final.loss == again.final.loss
    assert [r["train_loss"] for r in first.rows] == [r["train_loss"] for r in again.rows]
    assert other.final.loss != first.final.loss


def test_metrics_checkpoint_and_card_written(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    settings = Settings(epochs=2, batch_size=8, accumulate=2, lr=1e-3, eval_every=2)
    result = _run(data, out, settings)
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [0, 2, 4]  # 3 batches: 2 steps an epoch
    assert rows[0]["train_loss"] is None and all(r["train_loss"] > 0 for r in rows[1:])
    assert set(rows[0]) >= {"step", "train_loss", "valid_loss", "auc", "seconds"}
    card = json.loads((out / "card.json").read_text())
    assert card["seed"] == settings.seed and card["flags"] == {"test": True}
    assert card["data"]["train"]["examples"] == 24 and card["data"]["valid"]["positives"] == 8
    assert card["metrics"]["baseline"]["auc"] == rows[0]["auc"]
    assert card["metrics"]["best"]["step"] == result.best_step > 0
    state = torch.load(out / "reader.pt")
    reloaded = CrossEncoder(TINY)
    reloaded.load_state_dict(state)
    assert (out / "tokenizer.json").exists()


def test_batches_cover_every_example_once_and_pad_little() -> None:
    lengths = [(i * 37) % 90 + 5 for i in range(1000)]
    batches = bucketed_batches(lengths, batch_size=16, seed=1, epoch=0, pool=10)
    assert sorted(i for b in batches for i in b) == list(range(1000))
    assert batches == bucketed_batches(lengths, batch_size=16, seed=1, epoch=0, pool=10)
    assert batches != bucketed_batches(lengths, batch_size=16, seed=1, epoch=1, pool=10)
    padded = sum(len(b) * max(lengths[i] for i in b) for b in batches)
    assert padded < 1.1 * sum(lengths)  # a random batch of these pads to ~1.8x


def test_collate_pads_and_masks() -> None:
    tokenizer = load_tokenizer(default_model_dir() / "tokenizer.json", max_length=16)
    data = encode(tokenizer, [
        {"question": "Who led it in 1990?", "window": "Ann led it from 1988 to 1992.",
         "label": 1, "kind": "in_year.gold"},
        {"question": "Who?", "window": "Bob.", "label": 0, "kind": "original.sibling"}])
    feeds, labels = collate(data, [0, 1])
    assert feeds["input_ids"].shape == (2, len(data.ids[0]))
    assert int(feeds["attention_mask"][1].sum()) == len(data.ids[1])
    assert labels.tolist() == [[1.0], [0.0]]
    long = encode(tokenizer, [{"question": "a " * 40, "window": "b " * 40, "label": 0}])
    assert len(long.ids[0]) == 16


def test_roc_auc_and_schedule() -> None:
    assert roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75
    assert roc_auc([0, 1, 0, 1], [1.0, 1.0, 1.0, 1.0]) == 0.5
    assert roc_auc([1, 1], [0.2, 0.3]) != roc_auc([1, 1], [0.2, 0.3])  # NaN: one class
    factors = [lr_factor(s, total=10, warmup=2) for s in range(10)]
    assert factors[:3] == [0.5, 1.0, 1.0] and factors[-1] == 0.125
    assert all(a >= b for a, b in pairwise(factors[1:]))
