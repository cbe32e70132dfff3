"""Ask the policy corpus its support questions through the installed ``chronorag`` CLI.

    python benchmarks/policies/run.py CORPUS_DIR [--db PATH] [--dates-from-text]
        [--formats md,html,pdf] [--questions FILE] [--chronorag EXE] [--details FILE]

CORPUS_DIR is what ``build.py`` wrote (``github/``, ``mozilla/``, ``truth.json``). The files
of the chosen formats are linked into ``<db>.stage/`` and ingested from there with
``chronorag ingest . --db DB`` (so every id is the path inside the corpus, whatever root
the product measures ids from); then every question is one ``chronorag ask ... --json``
process, timed, followed by ``chronorag review --json`` and, where the CLI has it,
``chronorag documents show ID --json``. Prints one table; ``--details`` writes every
question's answer, evidence ids and judgements as JSON.

Nothing here knows the product's internals: the review's version pairs and the dates it
found are looked for in whatever JSON it prints (see metrics.py), and a command or flag
the CLI does not have is reported as "not available".
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
# Sibling modules: benchmarks/ is not a package.
import metrics
import report

HERE = Path(__file__).resolve().parent


def find_cli(given: str | None) -> str:
    if given:
        return given
    beside = Path(sys.executable).with_name("chronorag")
    return shutil.which("chronorag") or str(beside)


def run(cmd: list[str], *, cwd: Path | None = None, timeout: float = 900
        ) -> tuple[int, str, str, float]:
    start = time.perf_counter()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env,
                          check=False)
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start


def help_text(cli: str, *sub: str) -> str:
    code, out, err, _ = run([cli, *sub, "--help"], timeout=120)
    return out + err if code == 0 else ""


def subcommands(cli: str) -> set[str]:
    """The CLI's subcommands, from the ``{a,b,...}`` of its usage line."""
    found = re.search(r"\{([^}]*)\}", help_text(cli))
    return set(found.group(1).split(",")) if found else set()


def stage(corpus: Path, truth: dict[str, Any], formats: set[str], target: Path) -> list[str]:
    """Link the corpus files of ``formats`` into ``target``; return their corpus ids."""
    if target.exists():
        shutil.rmtree(target)
    ids = []
    for cid, record in sorted(truth["documents"].items()):
        if record["format"] not in formats:
            continue
        link = target / record["file"]
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(corpus / record["file"])
        ids.append(cid)
    return ids


def ingest(cli: str, db: Path, where: Path, *, dates_from_text: bool) -> dict[str, Any]:
    options = help_text(cli, "ingest")
    cmd = [cli, "ingest", ".", "--db", str(db)]
    notes = []
    for flag in ("--quiet", "--json"):
        if flag in options:
            cmd.append(flag)
    if "--root" in options:
        cmd += ["--root", "."]
    if dates_from_text:
        if "--dates-from-text" in options:
            cmd.append("--dates-from-text")
        else:
            notes.append("--dates-from-text: not available in this chronorag (ingested without)")
    code, out, err, seconds = run(cmd, cwd=where, timeout=3600)
    return {"command": " ".join(cmd), "exit": code, "stdout": out[-4000:], "stderr": err[-4000:],
            "seconds": round(seconds, 1), "notes": notes}


def ask(cli: str, db: Path, q: dict[str, Any], k: int) -> tuple[dict[str, Any] | None, str, float]:
    cmd = [cli, "ask", q["question"], "--db", str(db), "--json", "-k", str(k), "--now", q["now"]]
    if q.get("as_of"):
        cmd += ["--as-of", q["as_of"]]
    code, out, err, seconds = run(cmd, timeout=600)
    if code != 0:
        return None, f"exit {code}: {err.strip()[-300:]}", seconds
    try:
        return json.loads(out), "", seconds
    except json.JSONDecodeError as exc:
        return None, f"not JSON ({exc})", seconds


def top_applicable(answer: dict[str, Any], known: dict[str, str]) -> str | None:
    evidence = answer.get("evidence") or []
    chosen = [e for e in evidence if e.get("applicable", True)] or []
    return metrics.to_corpus_id(chosen[0].get("doc_id"), known) if chosen else None


