"""The JSON contract, byte for byte: recorded outputs of the CLI's ``--json``, the HTTP API
and the MCP server, and the store they are recorded on.

The recordings live in ``tests/cases/contract/`` (its README says what each holds). A
test compares the bytes a surface produces with its file; any difference fails it, with
the first lines that differ. ``CHRONORAG_REGENERATE_GOLDEN=1`` writes the files from the
current code instead (the test is then skipped, so a regeneration never passes as a run).

Only what cannot repeat is masked: where the demo corpus lies on this machine (documents
record the path they were read from), an API key's random id, and time measured on the
clock (``timings_ms``, a written answer's ``ms``).
"""

from __future__ import annotations

import difflib
import os
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from chronorag.config import get_preset
from chronorag.demo import DEMO_NOW, demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.rank.late import TOKEN_ENCODERS
from chronorag.rank.rerankers import RERANKERS
from chronorag.retrieve.embedders import EMBEDDERS
from chronorag.store.sqlite import SQLiteStore

from .conftest import TEST_EMBEDDERS, HashEmbedder, HashTokens

GOLDEN = Path(__file__).parent / "cases" / "contract"
REGENERATE = os.environ.get("CHRONORAG_REGENERATE_GOLDEN") == "1"
NOW = DEMO_NOW.isoformat()
ZONE = "Asia/Shanghai"
HANDBOOK = GOLDEN / "handbook.md"  # a document read with headings: evidence names its section
LAYER = Path(__file__).parent / "cases" / "semantic" / "retail.yaml"

# Measured on the clock: the value differs from run to run, the key stays.
_CLOCK = [re.compile(r'("timings_ms":\s*)\{[^{}]*\}'), re.compile(r'("ms":\s*)[0-9.e+-]+')]


@dataclass(frozen=True)
class Asked:
    """One recorded question: its file's name, the question, who asks, ``as_of``, and
    which part of the contract it is there to show (checked on every run, so a
    regeneration that loses it fails)."""

    name: str
    question: str
    user: str | None = None
    as_of: str | None = None
    admin: bool = False
    shows: str = ""


QUESTIONS = (
    Asked("en_upcoming", "Within how many days of delivery may customers return an unused "
          "item?", shows="upcoming"),
    Asked("en_parallel_views", "What warranty from the date of delivery?",
          shows="owner:legal"),
    Asked("en_time_in_question", "Who was Chancellor of Germany on 26 September 2021?",
          shows="time_expressions"),
    Asked("en_as_of", "How many days do I have to return an item?", as_of="2026-12-20",
          shows="as_of"),
    Asked("en_section", "How many weeks of paid parental leave may parents take?",
          shows="section"),
    Asked("en_not_found", "Who was Chancellor of Germany in 1850?", shows="not_found"),
    Asked("zh_personal", "上周二我几点吃的午饭？", user="me", shows="answered"),
    Asked("zh_when", "我什么时候吃的午饭？", user="me", shows="answer_time"),
    Asked("zh_not_visible", "妈妈上周四几点去的医院？", user="me", shows="not_found"),
    Asked("zh_admin", "妈妈上周四几点去的医院？", admin=True, shows="answered"),
    Asked("zh_policy", "退货期限是多少天？", shows="answered"),
)


def shows(asked: Asked, payload: dict[str, Any]) -> bool:
    """Whether the answer ``payload`` still shows what ``asked`` is there for."""
    evidence = payload["evidence"]
    return {"upcoming": bool(payload["upcoming"]),
            "as_of": payload["as_of"].startswith(str(asked.as_of)),
            "section": any("section" in item for item in evidence),
            "not_found": payload["status"] == "not_found",
            "answered": payload["status"] == "answered",
            "answer_time": "answer_time" in payload,
            "time_expressions": bool(payload["understanding"]["time_expressions"]),
            "owner:legal": "owner:legal" in payload["flags"]}[asked.shows]


def masked(text: str) -> str:
    """``text`` with the unrepeatable parts replaced (see the module's docstring)."""
    text = text.replace(str(demo_corpus()), "<demo>").replace(str(GOLDEN), "<golden>")
    for pattern in _CLOCK:
        text = pattern.sub(r'\1"<clock>"', text)
    return text


def check(name: str, produced: str) -> None:
    """Fail unless ``produced`` (masked) is byte for byte the recording ``name``."""
    path = GOLDEN / name
    actual = masked(produced).encode("utf-8")
    if REGENERATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual)
        warnings.warn(f"regenerated {path.relative_to(GOLDEN)}", stacklevel=2)
        return
    assert path.exists(), (f"no recording {name}; record it with "
                           "CHRONORAG_REGENERATE_GOLDEN=1")
    expected = path.read_bytes()
    if actual != expected:
        diff = difflib.unified_diff(expected.decode("utf-8").splitlines(),
                                    actual.decode("utf-8").splitlines(), "recorded",
                                    "produced", lineterm="", n=1)
        pytest.fail(f"{name} differs from its recording:\n" + "\n".join(list(diff)[:40]))


@contextmanager
def without_models() -> Iterator[None]:
    """Until the block ends: the hashed test embedders and token encoder registered under
    their names, and the default pipeline's windows reranker ``none`` (its rules run,
    its cross-encoder does not)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in TEST_EMBEDDERS:
            patch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))
        patch.setitem(TOKEN_ENCODERS._factories, get_preset("default").late, HashTokens)
        patch.setitem(RERANKERS._factories, "windows", RERANKERS._factories["none"])
        yield


def build_store(db: Path) -> None:
    """The demo corpus, the handbook, the demo people and the retail semantic layer, in a
    store whose embedder is the hashed test one and which has no judges: nothing loads
    a model, and every run ranks alike."""
    with SQLiteStore(db) as store:
        store.set_setting("embedder", "test-hash")
        store.set_setting("judges", "")
    with without_models(), Engine(db, tz=DEMO_NOW.tzinfo) as engine:  # type: ignore[arg-type]
        engine.ingest([demo_corpus(), HANDBOOK, LAYER], now=DEMO_NOW, root=GOLDEN)
        engine.load_people(demo_people())
