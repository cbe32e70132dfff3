"""Time expressions on external human-annotated gold, several systems in one run (issue 13).

Run:  python benchmarks/timex_external.py [--lang en|zh|all] [--systems chronorag,dateparser,...]
                                          [--limit N] [--gold DIR] [--gaps PREFIX] [--json FILE]

Gold (git-ignored, built by /work/shared/tools/timex_gold.py into benchmarks/out/timex-gold):
- en-tbaq.jsonl: TempEval-3 TBAQ (TimeBank + AQUAINT), TIMEX3 spans and values; ``now`` is
  each document's creation time.
- zh-spec-dev.jsonl: the even cases of the Microsoft Recognizers-Text Chinese DateTime spec;
  a value is right when it matches ANY of the case's accepted readings (its TIMEX form, or its
  resolved start/end). Open intervals ("2018年以前", "自2018年以来") are counted apart.

Systems (``timex_systems.py``): chronorag (``timex.extract`` where the tree has it, else
``timex.parse``), dateparser, msrt (Microsoft Recognizers-Text), jionlp (Chinese),
parsedatetime (English); a library that is not installed is skipped with a note.

Scores follow TempEval-3 (see ``timex_scoring``). dateparser is the baseline: each system's
relaxed and value F1 are also printed as a ratio to it. chronorag's misses and wrong values
are grouped by a coarse class so rule writers see where the gap is (``--gaps`` writes them).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from timex_scoring import Mention, Outcome, Tally, score_doc, summary
from timex_systems import SYSTEMS, available

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "benchmarks" / "out" / "timex-gold"
FILES = {"en": "en-tbaq.jsonl", "zh": "zh-spec-dev.jsonl"}
HOW_TO_BUILD = """gold not found in {dir}. Build it:
  1. fetch the bare snapshots github:qiangning/StructTempRel-EMNLP17 and
     github:microsoft/Recognizers-Text (the `fetch` tool, or git clone --bare)
  2. python ../shared/tools/timex_gold.py TE3_GITDIR MSRT_GITDIR benchmarks/out/timex-gold"""

_MONTH = (r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?")
_EN_CLASSES: list[tuple[str, re.Pattern[str]]] = [
    ("ago", re.compile(r"\bago\b|\bearlier\b|\blater\b|\bhence\b", re.I)),
    ("weekday", re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.I)),
    ("quarter/fiscal", re.compile(r"quarter|fiscal|\bQ[1-4]\b|\bhalf\b", re.I)),
    ("season", re.compile(r"spring|summer|fall|autumn|winter", re.I)),
    ("month-day", re.compile(rf"\b{_MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{_MONTH}", re.I)),
    ("month", re.compile(rf"\b{_MONTH}\b", re.I)),
    ("time of day", re.compile(r"\d\s*[ap]\.?m\b|\d:\d\d|morning|afternoon|evening|night"
                               r"|noon|midnight", re.I)),
    ("year", re.compile(r"\b\d{4}s?\b|\byear\b", re.I)),
    ("relative day/week", re.compile(r"today|yesterday|tomorrow|week|month|day", re.I)),
]
_ZH_CLASSES: list[tuple[str, re.Pattern[str]]] = [
    ("lunar", re.compile(r"农历|阴历|初[一二三四五六七八九十]|除夕|春节|中秋|端午")),
    ("weekday", re.compile(r"(?:星期|周|週|礼拜|禮拜)[一二三四五六日天1-7]")),
    ("time of day", re.compile(r"[点點时分秒]|:\d|早|晚|晨|上午|下午|中午|凌晨|夜")),
    ("month-day", re.compile(r"月.*[日号號]|^\d+[日号]")),
    ("month", re.compile(r"月")),
    ("decade/century", re.compile(r"年代|世纪")),
    ("week", re.compile(r"周|週|星期")),
    ("year", re.compile(r"年")),
]


def gap_class(g: Mention, lang: str) -> str:
    """A coarse class of a gold expression, to group what a system misses."""
    kind = g.type.upper()
    if lang == "en":
        if g.value in ("PRESENT_REF", "PAST_REF", "FUTURE_REF"):
            return "ref word"
        if kind in ("SET", "DURATION"):
            return kind.lower()
        if kind == "TIME":
            return "time of day"
        table = _EN_CLASSES
    else:
        if g.extra.get("mod"):
            return f"open ({g.extra['mod']})"
        if kind in ("SET", "DURATION"):
            return kind.lower()
        table = _ZH_CLASSES
    return next((name for name, rx in table if rx.search(g.text)), "other")


def load(path: Path, lang: str, limit: int | None) -> list[tuple[str, datetime, list[Mention]]]:
    docs = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            dct = datetime.fromisoformat(d["dct"][:19]).replace(tzinfo=UTC)
            gold = [Mention(t["start"], t["end"], t["text"], t["type"], t["value"] or "",
                            extra={"mod": t.get("mod"), "resolution": t.get("resolution", [])})
                    for t in d["timexes"]]
            docs.append((d["text"], dct, gold))
            if limit and len(docs) >= limit:
                break
    return docs


def _norm(value: str) -> str:
    """TIMEX3 values compared without a zero minute ("T14" is "T14:00") and in upper case."""
    v = value.strip().upper()
    return re.sub(r"(T\d\d)$", r"\1:00", v)


def judge_en(g: Mention, p: Mention) -> bool:
    return bool(p.value) and _norm(g.value) == _norm(p.value)


def _moment(value: str | None, dct: datetime) -> datetime | None:
    """A spec reading as a naive datetime; a bare clock time takes the document's date."""
    if not value or not value[0].isdigit():
        return None
    if re.fullmatch(r"\d\d:\d\d:\d\d", value):
        return datetime.fromisoformat(f"{dct.date().isoformat()}T{value}")
    return datetime.fromisoformat(value.replace(" ", "T"))


