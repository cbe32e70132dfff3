"""Synthetic corpora for ``benchmarks/scale.py``: TimeQA-like pages and personal records.

Pages are windows of real TimeQA page sentences with the page's name replaced by a made-up
one and every year moved by one offset per page, so the text keeps TimeQA's vocabulary,
sentence shapes and dated mentions while no two pages are the same. One chunk in twenty is
a personal record (a note with a ``subject`` and an ``occurred_at``). Vectors are
generated (``scale-hash``: hashed words, 384 dimensions): e5 embeds ~10 chunks a second
here, which would take 28 hours for a million chunks.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from chronorag.retrieve.base import CosineScale
from chronorag.retrieve.embedders import EMBEDDERS
from chronorag.retrieve.tokenize import normalize

ROOT = Path(__file__).resolve().parents[1]
TIMEQA = ROOT.parent / "shared/data/timeqa/corpus.jsonl"
_YEAR = re.compile(r"\b(1[5-9]\d\d|20[0-2]\d)\b")
_WORD = re.compile(r"[^\W_]+")
_SYLLABLES = ["ka", "lo", "ren", "vi", "sa", "dor", "mi", "tel", "an", "gro", "bel", "us",
              "tor", "ni", "ve", "ham", "li", "qu", "zen", "ox", "pra", "el", "mon", "ric"]
PEOPLE = [f"p{i:02d}" for i in range(50)]
_PLACES = ["the canteen", "the noodle bar", "home", "the office", "the park", "the clinic"]
_ACTS = ["had lunch", "met the doctor", "went running", "called the bank", "bought groceries"]
WORDS_PER_CHUNK = 150  # the chunker's pieces of these pages average about this many words


class ScaleHash:
    """Hashed-word vectors: deterministic, fast, and queries share the chunks' space."""

    name = "scale-hash"
    dim = 384
    scale = CosineScale()

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(normalize(text))
            cols = [zlib.crc32(w.encode()) % self.dim for w in words]
            np.add.at(out[row], cols, 1.0)
            out[row, 0] += 1e-3
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def register() -> None:
    if "scale-hash" not in EMBEDDERS:
        EMBEDDERS.add("scale-hash", ScaleHash)


def _sentences() -> list[tuple[str, list[str]]]:
    pages = []
    for line in TIMEQA.read_text(encoding="utf-8").splitlines():
        page = json.loads(line)
        parts = [s.strip() + " ." for s in page["text"].split(" . ") if len(s.split()) > 3]
        pages.append((page["title"], parts))
    return pages


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))).title()


def _page(rng: random.Random, pages: list[tuple[str, list[str]]], n: int) -> dict[str, object]:
    title, sentences = rng.choice(pages)
    name, shift = f"{_name(rng)} {_name(rng)}", rng.randint(-40, 40)
    words = 0
    start = rng.randrange(max(1, len(sentences) - 8))
    picked = []
    for sentence in sentences[start:] + sentences[:start]:
        picked.append(sentence)
        words += len(sentence.split())
        if words >= rng.randint(4, 14) * WORDS_PER_CHUNK:
            break
    text = " ".join(picked).replace(title, name)
    text = _YEAR.sub(lambda m: str(min(2025, int(m.group()) + shift)), text)
    return {"id": f"page-{n}", "title": f"{name} ({n})", "text": text, "source_type": "wiki"}


def _record(rng: random.Random, n: int) -> dict[str, object]:
    day = f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}"
    subject = rng.choice(PEOPLE)
    text = f"On {day} {subject} {rng.choice(_ACTS)} at {rng.choice(_PLACES)} at " \
           f"{rng.randint(7, 21)}:{rng.choice(['00', '15', '30', '45'])}."
    return {"id": f"record-{n}", "title": "note", "text": text, "subject": subject,
            "occurred_at": day, "source_type": "record"}


def documents(chunks: int, *, seed: int = 13) -> Iterator[dict[str, object]]:
    """Documents of about ``chunks`` chunks in all (5% of them personal records)."""
    rng, pages, made, n = random.Random(seed), _sentences(), 0.0, 0
    while made < chunks:
        n += 1
        if rng.random() < 0.32:  # records are one chunk, pages about nine: 5% of chunks
            yield _record(rng, n)
            made += 1
        else:
            page = _page(rng, pages, n)
            yield page
            made += len(str(page["text"]).split()) / WORDS_PER_CHUNK


def questions(docs: Sequence[dict[str, object]], *, count: int, seed: int = 7) -> list[str]:
    """Questions about the pages' own names and years, and about the records' people."""
    rng = random.Random(seed)
    pages = [d for d in docs if str(d["id"]).startswith("page-")]
    out = []
    for _ in range(count):
        page = rng.choice(pages)
        name = str(page["title"]).split(" (")[0]
        years = _YEAR.findall(str(page["text"])) or ["2000"]
        out.append(rng.choice([f"What position did {name} hold in {rng.choice(years)}?",
                               f"Who led {name} before {rng.choice(years)}?",
                               f"Which team did {name} play for in {rng.choice(years)}?"]))
    return out


def write_jsonl(path: Path, docs: Sequence[dict[str, object]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for doc in docs:
            out.write(json.dumps(doc, ensure_ascii=False) + "\n")
