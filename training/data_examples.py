"""Labelled (question, window) examples of one page.

A window is *positive* for a question when its centre sentence holds the gold evidence of a
fact whose time fits the question, and *negative* when every fact it holds clearly misses
that time. Anything in between (a fact that fits only part of the asked time, an unparsed
fact time, a window naming the answer of a fact that fits or might, a window that states
the asked time for some unasked fact) is left out rather than guessed. Kinds (``kind`` of
each example, ``family.role``):

- ``original.gold`` / ``original.sibling``: the TimeQA question as asked; its evidence
  windows, and windows of the same relation's other periods with another answer (the hard
  negatives the reader exists for);
- ``original.unrelated``: windows of the page that hold no evidence and no answer (easy);
- ``unanswerable.bm25``: the best windows by the product's BM25 for a question the page
  cannot answer, minus windows of facts whose time could fit it;
- ``<variant kind>.gold`` / ``.sibling``: a perturbed question (``data_perturb``) with the
  fact's own windows (positive inside its period, negative when shifted out) and the
  siblings' windows (positive when their period fits the new time).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from training.data_facts import Fact, answer_tokens, holds_any, mentions_answer, same_answer
from training.data_pages import Window
from training.data_perturb import Fit, Variant, fit, make_variants

from chronorag.evaluate.metrics import normalize_tokens
from chronorag.model import Chunk, Document, Relation
from chronorag.retrieve.keyword import Bm25Index

__all__ = ["Example", "Mix", "original_labels", "page_examples", "variant_labels"]


@dataclass(frozen=True)
class Example:
    id: str
    page: str
    question: str
    window: str
    label: int
    kind: str

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "page": self.page, "question": self.question,
                "window": self.window, "label": self.label, "kind": self.kind}


@dataclass(frozen=True)
class Mix:
    """How many examples of each family one question gives (the knobs of the data size).

    Attributes:
        per_kind: variants of each perturbation kind per answerable question.
        siblings: sibling windows per question (original or variant), at most.
        unrelated: easy negatives per answerable question.
        unanswerable: BM25 windows per unanswerable question.
    """

    per_kind: int = 1
    siblings: int = 3
    unrelated: int = 2
    unanswerable: int = 4


@dataclass(frozen=True)
class _Page:
    windows: tuple[Window, ...]
    facts: tuple[Fact, ...]  # of one relation
    holders: tuple[tuple[Fact, ...], ...]  # per window: facts whose evidence is its centre
    near: tuple[tuple[Fact, ...], ...]  # per window: facts with evidence anywhere in it
    tokens: tuple[tuple[str, ...], ...]  # per window: its words, as answers are matched


def _index(windows: Sequence[Window], facts: Sequence[Fact]) -> _Page:
    holders = tuple(tuple(f for f in facts if any(w.centre_overlaps(*e) for e in f.evidence))
                    for w in windows)
    near = tuple(tuple(f for f in facts if any(w.overlaps(*e) for e in f.evidence))
                 for w in windows)
    tokens = tuple(tuple(normalize_tokens(w.text)) for w in windows)
    return _Page(tuple(windows), tuple(facts), holders, near, tokens)


def _judge_original(page: _Page, i: int, fact: Fact) -> int | None:
    held = page.holders[i]
    if fact in held:
        return 1
    if fact in page.near[i] or not held or any(same_answer(fact, h) for h in held):
        return None
    # The answer named elsewhere in the sentence ("X, then Y") would make it an answer.
    return None if holds_any(page.tokens[i], answer_tokens(fact.answers)) else 0


def _verdict(fact: Fact, variant: Variant) -> Fit:
    return Fit.UNSURE if fact.time is None else fit(fact.time.interval, variant.relation,
                                                    variant.interval)


def _open_answers(page: _Page, variant: Variant) -> tuple[tuple[str, ...], ...]:
    """Answers of the facts that fit the variant or might: a window naming one of them
    may answer it whatever period it states (the same employer over two periods)."""
    return answer_tokens([a for f in page.facts if _verdict(f, variant) is not Fit.MISS
                          for a in f.answers])


def _judge_variant(page: _Page, i: int, variant: Variant,
                   open_answers: Sequence[Sequence[str]]) -> int | None:
    held = page.holders[i]
    if not held:
        return None
    if any(_verdict(f, variant) is Fit.FIT for f in held):
        return 1
    if {_verdict(f, variant) for f in page.near[i]} != {Fit.MISS}:
        return None
    # Every fact it holds misses the time; but a window that states the asked time may hold
    # an answer nobody asked about, so it is no safe negative.
    if any(t.overlaps(variant.interval) for t in page.windows[i].times):
        return None
    return None if holds_any(page.tokens[i], open_answers) else 0


def original_labels(windows: Sequence[Window], facts: Sequence[Fact],
                    fact: Fact) -> list[int | None]:
    """Label of every window for ``fact``'s question as asked (``None``: left out)."""
    page = _index(windows, [f for f in facts if f.relation == fact.relation])
    return [_judge_original(page, i, fact) for i in range(len(windows))]