def source_texts(corpus: Path, truth: dict[str, Any], ids: list[str]) -> list[str]:
    out = []
    for cid in ids:
        record = truth["documents"].get(cid)
        if record and record["format"] in ("md", "html", "txt"):
            out.append((corpus / record["file"]).read_text(encoding="utf-8", errors="replace"))
    return out


def judge(q: dict[str, Any], answer: dict[str, Any] | None, *, known: dict[str, str],
          same: dict[str, set[str]], headings: set[str], corpus: Path,
          truth: dict[str, Any]) -> dict[str, Any]:
    if answer is None:
        return {"status": "error", "version_right": False, "exact": False,
                "heading_any": False, "cut_any": False, "top": None, "answer": None}
    status = answer.get("status")
    text = answer.get("answer")
    top = top_applicable(answer, known)
    evidence_ids = [metrics.to_corpus_id(e.get("doc_id"), known)
                    for e in answer.get("evidence") or []]
    sources = [e.get("text") or "" for e in answer.get("evidence") or []]
    sources += source_texts(corpus, truth, [i for i in evidence_ids[:3] if i])
    exact = metrics.exact(text, q["answer"], q.get("accept", ()))
    # The gold span itself is no cut sentence, whatever its length ("no more than one
    # free Account" has six words and no full stop).
    cut = not exact and metrics.is_cut(text, sources)
    return {
        "status": status, "answer": text, "top": top,
        "evidence": evidence_ids[:5],
        "version_right": top is not None and top in same.get(q["doc"], {q["doc"]}),
        "exact": exact,
        "heading_any": metrics.is_heading(text, headings),
        "cut_any": cut,
        "upcoming": [metrics.to_corpus_id(u.get("doc_id"), known)
                     for u in answer.get("upcoming") or []],
        "flags": answer.get("flags") or [],
    } | {"heading": status == "answered" and metrics.is_heading(text, headings),
         "cut": status == "answered" and cut}


def equivalents(truth: dict[str, Any]) -> dict[str, set[str]]:
    """A duplicate answers for its original, and the other way round."""
    out: dict[str, set[str]] = {cid: {cid} for cid in truth["documents"]}
    for group in truth["duplicates"]:
        for cid in group:
            out[cid] = set(group)
    return out


def review(cli: str, db: Path, known: dict[str, str], truth: dict[str, Any],
           ingested: set[str]) -> dict[str, Any]:
    code, out, err, seconds = run([cli, "review", "--db", str(db), "--json"], timeout=1800)
    if code != 0:
        return {"available": False, "why": f"exit {code}: {err.strip()[-300:]}"}
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        return {"available": False, "why": "review --json printed no JSON"}
    groups = metrics.review_groups(data, known)
    proposed = metrics.pairs_of(groups)
    chains = [[c for c in chain if c in ingested] for chain in truth["chains"]]
    chains = [c for c in chains if len(c) >= 2]
    dups = [[c for c in d if c in ingested] for d in truth["duplicates"]]
    dups = [d for d in dups if len(d) >= 2]
    related = metrics.related_pairs(chains, dups)
    steps = {frozenset(p) for c in chains for p in itertools.pairwise(c)}
    whole = sum(all(frozenset(p) in proposed for p in itertools.pairwise(c))
                for c in chains)
    false = sorted(sorted(p) for p in proposed - related)
    near = {frozenset((a, b)) for kind in ("translations", "lookalikes")
            for left, right in truth.get(kind, []) for a in left for b in right}
    return {"available": True, "seconds": round(seconds, 1), "json": data,
            "keys": sorted({g.where.split("[")[0] for g in groups}),
            "proposed": len(proposed), "true": len(proposed & related), "false": false,
            "false_translation_or_lookalike": sum(frozenset(p) in near for p in false),
            "chains": len(chains), "chains_whole": whole, "steps": len(steps),
            "steps_found": len(steps & proposed),
            "duplicates": len(dups),
            "duplicates_found": sum(frozenset(d[:2]) in proposed for d in dups)}