def _same_end(pred: datetime | None, spec: str | None, dct: datetime) -> bool:
    """The spec writes a range's end as the start of the last unit it names ("到十二日" ends
    01-12, "1995 - 1997年" ends 1997-01-01, "到明天四点" ends 04:00); a half-open end is one
    such unit later. Accept the end itself or one day / hour / minute, or one month or year
    when the end is the first of a month or a year."""
    end = _moment(spec, dct)
    if pred is None or end is None:
        return pred is None and end is None
    slack = [timedelta(0), timedelta(days=1)] if len(spec or "") == 10 else [
        timedelta(0), timedelta(hours=1), timedelta(minutes=1)]
    if any(pred == end + s for s in slack):
        return True
    if end.time() != datetime.min.time() or end.day != 1:
        return False
    next_month = end.replace(year=end.year + end.month // 12, month=end.month % 12 + 1)
    return pred == next_month or (end.month == 1 and pred == end.replace(year=end.year + 1))


def _reading_ok(r: dict[str, str], p: Mention, dct: datetime) -> bool:
    if p.value and r.get("timex") == p.value and not r.get("Mod"):
        return True
    lo = datetime.fromisoformat(p.lo) if p.lo else None
    hi = datetime.fromisoformat(p.hi) if p.hi else None
    if "start" in r or "end" in r:
        start = _moment(r.get("start"), dct)
        if (r.get("Mod") == "after" and r.get("sourceEntity") == "datetimepoint" and start
                and lo == start + timedelta(days=1) and len(r.get("start", "")) == 10):
            # "after day X": the spec starts at X's first moment, our convention (DESIGN.md)
            # after X's end; both exclude nothing a reader would include.
            return hi is None
        return start == lo and _same_end(hi, r.get("end"), dct)
    point = r.get("value", "")
    if r.get("type") == "duration" and lo and hi and point.replace(".", "").isdigit():
        return abs((hi - lo).total_seconds() - float(point)) < 1
    at = _moment(point, dct)
    if at is None or lo is None:
        return False
    if re.fullmatch(r"\d\d:\d\d:\d\d", point):
        return lo.time() == at.time()
    return lo == at and (len(point) > 10 or hi == at + timedelta(days=1))


def judge_zh(dct: datetime) -> Callable[[Mention, Mention], bool]:
    def judge(g: Mention, p: Mention) -> bool:
        readings = g.extra.get("resolution") or [{"timex": g.value}]
        return any(_reading_ok(r, p, dct.replace(tzinfo=None)) for r in readings)
    return judge


def run_system(name: str, lang: str, docs: list) -> tuple[dict, list[Outcome], float]:
    tag = SYSTEMS[name][0]
    totals: dict[str, Tally] = defaultdict(Tally)
    outcomes: list[Outcome] = []
    elapsed = 0.0
    for text, dct, gold in docs:
        t0 = time.perf_counter()
        try:
            pred = tag(text, dct, lang)
        except Exception as exc:  # a library's crash is a result to report, not a stop
            print(f"  {name} crashed on a {lang} document: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            pred = []
        elapsed += time.perf_counter() - t0
        judge = judge_en if lang == "en" else judge_zh(dct)
        tally, outs = score_doc(gold, pred, judge)
        totals["all"].add(tally)
        outcomes.extend(outs)
        for o in outs:
            key = "open" if o.gold.extra.get("mod") and lang == "zh" else o.gold.type.upper()
            part = totals[f"type:{key}"]
            part.gold += 1
            part.relaxed += o.pred is not None
            part.strict += o.strict
            part.value += o.value_ok
    return totals, outcomes, elapsed / max(1, len(docs))


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}"


def _ratio(s: dict[str, float], base: dict[str, float] | None, key: str) -> str:
    return f"{s[key] / base[key]:.2f}" if base and base[key] else "n/a"


def print_table(lang: str, results: dict, baseline: str | None) -> None:
    print(f"\n### {lang}: strict / relaxed span P R F1, value accuracy, value F1 "
          f"(per cent), ms per document, F1 ratio to {baseline or 'no baseline'}")
    print("| system | strict P | R | F1 | relaxed P | R | F1 | value acc | value F1 "
          "| ms/doc | relaxed F1 ÷ base | value F1 ÷ base |")
    print("|---|" + "---:|" * 12)
    base = summary(results[baseline][0]["all"]) if baseline in results else None
    for name, (totals, _, per_doc) in results.items():
        s = summary(totals["all"])
        ratio = " | ".join(_ratio(s, base, k) for k in ("relaxed_f1", "value_f1"))
        cols = [s[k] for k in ("strict_p", "strict_r", "strict_f1", "relaxed_p", "relaxed_r",
                               "relaxed_f1", "value_acc", "value_f1")]
        print(f"| {name} | " + " | ".join(_pct(c) for c in cols)
              + f" | {1000 * per_doc:.1f} | {ratio} |")


def print_types(lang: str, results: dict) -> None:
    """Per gold type: recall (relaxed, strict) and value-correct share of the gold."""
    types = sorted({k for totals, _, _ in results.values() for k in totals if k != "all"})
    print(f"\n### {lang}: per gold type — relaxed recall / value recall (per cent)")
    print("| type | gold | " + " | ".join(results) + " |")
    print("|---|---:|" + "---:|" * len(results))
    for key in types:
        gold = next(t[key].gold for t, _, _ in results.values() if key in t)
        cells = []
        for totals, _, _ in results.values():
            t = totals.get(key, Tally())
            cells.append(f"{_pct(t.relaxed / gold)} / {_pct(t.value / gold)}" if gold else "-")
        print(f"| {key[5:]} | {gold} | " + " | ".join(cells) + " |")
    if lang == "zh":
        cells = []
        for totals, _, _ in results.values():
            closed = Tally()
            for key, t in totals.items():
                if key.startswith("type:") and key != "type:open":
                    closed.add(t)
            cells.append(f"{_pct(closed.relaxed / max(1, closed.gold))} / "
                         f"{_pct(closed.value / max(1, closed.gold))}")
        gold = sum(t.gold for k, t in next(iter(results.values()))[0].items()
                   if k.startswith("type:") and k != "type:open")
        print(f"| all closed | {gold} | " + " | ".join(cells) + " |")


def print_classes(lang: str, results: dict) -> None:
    """Per coarse class: found / value-right counts of each system, so a class where a library
    beats our rules shows up."""
    counts: dict[str, dict[str, tuple[int, int, int]]] = defaultdict(dict)
    for name, (_, outcomes, _) in results.items():
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for o in outcomes:
            c = per[gap_class(o.gold, lang)]
            c[0] += 1
            c[1] += o.pred is not None
            c[2] += o.value_ok
        for cls, (n, found, right) in per.items():
            counts[cls][name] = (n, found, right)
    print(f"\n### {lang}: per class — found / value right, of the gold count")
    print("| class | gold | " + " | ".join(results) + " |")
    print("|---|---:|" + "---:|" * len(results))
    for cls in sorted(counts, key=lambda c: -next(iter(counts[c].values()))[0]):
        n = next(iter(counts[cls].values()))[0]
        cells = [f"{counts[cls][name][1]} / {counts[cls][name][2]}" if name in counts[cls]
                 else "-" for name in results]
        print(f"| {cls} | {n} | " + " | ".join(cells) + " |")


def span_note(outcomes: list[Outcome], examples: int = 5) -> str:
    """Why relaxed matches are not strict: the predicted span longer, shorter or shifted."""
    kinds: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        if o.pred is None or o.strict:
            continue
        g, p = o.gold, o.pred
        kind = ("longer" if p.start <= g.start and p.end >= g.end else
                "shorter" if p.start >= g.start and p.end <= g.end else "shifted")
        kinds[kind].append(o)
    return "strict misses among relaxed matches (predicted span vs gold): " + "; ".join(
        f"{k} {len(v)} (" + ", ".join(f"{o.gold.text!r}->{o.pred.text!r}" for o in v[:examples]
                                      if o.pred is not None) + ")"
        for k, v in sorted(kinds.items(), key=lambda kv: -len(kv[1])))


def gap_table(lang: str, outcomes: list[Outcome], examples: int = 6) -> str:
    """Per coarse class: gold count, missed, value wrong, with examples of each."""
    by: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by[gap_class(o.gold, lang)].append(o)
    lines = [f"chronorag gaps ({lang}): class | gold | missed | value wrong | value right",
             "examples: missed 'text'=gold value; wrong 'text'=gold value -> predicted"]
    lines.append(span_note(outcomes))
    order = sorted(by, key=lambda c: -sum(not o.value_ok for o in by[c]))
    for cls in order:
        outs = by[cls]
        missed = [o for o in outs if o.pred is None]
        wrong = [o for o in outs if o.pred is not None and not o.value_ok]
        lines.append(f"\n{cls} | {len(outs)} | {len(missed)} | {len(wrong)} | "
                     f"{len(outs) - len(missed) - len(wrong)}")
        common = Counter(o.gold.text.lower() for o in missed).most_common(examples)
        lines.append("  missed: " + "; ".join(
            f"{t!r}x{n}={next(o.gold.value for o in missed if o.gold.text.lower() == t)}"
            for t, n in common))
        lines.append("  wrong:  " + "; ".join(
            f"{o.gold.text!r}={o.gold.value} -> {o.pred.text!r}={o.pred.value}"
            for o in wrong[:examples] if o.pred is not None))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lang", choices=("en", "zh", "all"), default="all")
    ap.add_argument("--systems", default="chronorag,dateparser,msrt,jionlp,parsedatetime,ctparse")
    ap.add_argument("--limit", type=int, default=None, help="first N documents per language")
    ap.add_argument("--gold", type=Path, default=GOLD)
    ap.add_argument("--gaps", default=None,
                    help="write chronorag's per-class gaps to PREFIX_en.txt / PREFIX_zh.txt")
    ap.add_argument("--json", type=Path, default=None,
                    help="also write every system's summary per language and type here")
    args = ap.parse_args(argv)
    langs = ["en", "zh"] if args.lang == "all" else [args.lang]
    if not all((args.gold / FILES[lang]).exists() for lang in langs):
        print(HOW_TO_BUILD.format(dir=args.gold), file=sys.stderr)
        return 2
    names = [n.strip() for n in args.systems.split(",") if n.strip()]
    for name in names:
        if why := available(name):
            print(f"skipped {name}: {why}")
    runnable = [n for n in names if available(n) is None]
    record: dict[str, dict] = {}
    for lang in langs:
        docs = load(args.gold / FILES[lang], lang, args.limit)
        ngold = sum(len(g) for _, _, g in docs)
        print(f"\n## {lang}: {len(docs)} documents, {ngold} gold expressions")
        results = {n: run_system(n, lang, docs) for n in runnable if lang in SYSTEMS[n][2]}
        print_table(lang, results, "dateparser" if "dateparser" in results else None)
        record[lang] = {n: {k: summary(t) | {"gold": t.gold} for k, t in r[0].items()}
                        | {"ms_per_doc": 1000 * r[2]} for n, r in results.items()}
        print_types(lang, results)
        print_classes(lang, results)
        if "chronorag" in results:
            gaps = gap_table(lang, results["chronorag"][1])
            print("\n```\n" + gaps + "\n```")
            if args.gaps:
                Path(f"{args.gaps}_{lang}.txt").write_text(gaps + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
