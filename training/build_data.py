"""Build the temporal reader's training data from TimeQA-format pages and questions.

    python training/build_data.py --data ../shared/data/timeqa-train --out training/out/

writes ``train.jsonl`` and ``valid.jsonl`` (split by page: no page in both), one example a
line, ``{"id", "page", "question", "window", "label", "kind"}``, and ``summary.json`` (the
counts printed as a table, the settings and the dropped variants). Same inputs and seed give
the same bytes. See ``training/README.md`` for the labels and the mix.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``training`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.data_examples import Example, Mix, page_examples
from training.data_facts import Fact, load_facts
from training.data_pages import load_pages, page_windows, product_context

__all__ = ["Built", "build", "main", "split_pages", "summary_rows", "write_jsonl"]


@dataclass(frozen=True)
class Built:
    train: tuple[Example, ...]
    valid: tuple[Example, ...]
    stats: dict[str, object]


def split_pages(pages: Sequence[str], *, seed: int, valid_share: float) -> frozenset[str]:
    """The validation pages: a seeded ``valid_share`` of ``pages`` (at least one when there
    are two or more), independent of the order ``pages`` come in."""
    ordered = sorted(set(pages))
    random.Random(f"{seed}:split").shuffle(ordered)
    count = round(len(ordered) * valid_share)
    if len(ordered) >= 2:
        count = min(max(count, 1), len(ordered) - 1)
    return frozenset(ordered[:count])


def _dedupe(examples: Sequence[Example]) -> tuple[list[Example], int]:
    """The first example of each (question, window) pair: a pair reached twice (a window
    holding two siblings' evidence) must not count twice or carry two labels."""
    seen: set[tuple[str, str]] = set()
    out = []
    for ex in examples:
        key = (ex.question, ex.window)
        if key not in seen:
            seen.add(key)
            out.append(ex)
    return out, len(examples) - len(out)


def _cap(examples: list[Example], share: float, rng: random.Random) -> list[Example]:
    if share >= 1.0:
        return examples
    keep = sorted(rng.sample(range(len(examples)), round(len(examples) * share)))
    return [examples[i] for i in keep]


def build(data: Path, *, seed: int = 13, mix: Mix | None = None, context: int | None = None,
          valid_share: float = 0.1, max_examples: int | None = None) -> Built:
    """Examples of every page of ``data`` (``corpus.jsonl`` + ``questions.jsonl``)."""
    mix = mix or Mix()
    context = product_context() if context is None else context
    docs = load_pages(data / "corpus.jsonl")
    by_page: dict[str, list[Fact]] = defaultdict(list)
    for fact in load_facts(data / "questions.jsonl"):
        by_page[fact.page].append(fact)
    missing = sorted(p for p in by_page if p not in docs)
    tally: Counter[str] = Counter()
    examples: list[Example] = []
    for page_id in sorted(by_page):
        if page_id in docs:
            doc = docs[page_id]
            examples += page_examples(doc, page_windows(doc, context=context),
                                      by_page[page_id], mix=mix, seed=seed, tally=tally)
    examples, duplicates = _dedupe(examples)
    valid_pages = split_pages([p for p in by_page if p in docs], seed=seed,
                              valid_share=valid_share)
    train = [e for e in examples if e.page not in valid_pages]
    valid = [e for e in examples if e.page in valid_pages]
    share = 1.0 if not max_examples else min(1.0, max_examples / max(len(examples), 1))
    rng = random.Random(f"{seed}:cap")
    train, valid = _cap(train, share, rng), _cap(valid, share, rng)
    random.Random(f"{seed}:order").shuffle(train)  # valid keeps page order
    facts = [f for fs in by_page.values() for f in fs]
    stats: dict[str, object] = {
        "seed": seed, "context": context, "valid_share": valid_share,
        "max_examples": max_examples, "mix": asdict(mix),
        "pages": {"train": len({e.page for e in train}), "valid": len(valid_pages),
                  "without_text": missing},
        "questions": {"all": len(facts), "answerable": sum(f.answerable for f in facts),
                      "closed_period": sum(f.time is not None for f in facts)},
        "duplicates_dropped": duplicates, "capped_share": round(share, 4),
        "variants": {"made": _prefixed(tally, "made:"),
                     "dropped": _prefixed(tally, "dropped:")},
        "kinds": {name: {"train": rows[0], "valid": rows[1]}
                  for name, rows in _kind_counts(train, valid).items()},
    }
    return Built(tuple(train), tuple(valid), stats)


def _prefixed(tally: Counter[str], prefix: str) -> dict[str, int]:
    return {k[len(prefix):]: n for k, n in sorted(tally.items()) if k.startswith(prefix)}


def _kind_counts(train: Sequence[Example], valid: Sequence[Example]
                 ) -> dict[str, tuple[dict[str, int], dict[str, int]]]:
    kinds = sorted({e.kind for e in (*train, *valid)})
    return {k: (_labels(train, k), _labels(valid, k)) for k in kinds}


def _labels(examples: Sequence[Example], kind: str) -> dict[str, int]:
    labels = Counter(e.label for e in examples if e.kind == kind)
    return {"pos": labels[1], "neg": labels[0]}


def summary_rows(examples: Sequence[Example]) -> list[tuple[str, int, int, float]]:
    """(kind, positives, negatives, mean window characters), one row a kind, then "all"."""
    groups: dict[str, list[Example]] = defaultdict(list)
    for ex in examples:
        groups[ex.kind].append(ex)
    rows = []
    for kind, group in [*sorted(groups.items()), ("all", list(examples))]:
        pos = sum(e.label for e in group)
        mean = sum(len(e.window) for e in group) / len(group) if group else 0.0
        rows.append((kind, pos, len(group) - pos, mean))
    return rows


def _table(built: Built) -> str:
    lines = [f"{'kind':28} {'pos':>6} {'neg':>6} {'mean chars':>10}"]
    for kind, pos, neg, mean in summary_rows([*built.train, *built.valid]):
        lines.append(f"{kind:28} {pos:6d} {neg:6d} {mean:10.1f}")
    pages = built.stats["pages"]
    assert isinstance(pages, dict)
    lines.append(f"pages: train {pages['train']}, valid {pages['valid']}; examples: "
                 f"train {len(built.train)}, valid {len(built.valid)}")
    variants = built.stats["variants"]
    assert isinstance(variants, dict)
    made = variants["made"]
    lines.append(f"variants made: {sum(made.values())} {made}")
    lines.append(f"variants dropped (kind:reason, the parser read them otherwise): "
                 f"{variants['dropped']}")
    return "\n".join(lines)


def write_jsonl(path: Path, examples: Sequence[Example]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        for ex in examples:
            handle.write(json.dumps(ex.to_json(), ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True,
                        help="folder with corpus.jsonl and questions.jsonl (training pages)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--valid-share", type=float, default=0.1)
    parser.add_argument("--context", type=int, default=None,
                        help="sentences each side of a window (default: what ask uses)")
    parser.add_argument("--per-kind", type=int, default=Mix.per_kind)
    parser.add_argument("--siblings", type=int, default=Mix.siblings)
    parser.add_argument("--unrelated", type=int, default=Mix.unrelated)
    parser.add_argument("--unanswerable", type=int, default=Mix.unanswerable)
    parser.add_argument("--max-examples", type=int, default=60000,
                        help="subsample (seeded, both splits alike) above this; 0: no cap")
    args = parser.parse_args(argv)
    mix = Mix(per_kind=args.per_kind, siblings=args.siblings, unrelated=args.unrelated,
              unanswerable=args.unanswerable)
    built = build(args.data, seed=args.seed, mix=mix, context=args.context,
                  valid_share=args.valid_share, max_examples=args.max_examples or None)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / ".gitignore").write_text("*\n", encoding="utf-8")  # outputs, never commit
    write_jsonl(args.out / "train.jsonl", built.train)
    write_jsonl(args.out / "valid.jsonl", built.valid)
    (args.out / "summary.json").write_text(
        json.dumps(built.stats, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(_table(built))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