def document_dates(cli: str, db: Path, ids: list[str]) -> dict[str, list[str]] | None:
    """Dates ``chronorag documents show ID --json`` gives each document; None without it."""
    if "documents" not in subcommands(cli):
        return None
    out: dict[str, list[str]] = {}
    for cid in ids:
        code, text, _, _ = run([cli, "documents", "show", cid, "--db", str(db), "--json"],
                               timeout=300)
        try:
            out[cid] = metrics.dates_in(json.loads(text)) if code == 0 else []
        except json.JSONDecodeError:
            out[cid] = []
    return out


def review_dates(data: Any, known: dict[str, str]) -> dict[str, list[str]]:
    """Dates the review JSON proposes for a doc id: an item naming one document whose keys
    or kind speak of a date, a proposal or a suggestion."""
    out: dict[str, list[str]] = {}
    hint = re.compile(r"date|propos|suggest|valid_from|effective", re.I)

    def walk(node: Any, key: str) -> None:
        if isinstance(node, dict):
            ids = metrics.ids_in(node.values(), known)
            words = " ".join([key, *map(str, node), *(v for v in node.values()
                                                       if isinstance(v, str) and len(v) < 40)])
            if len(ids) == 1 and hint.search(words):
                found = metrics.any_dates(node)
                if found:
                    out.setdefault(ids[0], []).extend(found)
                    return
            for k, value in node.items():
                walk(value, str(k))
        elif isinstance(node, list):
            for value in node:
                walk(value, key)

    walk(data, "")
    return out


def evidence_dates(judged: list[tuple[dict[str, Any], dict[str, Any] | None]],
                   known: dict[str, str]) -> dict[str, list[str]]:
    """valid_from/published_at the answers' evidence carried, per document."""
    out: dict[str, list[str]] = {}
    for _, answer in judged:
        for e in (answer or {}).get("evidence") or []:
            cid = metrics.to_corpus_id(e.get("doc_id"), known)
            for key in ("valid_from", "published_at"):
                if cid and isinstance(e.get(key), str):
                    out.setdefault(cid, []).append(e[key][:10])
    return out


def date_scores(truth: dict[str, Any], ingested: list[str],
                sources: dict[str, dict[str, list[str]] | None]) -> dict[str, Any]:
    stated = {c: truth["documents"][c]["stated_date"] for c in ingested}
    result: dict[str, Any] = {"stating": sum(1 for v in stated.values() if v)}
    for name, found in sources.items():
        if found is None:
            result[name] = "not available"
            continue
        right = sum(1 for c, d in stated.items()
                    if d and any(metrics.date_matches(f, d) for f in found.get(c, [])))
        wrong = sum(1 for c, d in stated.items()
                    if d and found.get(c) and not any(metrics.date_matches(f, d) for f in found[c]))
        invented = sum(1 for c, d in stated.items() if not d and found.get(c))
        result[name] = {"right": right, "wrong": wrong, "undated_given_one": invented}
    return result


def accept(cli: str, db: Path) -> str:
    """``chronorag review --accept-versions``, when the CLI has it: what it said."""
    if "--accept-versions" not in help_text(cli, "review"):
        return "accept: --accept-versions is not available in this chronorag"
    code, out, err, seconds = run([cli, "review", "--db", str(db), "--accept-versions"],
                                  timeout=1800)
    return f"accept: exit {code} in {seconds:.1f} s: {(out or err).strip()[-2000:]}"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="the folder build.py wrote")
    parser.add_argument("--db", type=Path, help="store to ingest into and ask (default: a "
                        "fresh one in a temporary folder, removed afterwards)")
    parser.add_argument("--dates-from-text", action="store_true",
                        help="pass --dates-from-text to ingest when the CLI has it")
    parser.add_argument("--accept-versions", action="store_true",
                        help="after ingest and review, accept the version chains the review "
                             "proposes (chronorag review --accept-versions) before asking")
    parser.add_argument("--formats", default="md,html,pdf",
                        help="comma-separated formats to ingest (e.g. md: what the product "
                        "reads today); questions on other formats are skipped and counted")
    parser.add_argument("--questions", type=Path, default=HERE / "questions.jsonl")
    parser.add_argument("--chronorag", help="the CLI to drive (default: chronorag on PATH)")
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--limit", type=int, help="ask only the first N questions")
    parser.add_argument("--details", type=Path, help="write every judgement here as JSON")
    return parser.parse_args(argv)


