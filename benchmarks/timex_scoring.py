"""TempEval-3 scoring of time-expression extraction and normalisation.

Definitions (UzZaman et al. 2013, TempEval-3 task A):
- strict span match: the same character span; relaxed: any overlap. Matching is one-to-one
  (a prediction answers at most one gold expression), greedy on the largest overlap.
- span P/R/F1 over predictions and gold expressions.
- value accuracy: value-correct relaxed matches / relaxed matches.
- value F1: value-correct relaxed matches counted as hits for both P and R.

A prediction's value is judged by a caller-supplied ``judge(gold, pred) -> bool`` so English
(one TIMEX3 value) and Chinese (any of the spec's accepted readings) share the counting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Mention:
    """A span with what a system (or the gold) says it means."""

    start: int
    end: int
    text: str = ""
    type: str = ""
    value: str = ""
    # Resolved half-open interval as naive ISO strings (None for an open side or unknown).
    lo: str | None = None
    hi: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


Judge = Callable[[Mention, Mention], bool]


def _overlap(a: Mention, b: Mention) -> int:
    return min(a.end, b.end) - max(a.start, b.start)


def match(gold: Sequence[Mention], pred: Sequence[Mention],
          strict: bool) -> list[tuple[int, int]]:
    """One-to-one pairs (gold index, pred index); largest overlap first, then text order."""
    pairs = []
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            if strict and (g.start, g.end) == (p.start, p.end):
                pairs.append((g.end - g.start, gi, pi))
            elif not strict and _overlap(g, p) > 0:
                pairs.append((_overlap(g, p), gi, pi))
    pairs.sort(key=lambda t: (-t[0], t[1], t[2]))
    used_g: set[int] = set()
    used_p: set[int] = set()
    out = []
    for _, gi, pi in pairs:
        if gi not in used_g and pi not in used_p:
            used_g.add(gi)
            used_p.add(pi)
            out.append((gi, pi))
    return sorted(out)


@dataclass
class Tally:
    """Counts that add up over documents."""

    gold: int = 0  # gold expressions
    pred: int = 0  # predicted expressions
    # matched one to one: same span (strict), overlapping (relaxed), and of the relaxed
    # matches those whose value is right
    strict: int = 0
    relaxed: int = 0
    value: int = 0

    def add(self, other: Tally) -> None:
        for name in ("gold", "pred", "strict", "relaxed", "value"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def prf(hits: int, pred: int, gold: int) -> tuple[float, float, float]:
    p = hits / pred if pred else 0.0
    r = hits / gold if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def summary(t: Tally) -> dict[str, float]:
    """Strict/relaxed span P/R/F1, value accuracy and value F1 of a tally."""
    sp, sr, sf = prf(t.strict, t.pred, t.gold)
    rp, rr, rf = prf(t.relaxed, t.pred, t.gold)
    _, _, vf = prf(t.value, t.pred, t.gold)
    acc = t.value / t.relaxed if t.relaxed else 0.0
    return {"strict_p": sp, "strict_r": sr, "strict_f1": sf, "relaxed_p": rp,
            "relaxed_r": rr, "relaxed_f1": rf, "value_acc": acc, "value_f1": vf}


@dataclass(frozen=True)
class Outcome:
    """One gold expression's fate: its relaxed partner (if any) and whether the value is right."""

    gold: Mention
    pred: Mention | None
    strict: bool
    value_ok: bool


def score_doc(gold: Sequence[Mention], pred: Sequence[Mention],
              judge: Judge) -> tuple[Tally, list[Outcome]]:
    """The tally of one document and the outcome of each gold expression."""
    strict = set(match(gold, pred, strict=True))
    relaxed = match(gold, pred, strict=False)
    partner = dict(relaxed)
    strict_gold = {gi for gi, _ in strict}
    outcomes = []
    ok = 0
    for gi, g in enumerate(gold):
        p = pred[partner[gi]] if gi in partner else None
        right = p is not None and _safe_judge(judge, g, p)
        ok += right
        outcomes.append(Outcome(g, p, gi in strict_gold, right))
    return Tally(len(gold), len(pred), len(strict), len(relaxed), ok), outcomes


def _safe_judge(judge: Judge, g: Mention, p: Mention) -> bool:
    try:
        return bool(judge(g, p))
    except (ValueError, TypeError, KeyError, OverflowError):
        return False
