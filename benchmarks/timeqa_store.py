"""The TimeQA store the benchmarks share: paths, and an engine ingested on first use.

Imported by the benchmark scripts as a sibling module (``python benchmarks/<name>.py``
puts this folder on ``sys.path``).
"""

from __future__ import annotations

from pathlib import Path

from chronorag.engine import Engine
from chronorag.evaluate.harness import EVAL_NOW

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared/data/timeqa"
DEFAULT_DB = ROOT / "benchmarks/out/timeqa-e5.db"


def open_timeqa(db: str | Path) -> Engine:
    """An engine over ``db``; an empty store is first filled with the TimeQA corpus
    (~4–10 min with e5), an ingested one is used as it is."""
    Path(db).parent.mkdir(parents=True, exist_ok=True)
    engine = Engine(db)
    try:
        if not engine.store.documents():
            engine.ingest([DATA / "corpus.jsonl"], now=EVAL_NOW)
    except BaseException:
        engine.close()
        raise
    return engine
