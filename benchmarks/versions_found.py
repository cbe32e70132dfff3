"""Versions found and dates stated in text, on the versions corpus of the tests.

Reads ``tests/ingest/data/versions`` (synthetic policies of one company: versions with
edits, unrelated policies sharing boilerplate, an exact duplicate, English and Chinese;
``truth.json`` holds the true chains and the dates each text states) and prints:

* for shingle Jaccard and for difflib's ratio on normalised text, at several thresholds,
  the precision and recall of the version pairs among documents with related names and
  among all pairs (the overlap alone);
* the pairs ``chronorag review`` proposes (``chronorag.ingest.versions``);
* the share of documents whose stated dates (valid_from, modified_at) are found.

    python benchmarks/versions_found.py [--json]
"""

from __future__ import annotations

import difflib
import json
import sys
from itertools import combinations
from pathlib import Path

from chronorag.ingest import load_paths
from chronorag.ingest.stated import proposals_of
from chronorag.ingest.versions import (
    names_related,
    normalised,
    overlap,
    shingles,
    version_pairs,
    without_boilerplate,
)
from chronorag.model import Document

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "ingest" / "data" / "versions"


def truth_pairs(truth: dict) -> set[tuple[str, str]]:
    pairs = set()
    for group in (*truth["chains"], *truth["duplicates"]):
        pairs |= {tuple(sorted(p)) for p in combinations(group, 2)}
    return pairs


def scores(pairs: set[tuple[str, str]], found: set[tuple[str, str]]) -> dict[str, float]:
    hit = len(pairs & found)
    return {"found": len(found), "true": hit, "false": len(found - pairs),
            "precision": round(hit / len(found), 3) if found else 1.0,
            "recall": round(hit / len(pairs), 3) if pairs else 1.0}


def main(argv: list[str]) -> int:
    docs: list[Document] = [d for f in load_paths([CORPUS]) for d in f.documents]
    truth = json.loads((CORPUS / "truth.json").read_text(encoding="utf-8"))
    gold = truth_pairs(truth)
    by_short = {d.id: d.id for d in docs}  # ids are paths inside the corpus folder
    raw = [shingles(d.text) for d in docs]
    related = [(i, j) for i, j in combinations(range(len(docs)), 2)
               if names_related(docs[i], docs[j])]
    clean = dict(zip([d.id for d in docs], without_boilerplate(raw, related), strict=True))
    sets = dict(zip([d.id for d in docs], raw, strict=True))
    texts = {d.id: " ".join(normalised(d.text)) for d in docs}
    rows = []
    for a, b in combinations(docs, 2):
        key = tuple(sorted((by_short[a.id], by_short[b.id])))
        rows.append((key, names_related(a, b), overlap(sets[a.id], sets[b.id]),
                     overlap(clean[a.id], clean[b.id]),
                     difflib.SequenceMatcher(None, texts[a.id], texts[b.id],
                                             autojunk=False).ratio()))
    table = []
    for method, column, thresholds in (("shingle Jaccard (5 words)", 2, (0.2, 0.3, 0.5)),
                                       ("shingle Jaccard, boilerplate out", 3,
                                        (0.2, 0.3, 0.5)),
                                       ("difflib ratio", 4, (0.5, 0.6, 0.7, 0.8))):
        for t in thresholds:
            named = {k for k, n, *s in rows if n and (s[column - 2]) >= t}
            alone = {k for k, n, *s in rows if (s[column - 2]) >= t}
            table.append({"method": method, "threshold": t, "names related": scores(gold, named),
                          "overlap alone": scores(gold, alone)})
    proposed = {tuple(sorted((by_short[p.a], by_short[p.b]))) for p in version_pairs(docs)}
    true_related = [(k, round(j, 3), round(c, 3), round(r, 3)) for k, n, j, c, r in rows
                    if k in gold]
    worst_false = sorted(((round(c, 3), round(j, 3), round(r, 3), k, n)
                          for k, n, j, c, r in rows if k not in gold), reverse=True)[:5]
    stated = truth["stated"]
    expected = found = 0
    misses = []
    for d in docs:
        want = {k: v for k, v in stated.get(by_short[d.id], {}).items() if k != "supersedes"}
        got = {p.field: p.value for p in proposals_of(d.metadata)}
        for name, value in want.items():
            expected += 1
            if got.get(name) == value:
                found += 1
            else:
                misses.append((by_short[d.id], name, value, got.get(name)))
    stating = [by_short[d.id] for d in docs if stated.get(by_short[d.id])]
    whole = sum(1 for d in docs if stated.get(by_short[d.id]) and all(
        {p.field: p.value for p in proposals_of(d.metadata)}.get(k) == v
        for k, v in stated[by_short[d.id]].items() if k != "supersedes"))
    result = {"documents": len(docs), "true pairs": len(gold), "table": table,
              "review proposes": scores(gold, proposed),
              "true pairs' scores (jaccard, without boilerplate, ratio)": true_related,
              "highest false pairs (without boilerplate, jaccard, ratio, pair, names "
              "related)": worst_false,
              "stated dates found": f"{found}/{expected}",
              "documents with every stated date found": f"{whole}/{len(stating)}",
              "misses": misses}
    print(json.dumps(result, ensure_ascii=False, indent=1 if "--json" in argv else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
