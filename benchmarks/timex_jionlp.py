"""The Chinese parser against JioNLP's own time-parser tests (issue 33).

Run:  git --git-dir=MIRROR show HEAD:test/test_time_parser.py > /tmp/jionlp_tests.py
      python benchmarks/timex_jionlp.py /tmp/jionlp_tests.py [--baseline] [--out FILE]

MIRROR is a bare snapshot of github:dongrixinyu/JioNLP (Apache-2.0; the `fetch` tool). The
test file is read, never imported: each case ``[text, time_base, (n,) expected]`` is taken
from its syntax tree. ``time_base`` is a Unix time read in UTC+8 (the file's comments give
1623604000 as 2021-06-14 01:06:40) or a dict such as ``{'year': 2021}``, the start of that
year; a case whose base is ``time.time()`` is left out, as JioNLP's own result moves with the
clock. Only points and spans are compared (a ``time_period`` such as 每周六 is a set and a
``time_delta`` such as 三天 a duration, neither an interval); JioNLP's inclusive end
``23:59:59`` is the half-open end a second later, ``inf`` an open bound.

A case agrees when chronorag's reading of the text is exactly JioNLP's interval: the one
expression found, or the span from the first expression's start to the last one's end when
the text holds several (今天下午3点到5点 read as pieces). ``--baseline`` also runs the parser
of the checkout at ``--base`` (default: git HEAD) in the same process run, for the ratio.
Each disagreement is printed with a class (``_CLASSES``) so a rule writer can triage it.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CST = timezone(timedelta(hours=8))
Reading = tuple[datetime | None, datetime | None] | None

_CLASSES: list[tuple[str, re.Pattern[str]]] = [
    ("open (以前/以后/起/至今)",
     re.compile(r"以前|之前|以后|之后|以來|以来|起|至今|到现在|到今天|前$|后$")),
    ("fuzzy (左右/许/几/多)", re.compile(r"左右|许|几|多|约|大概|前后")),
    ("lunar/festival",
     re.compile(r"农历|阴历|初[一二三四五六七八九十]|除夕|春节|中秋|端午|腊月|节")),
    ("clock", re.compile(r"\d\s*[:：点點时時]|[点點时時]\s*\d|上午|下午|晚上|早上|凌晨|中午|夜")),
    ("range (到/至/-)", re.compile(r"到|至|[-~—–～]")),
    ("week", re.compile(r"周|週|星期|礼拜")),
    ("relative", re.compile(r"[前后後去今明昨]|上个|下个|本|这|近|过去|未来|最近")),
]


def _base(node: ast.expr, names: dict[str, int]) -> datetime | None:
    if isinstance(node, ast.Name) and node.id in names:
        return datetime.fromtimestamp(names[node.id], CST)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return datetime.fromtimestamp(node.value, CST)
    if isinstance(node, ast.Dict):
        parts = ast.literal_eval(node)
        return datetime(parts.get("year", 1970), parts.get("month", 1), parts.get("day", 1),
                        parts.get("hour", 0), parts.get("minute", 0), parts.get("second", 0),
                        tzinfo=CST)
    return None  # time.time(): JioNLP's result moves with the clock


def _moment(text: str, *, end: bool) -> datetime | None:
    if text in ("inf", "-inf"):
        return None
    moment = datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=CST)
    return moment + timedelta(seconds=1) if end else moment


def _lists(tree: ast.Module) -> list[tuple[ast.List, set[str]]]:
    """Each list of cases with the keywords of the ``parse_time`` call that reads it."""
    out = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef):
            continue
        pending: ast.List | None = None
        for stmt in func.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.List):
                pending = stmt.value
            elif isinstance(stmt, ast.For) and pending is not None:
                calls = [c for c in ast.walk(stmt) if isinstance(c, ast.Call)
                         and getattr(c.func, "attr", "") == "parse_time"]
                keywords = {k.arg for c in calls for k in c.keywords if k.arg}
                out.append((pending, keywords))
                pending = None
    return out


def cases(path: Path) -> tuple[list[dict], Counter[str]]:
    """(text, now, expected interval) of every point and span case, and what was left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {t.id: n.value.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
             for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)
             and isinstance(n.value.value, int)}
    found, skipped = [], Counter[str]()
    for cases_list, keywords in _lists(tree):
        # ret_future reads a date without a year as the next one, lunar_date=False reads
        # 四月十三 as a solar date: modes chronorag has no switch for.
        mode = sorted(keywords & {"ret_future", "lunar_date"})
        for node in cases_list.elts:
            if not (isinstance(node, ast.List) and len(node.elts) in (3, 4)
                    and isinstance(node.elts[0], ast.Constant)
                    and isinstance(node.elts[0].value, str)
                    and isinstance(node.elts[-1], ast.Dict)):
                continue
            expected = ast.literal_eval(node.elts[-1])
            now = _base(node.elts[1], names)
            if mode:
                skipped[f"JioNLP option {', '.join(mode)}"] += 1
            elif now is None:
                skipped["time base is time.time()"] += 1
            elif expected.get("type") not in ("time_point", "time_span"):
                skipped[str(expected.get("type"))] += 1
            elif not isinstance(expected.get("time"), list):
                skipped["not one interval"] += 1
            else:
                start, end = expected["time"]
                found.append({"text": node.elts[0].value, "now": now,
                              "want": (_moment(start, end=False), _moment(end, end=True)),
                              "type": expected["type"]})
    return found, skipped


