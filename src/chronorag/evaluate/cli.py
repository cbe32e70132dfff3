"""`chronorag eval retrieval DIR`: ingest a TimeQA-format folder and report every method."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

from chronorag.engine import Engine
from chronorag.errors import ConfigError
from chronorag.evaluate.harness import DEFAULT_METHODS, EVAL_NOW, KS, evaluate, load_questions


def run_eval(args: argparse.Namespace, *, out: TextIO) -> int:
    """Run the retrieval benchmark described by the parsed CLI arguments."""
    folder = Path(args.dir)
    corpus, questions_path = folder / "corpus.jsonl", folder / "questions.jsonl"
    for path in (corpus, questions_path):
        if not path.exists():
            raise ConfigError(f"{path} does not exist; DIR must hold corpus.jsonl and "
                              "questions.jsonl (see shared/data/timeqa)")
    methods = tuple(args.methods.split(",")) if args.methods else DEFAULT_METHODS
    questions = load_questions(questions_path, limit=args.limit)
    with tempfile.TemporaryDirectory() as tmp, Engine(args.db or Path(tmp) / "eval.db") as engine:
        started = time.perf_counter()
        report = engine.ingest([corpus], now=EVAL_NOW)
        ingest_s = time.perf_counter() - started
        results = evaluate(engine, questions, methods, on_progress=_progress(sys.stderr))
    payload: dict[str, Any] = {
        "methods": {name: r.summary() for name, r in results.items()},
        "ingest": {"seconds": ingest_s, "chunks": report.chunks},
        "questions": len(questions),
    }
    if args.json:
        out.write(json.dumps(payload, indent=2) + "\n")
    else:
        print_table(payload, out=out)
    if args.plot:
        plot_curves(payload, Path(args.plot))
    return 0


def _progress(stream: TextIO) -> Any:
    if not stream.isatty():
        return None

    def update(done: int, total: int) -> None:
        stream.write(f"\r{done}/{total} questions")
        if done == total:
            stream.write("\n")
        stream.flush()

    return update


def print_table(payload: dict[str, Any], *, out: TextIO) -> None:
    """One row per method and level: AR@k, ER@k, abstention and latency."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"retrieval on {payload['questions']} questions")
    table.add_column("method")
    table.add_column("level")
    for k in KS:
        table.add_column(f"AR@{k}", justify="right")
    for k in KS:
        table.add_column(f"ER@{k}", justify="right")
    table.add_column("abstain", justify="right")
    table.add_column("answer", justify="right")
    table.add_column("p50 ms", justify="right")
    table.add_column("p95 ms", justify="right")
    for name, summary in payload["methods"].items():
        for level in ("easy", "hard"):
            if level not in summary:
                continue
            row = summary[level]
            hard = level == "hard"
            table.add_row(
                name, level,
                *(f"{row[f'AR@{k}']:.3f}" for k in KS), *(f"{row[f'ER@{k}']:.3f}" for k in KS),
                f"{summary['hard_unanswerable_abstained']:.2f}" if hard else "",
                f"{summary['hard_answerable_answered']:.2f}" if hard else "",
                f"{summary['latency_ms']['p50']:.0f}", f"{summary['latency_ms']['p95']:.0f}",
            )
    Console(file=out, width=200).print(table)


def plot_curves(payload: dict[str, Any], path: Path) -> None:
    """AR@k curves per method and level, written as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from chronorag.errors import MissingDependencyError

        raise MissingDependencyError("matplotlib", "plot") from None
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, level in zip(axes, ("easy", "hard"), strict=True):
        for name, summary in payload["methods"].items():
            if level in summary:
                ax.plot(KS, [summary[level][f"AR@{k}"] for k in KS], marker="o", label=name)
        ax.set_title(f"{level} questions")
        ax.set_xlabel("k")
        ax.set_xscale("log")
        ax.set_xticks(KS, [str(k) for k in KS])
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("answer recall AR@k")
    axes[1].legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