def ask_all(cli: str, db: Path, questions: list[dict[str, Any]], *, k: int,
            context: dict[str, Any]) -> list[dict[str, Any]]:
    results = []
    for q in questions:
        answer, error, seconds = ask(cli, db, q, k)
        verdict = judge(q, answer, **context)
        results.append({"q": q, **verdict, "seconds": round(seconds, 2), "error": error,
                        "raw": answer})
        mark = "ok" if verdict["version_right"] and verdict["exact"] else "--"
        print(f"{mark} {q['id']:<16} {seconds:5.1f}s {verdict['status']!s:<10} "
              f"top={verdict['top']} answer={str(verdict['answer'])[:70]!r} {error}",
              file=sys.stderr, flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    corpus = args.corpus.resolve()
    truth = json.loads((corpus / "truth.json").read_text(encoding="utf-8"))
    questions = [json.loads(line) for line in args.questions.read_text(encoding="utf-8")
                 .splitlines() if line.strip()][: args.limit]
    cli = find_cli(args.chronorag)
    formats = {f.strip() for f in args.formats.split(",") if f.strip()}
    tmp = None if args.db else tempfile.mkdtemp(prefix="policies-")
    db = (args.db or Path(tmp or ".") / "policies.db").resolve()
    staged = stage(corpus, truth, formats, db.with_name(db.name + ".stage"))
    known = {cid: cid for cid in truth["documents"]}
    try:
        report_ingest = ingest(cli, db, db.with_name(db.name + ".stage"),
                               dates_from_text=args.dates_from_text)
        said = (report_ingest["stdout"].strip().splitlines() or [""])[-1][:300]
        print(f"ingest: exit {report_ingest['exit']} in {report_ingest['seconds']} s "
              f"({len(staged)} files: {', '.join(sorted(formats))}) {report_ingest['notes']}; "
              f"it said: {said}", file=sys.stderr)
        if report_ingest["exit"] != 0:
            print(report_ingest["stderr"], file=sys.stderr)
            return 1
        asked = [q for q in questions if q["doc"] in staged]
        skipped = [q for q in questions if q["doc"] not in staged]
        headings: set[str] = set()
        for record in truth["documents"].values():
            headings |= metrics.headings_of(corpus / record["file"])
        context = {"known": known, "same": equivalents(truth), "headings": headings,
                   "corpus": corpus, "truth": truth}
        # The review is judged on what ingest made, before any proposal is accepted.
        rev = review(cli, db, known, truth, set(staged))
        if args.accept_versions:
            print(accept(cli, db), file=sys.stderr)
        results = ask_all(cli, db, asked, k=args.k, context=context)
        sources: dict[str, dict[str, list[str]] | None] = {
            "documents show": document_dates(cli, db, staged),
            "review": review_dates(rev.get("json"), known) if rev.get("available") else None,
            "evidence dates": evidence_dates([(r["q"], r["raw"]) for r in results], known),
        }
        dates = date_scores(truth, staged, sources)
        formats_of = {cid: r["format"] for cid, r in truth["documents"].items()}
        print(report.table(results, skipped, formats_of, rev, dates))
        if args.details:
            write_details(args.details, report_ingest, results, rev, dates, sources)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


def write_details(path: Path, ingest_report: dict[str, Any], results: list[dict[str, Any]],
                  rev: dict[str, Any], dates: dict[str, Any],
                  sources: dict[str, dict[str, list[str]] | None]) -> None:
    slim = [{k: v for k, v in r.items() if k != "raw"} for r in results]
    for r, full in zip(slim, results, strict=True):
        r["understanding"] = (full["raw"] or {}).get("understanding")
    data = {"ingest": ingest_report, "questions": slim,
            "review": {k: v for k, v in rev.items() if k != "json"},
            "review_json": rev.get("json"), "dates": dates, "date_sources": sources}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, default=str) + "\n",
                    encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
