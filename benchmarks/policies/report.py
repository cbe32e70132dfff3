"""The one table run.py prints: per question group, then review and dates."""

from __future__ import annotations

import statistics
from typing import Any

COLUMNS = ("all", "as_of", "no as_of", "en", "zh", "md", "html", "pdf")


def _in(column: str, q: dict[str, Any], fmt: str) -> bool:
    return {"all": True, "as_of": bool(q.get("as_of")), "no as_of": not q.get("as_of"),
            "en": q["lang"] == "en", "zh": q["lang"] == "zh"}.get(column, fmt == column)


def _share(rows: list[dict[str, Any]], key: str) -> str:
    if not rows:
        return "–"
    n = sum(1 for r in rows if r[key])
    return f"{n}/{len(rows)} ({100 * n / len(rows):.0f}%)"


def _count(rows: list[dict[str, Any]], key: str) -> str:
    return "–" if not rows else str(sum(1 for r in rows if r[key]))


def question_rows(results: list[dict[str, Any]], skipped: list[dict[str, Any]],
                  formats: dict[str, str]) -> list[list[str]]:
    groups = {c: [r for r in results if _in(c, r["q"], formats[r["q"]["doc"]])] for c in COLUMNS}
    left = {c: [q for q in skipped if _in(c, q, formats[q["doc"]])] for c in COLUMNS}
    statuses = ("answered", "uncertain", "not_found", "error")
    rows = [["questions asked", *(str(len(groups[c])) for c in COLUMNS)],
            ["skipped (format not ingested)", *(str(len(left[c])) for c in COLUMNS)],
            ["version right (top applicable evidence)", *(_share(groups[c], "version_right")
                                                          for c in COLUMNS)],
            ["short answer exactly right", *(_share(groups[c], "exact") for c in COLUMNS)]]
    for status in statuses:
        rows.append([f"status {status}", *(str(sum(1 for r in groups[c] if r["status"] == status))
                                           for c in COLUMNS)])
    rows.append(["answered with a heading", *(_count(groups[c], "heading") for c in COLUMNS)])
    rows.append(["answered with a cut sentence", *(_count(groups[c], "cut") for c in COLUMNS)])
    rows.append(["any status: answer is a heading", *(_count(groups[c], "heading_any")
                                                      for c in COLUMNS)])
    rows.append(["any status: answer is a cut sentence", *(_count(groups[c], "cut_any")
                                                          for c in COLUMNS)])
    rows.append(["answered and wrong version", *(
        str(sum(1 for r in groups[c] if r["status"] == "answered" and not r["version_right"]))
        for c in COLUMNS)])
    return rows


def timing_rows(results: list[dict[str, Any]]) -> list[list[str]]:
    seconds = [r["seconds"] for r in results]
    if not seconds:
        return []
    rest = seconds[1:] or seconds
    cells = [f"first {seconds[0]:.1f} s", f"p50 {statistics.median(rest):.1f} s",
             f"max {max(rest):.1f} s", f"mean {statistics.fmean(seconds):.1f} s"]
    return [["seconds per question (one `ask` process each)", *cells,
             *([""] * (len(COLUMNS) - len(cells)))]]


def review_rows(review: dict[str, Any]) -> list[list[str]]:
    if not review.get("available"):
        return [["review", f"not available: {review.get('why')}"]]
    proposed, true = review["proposed"], review["true"]
    precision = f"{true}/{proposed} ({100 * true / proposed:.0f}%)" if proposed else "–"
    return [
        ["review: keys holding doc-id groups", ", ".join(review["keys"]) or "none"],
        ["review: pairs proposed / true (precision)", precision],
        ["review: false pairs (of them translations or look-alike policies)",
         f"{len(review['false'])} ({review['false_translation_or_lookalike']})"],
        ["review: true chains proposed whole", f"{review['chains_whole']}/{review['chains']}"],
        ["review: consecutive version pairs found", f"{review['steps_found']}/{review['steps']}"],
        ["review: exact duplicates found", f"{review['duplicates_found']}/{review['duplicates']}"],
    ]


def date_rows(dates: dict[str, Any]) -> list[list[str]]:
    rows = []
    stating = dates["stating"]
    for name, value in dates.items():
        if name == "stating":
            continue
        if isinstance(value, str):
            rows.append([f"dates stated in text found ({name})", value])
            continue
        rows.append([f"dates stated in text found ({name})",
                     f"{value['right']}/{stating} ({100 * value['right'] / max(stating, 1):.0f}%)"
                     f"; wrong {value['wrong']}; undated docs given a date "
                     f"{value['undated_given_one']}"])
    return rows


def render(head: list[str], rows: list[list[str]]) -> str:
    width = len(head)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * width]
    for row in rows:
        cells = [*row, *([""] * (width - len(row)))]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def table(results: list[dict[str, Any]], skipped: list[dict[str, Any]],
          formats: dict[str, str], review: dict[str, Any], dates: dict[str, Any]) -> str:
    rows = question_rows(results, skipped, formats) + timing_rows(results)
    rows += review_rows(review) + date_rows(dates)
    return render(["measure", *COLUMNS], rows)