def variant_labels(windows: Sequence[Window], facts: Sequence[Fact],
                   variant: Variant, relation: str) -> list[int | None]:
    """Label of every window for a perturbed question about ``relation``."""
    page = _index(windows, [f for f in facts if f.relation == relation])
    answers = _open_answers(page, variant)
    return [_judge_variant(page, i, variant, answers) for i in range(len(windows))]


def _sample(rng: random.Random, items: list[int], n: int) -> list[int]:
    return sorted(rng.sample(items, min(n, len(items))))


def _original(page: _Page, fact: Fact, mix: Mix, rng: random.Random,
              easy: Sequence[int]) -> list[tuple[int, int, str]]:
    """(window, label, kind) of the question as asked; ``easy`` are the page's windows
    without evidence or answer of any question."""
    judged = [(i, _judge_original(page, i, fact)) for i in range(len(page.windows))]
    gold = [(i, 1, "original.gold") for i, label in judged if label == 1]
    negatives = [i for i, label in judged if label == 0]
    out = gold + [(i, 0, "original.sibling") for i in _sample(rng, negatives, mix.siblings)]
    return out + [(i, 0, "original.unrelated") for i in _sample(rng, list(easy), mix.unrelated)]


def _variant(page: _Page, fact: Fact, variant: Variant, mix: Mix,
             rng: random.Random) -> list[tuple[int, int, str]]:
    own: list[tuple[int, int]] = []
    others: list[tuple[int, int]] = []
    answers = _open_answers(page, variant)
    for i in range(len(page.windows)):
        label = _judge_variant(page, i, variant, answers)
        if label is not None:
            (own if fact in page.holders[i] else others).append((i, label))
    picked = _sample(rng, list(range(len(others))), mix.siblings)
    return ([(i, label, f"{variant.kind}.gold") for i, label in own]
            + [(others[k][0], others[k][1], f"{variant.kind}.sibling") for k in picked])


def _unanswerable(page: _Page, index: Bm25Index, fact: Fact,
                  mix: Mix) -> list[tuple[int, int, str]]:
    """The page's best BM25 windows for a question it cannot answer, except windows of a
    fact whose time might fit the question (TimeQA marks some garbled questions about a
    stated fact unanswerable)."""
    time = fact.time
    might = [f for f in page.facts if time is None or f.time is None
             or fit(f.time.interval, Relation.BETWEEN, time.interval) is not Fit.MISS]
    answers = answer_tokens([a for f in might for a in f.answers])

    def safe(i: int) -> bool:
        return (not any(f in might for f in page.near[i])
                and not holds_any(page.tokens[i], answers))

    ranked = index.search(fact.content or fact.question, limit=len(page.windows))
    best = [c.index for c, _ in ranked if safe(c.index)][: mix.unanswerable]
    return [(i, 0, "unanswerable.bm25") for i in sorted(best)]


def _bm25(doc: Document, windows: Sequence[Window]) -> Bm25Index:
    # Each window stands as a chunk of its own so the product's index ranks windows.
    return Bm25Index.build([Chunk(f"{doc.id}#w{i}", doc.id, i, w.low, w.high, w.text)
                            for i, w in enumerate(windows)])


def page_examples(doc: Document, windows: Sequence[Window], facts: Sequence[Fact], *,
                  mix: Mix, seed: int, tally: Counter[str]) -> list[Example]:
    """Every example of one page, in a fixed order (question, then window).

    Facts of one relation judge each other's windows; the easy negatives hold no evidence
    and no answer of any question of the page. ``tally`` counts the variants made
    (``made:kind``) and dropped (``dropped:kind:reason``).
    """
    everything = _index(windows, facts)
    answers = [a for f in facts for a in f.answers]
    easy = [i for i, w in enumerate(windows)
            if not everything.near[i] and not mentions_answer(w.text, answers)]
    index = _bm25(doc, windows) if any(not f.answerable for f in facts) else None
    groups = {r: _index(windows, [f for f in facts if f.relation == r])
              for r in dict.fromkeys(f.relation for f in facts)}
    out: list[Example] = []
    for fact in facts:
        page, rng = groups[fact.relation], random.Random(f"{seed}:{fact.qid}")
        if not fact.answerable:
            assert index is not None
            rows = [(fact.question, "unanswerable", r)
                    for r in _unanswerable(page, index, fact, mix)]
        else:
            rows = [(fact.question, "original", r)
                    for r in _original(page, fact, mix, rng, easy)]
            seen: Counter[str] = Counter()
            dropped: Counter[str] = Counter()
            for v in make_variants(fact, rng=rng, per_kind=mix.per_kind, dropped=dropped):
                tag = f"{v.kind}.{seen[v.kind]}"
                seen[v.kind] += 1
                tally[f"made:{v.kind}"] += 1
                rows += [(v.question, tag, r) for r in _variant(page, fact, v, mix, rng)]
            tally.update({f"dropped:{k}": n for k, n in dropped.items()})
        out += [Example(f"{fact.qid}|{tag}|s{windows[i].index}", doc.id, question,
                        windows[i].text, label, kind)
                for question, tag, (i, label, kind) in rows]
    return out
