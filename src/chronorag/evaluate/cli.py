"""`chronorag eval retrieval DIR`: ingest a benchmark folder (TimeQA, XQuAD or dated
LoCoMo-style questions; see ``evaluate.questions``), or a folder of them, and report every
method."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, tzinfo
from pathlib import Path
from typing import Any, TextIO
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from chronorag.engine import Engine
from chronorag.errors import ConfigError
from chronorag.evaluate.harness import DEFAULT_METHODS, EVAL_NOW, KS, evaluate, load_questions


def run_eval(args: argparse.Namespace, *, out: TextIO) -> int:
    """Run the retrieval benchmark(s) described by the parsed CLI arguments.

    ``args.dir`` is one benchmark (``corpus.jsonl`` + ``questions.jsonl``) or a folder of
    them (every sub-folder holding both, e.g. shared/data/xquad): then each set gets its own
    store (``<db>/<set>.db`` when ``--db`` names a folder) and the report has one row per
    set, method and level.
    """
    folder = Path(args.dir)
    sets = benchmark_sets(folder)
    methods = tuple(args.methods.split(",")) if args.methods else DEFAULT_METHODS
    tz = _zone(getattr(args, "tz", None))
    if len(sets) == 1 and sets[0] == folder:
        payload = _run_set(folder, methods, limit=args.limit, db=args.db, tz=tz)
    else:
        db = Path(args.db) if args.db else None
        if db is not None:
            db.mkdir(parents=True, exist_ok=True)
        payload = {"sets": {s.name: _run_set(s, methods, limit=args.limit,
                                             db=db / f"{s.name}.db" if db else None, tz=tz)
                            for s in sets}}
    if args.json:
        out.write(json.dumps(payload, indent=2) + "\n")
    elif "sets" in payload:
        print_sets_table(payload["sets"], out=out)
    else:
        print_table(payload, out=out)
    if args.plot:
        plot_curves(payload, Path(args.plot))
    return 0


def benchmark_sets(folder: Path) -> list[Path]:
    """``[folder]`` when it is one benchmark, else its benchmark sub-folders by name."""
    files = ("corpus.jsonl", "questions.jsonl")
    if any((folder / name).exists() for name in files) or not folder.is_dir():
        for name in files:
            if not (folder / name).exists():
                raise ConfigError(f"{folder / name} does not exist; DIR must hold corpus.jsonl "
                                  "and questions.jsonl (see shared/data/timeqa), or be a "
                                  "folder of such folders (see shared/data/xquad)")
        return [folder]
    sets = sorted(p for p in folder.iterdir()
                  if p.is_dir() and all((p / name).exists() for name in files))
    if not sets:
        raise ConfigError(f"{folder} holds no benchmark: neither corpus.jsonl and "
                          "questions.jsonl nor sub-folders with both")
    return sets


def _zone(name: str | None) -> tzinfo:
    """``--tz``, else UTC; not $CHRONORAG_TZ: a benchmark's numbers must not depend on the
    shell it runs in."""
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"unknown time zone {name!r}; give an IANA name such as "
                          "'Europe/Berlin' or 'UTC'") from None


def _run_set(folder: Path, methods: tuple[str, ...], *, limit: int | None,
             db: str | Path | None, tz: tzinfo = UTC) -> dict[str, Any]:
    questions = load_questions(folder / "questions.jsonl", limit=limit)
    with (tempfile.TemporaryDirectory() as tmp,
          Engine(db or Path(tmp) / "eval.db", tz=tz) as engine):
        started = time.perf_counter()
        report = engine.ingest([folder / "corpus.jsonl"], now=EVAL_NOW)
        ingest_s = time.perf_counter() - started
        results = evaluate(engine, questions, methods, on_progress=_progress(sys.stderr))
    return {
        "methods": {name: r.summary() for name, r in results.items()},
        "ingest": {"seconds": ingest_s, "chunks": report.chunks},
        "questions": len(questions),
        "ks": list(KS),
    }


def _progress(stream: TextIO) -> Any:
    if not stream.isatty():
        return None

    def update(done: int, total: int) -> None:
        stream.write(f"\r{done}/{total} questions")
        if done == total:
            stream.write("\n")
        stream.flush()

    return update


def levels(summary: dict[str, Any]) -> list[str]:
    """The question levels a method summary reports ("easy", "hard", or a set's own)."""
    return [k for k, v in summary.items() if isinstance(v, dict) and "AR@1" in v]


def _cell(value: float | None) -> str:
    """A score for a table; "-" where a level has no question it applies to."""
    return "-" if value is None else f"{value:.3f}"


def _has_hard(summaries: list[dict[str, Any]]) -> bool:
    """Whether any summary has TimeQA's "hard" level, the only one abstention is measured
    on; other benchmarks' tables leave the two abstention columns out."""
    return any("hard" in levels(s) for s in summaries)


def _hard_cells(summary: dict[str, Any], level: str, *, shown: bool) -> tuple[str, ...]:
    if not shown:
        return ()
    if level != "hard":
        return "", ""
    return (f"{summary['hard_unanswerable_abstained']:.2f}",
            f"{summary['hard_answerable_answered']:.2f}")


def print_table(payload: dict[str, Any], *, out: TextIO) -> None:
    """One row per method and level: AR@k, ER@k, SA, abstention and latency."""
    from rich.console import Console
    from rich.table import Table

    hard = _has_hard(list(payload["methods"].values()))
    table = Table(title=f"retrieval on {payload['questions']} questions")
    for name in ("method", "level", *(f"AR@{k}" for k in KS), *(f"ER@{k}" for k in KS),
                 "SA", *(("abstain", "answer") if hard else ()), "p50 ms", "p95 ms"):
        table.add_column(name, justify="left" if name in ("method", "level") else "right")
    for name, summary in payload["methods"].items():
        for level in levels(summary):
            row = summary[level]
            table.add_row(
                name, level, *(_cell(row[f"AR@{k}"]) for k in KS),
                *(_cell(row[f"ER@{k}"]) for k in KS), _cell(row.get("SA")),
                *_hard_cells(summary, level, shown=hard),
                f"{summary['latency_ms']['p50']:.0f}", f"{summary['latency_ms']['p95']:.0f}",
            )
    Console(file=out, width=200).print(table)


def print_sets_table(sets: dict[str, dict[str, Any]], *, out: TextIO) -> None:
    """One row per set, method and level: AR@k, ER@1, SA, abstention and latency."""
    from rich.console import Console
    from rich.table import Table

    total = sum(p["questions"] for p in sets.values())
    hard = _has_hard([m for p in sets.values() for m in p["methods"].values()])
    table = Table(title=f"retrieval on {len(sets)} sets, {total} questions")
    for name in ("set", "method", "level", *(f"AR@{k}" for k in KS), "ER@1", "SA",
                 *(("abstain", "answer") if hard else ()), "p50 ms"):
        table.add_column(name, justify="left" if name in ("set", "method", "level")
                         else "right")
    for set_name, payload in sets.items():
        for name, summary in payload["methods"].items():
            for level in levels(summary):
                row = summary[level]
                table.add_row(
                    set_name, name, level, *(_cell(row[f"AR@{k}"]) for k in KS),
                    _cell(row["ER@1"]), _cell(row.get("SA")),
                    *_hard_cells(summary, level, shown=hard),
                    f"{summary['latency_ms']['p50']:.0f}")
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
    sets = payload.get("sets", {"": payload})
    panels = [(f"{set_name} {level}".strip(), set_name, level)
              for set_name, one in sets.items()
              for level in dict.fromkeys(lv for m in one["methods"].values() for lv in levels(m))]
    fig, axes = plt.subplots(1, max(len(panels), 1), figsize=(5 * max(len(panels), 1), 4),
                             sharey=True, squeeze=False)
    for ax, (title, set_name, level) in zip(axes[0], panels, strict=False):
        for name, summary in sets[set_name]["methods"].items():
            if level in summary and summary[level]["AR@1"] is not None:
                ax.plot(KS, [summary[level][f"AR@{k}"] for k in KS], marker="o", label=name)
        ax.set_title(f"{title} questions")
        ax.set_xlabel("k")
        ax.set_xscale("log")
        ax.set_xticks(KS, [str(k) for k in KS])
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("answer recall AR@k")
    axes[0][-1].legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