def reader(src: Path) -> Callable[[str, datetime], Reading]:
    """chronorag's parse from the source tree ``src`` (this checkout or a baseline)."""
    sys.path.insert(0, str(src))
    for name in [m for m in sys.modules if m == "chronorag" or m.startswith("chronorag.")]:
        del sys.modules[name]
    from chronorag.timex import parse

    def read(text: str, now: datetime) -> Reading:
        found = [e for e in parse(text, now=now, tz=CST) if e.interval is not None]
        if not found:
            return None
        first, last = found[0].interval, found[-1].interval
        return first.start, last.end if len(found) > 1 else first.end

    sys.path.remove(str(src))
    return read


def classify(text: str) -> str:
    return next((name for name, pattern in _CLASSES if pattern.search(text)), "date")


def _show(value: Reading) -> str:
    if value is None:
        return "nothing"
    start, end = value
    return f"[{start.isoformat() if start else '-inf'}, {end.isoformat() if end else 'inf'})"


def _near(a: datetime | None, b: datetime | None) -> bool:
    return a == b or (a is not None and b is not None and abs(a - b) <= timedelta(minutes=1))


def score(rows: list[dict], read: Callable[[str, datetime], Reading]) -> list[dict]:
    """Each case with chronorag's reading, whether it agrees exactly, and whether it agrees
    to the minute (JioNLP ends "下午3点至下午8点" at 20:00:00 inclusive, chronorag at 20:00)."""
    out = []
    for row in rows:
        got = read(row["text"], row["now"])
        near = got is not None and all(_near(a, b) for a, b in zip(got, row["want"], strict=True))
        out.append({**row, "got": got, "agree": got == row["want"], "near": near})
    return out


def _baseline_src(base: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="jionlp-base-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", base, "src"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "src"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tests", type=Path, help="JioNLP's test/test_time_parser.py")
    ap.add_argument("--baseline", action="store_true", help="also run the parser at --base")
    ap.add_argument("--base", default="HEAD")
    ap.add_argument("--out", type=Path, help="write every case with both readings (JSONL)")
    args = ap.parse_args()
    rows, skipped = cases(args.tests)
    runs = {"chronorag": score(rows, reader(ROOT / "src"))}
    if args.baseline:
        runs[f"at {args.base}"] = score(rows, reader(_baseline_src(args.base)))
    print(f"{len(rows)} point/span cases; left out: {dict(skipped)}\n")
    classes = sorted({classify(r["text"]) for r in rows})
    print("| class | cases | " + " | ".join(f"{name} exact | {name} to the minute"
                                             for name in runs) + " |")
    print("|---|---:|" + "---:|---:|" * len(runs))
    for cls in [*classes, "all"]:
        picked = [i for i, r in enumerate(rows) if cls in ("all", classify(r["text"]))]
        cells = [f"{sum(run[i]['agree'] for i in picked)} | {sum(run[i]['near'] for i in picked)}"
                 for run in runs.values()]
        print(f"| {cls} | {len(picked)} | " + " | ".join(cells) + " |")
    if len(runs) == 2:
        new, old = (sum(r["agree"] for r in run) for run in runs.values())
        print(f"\nexact agreement ratio chronorag / baseline: {new / max(old, 1):.3f}")
    print("\ndisagreements beyond a minute (class | text | now | JioNLP | chronorag):")
    for r in runs["chronorag"]:
        if not r["near"]:
            print(f"  {classify(r['text'])} | {r['text']} | {r['now']:%Y-%m-%d %H:%M} | "
                  f"{_show(r['want'])} | {_show(r['got'])}")
    if args.out:
        with args.out.open("w", encoding="utf-8") as f:
            for r in runs["chronorag"]:
                f.write(json.dumps({"text": r["text"], "now": r["now"].isoformat(),
                                    "jionlp": _show(r["want"]), "chronorag": _show(r["got"]),
                                    "agree": r["agree"], "near": r["near"],
                                    "class": classify(r["text"])},
                                   ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
