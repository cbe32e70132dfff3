"""Run the real ``chronorag`` command line in a fresh process with the test embedder
registered (as a plug-in would be), so process-level tests do not wait on a model.

    python tests/hash_embedder_cli.py ingest corpus/ --db kb.db

Create the store with ``prepare_store`` first: it records ``test-hash`` as the store's
embedder, which the engine then uses.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from chronorag.cli import main
from chronorag.store.sqlite import SQLiteStore
from conftest import register_test_embedders


def prepare_store(db: Path, embedder: str = "test-hash") -> None:
    with SQLiteStore(db) as store:
        store.set_setting("embedder", embedder)


if __name__ == "__main__":
    register_test_embedders()
    raise SystemExit(main(sys.argv[1:]))
