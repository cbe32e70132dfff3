"""The policy questions on GitHub's Terms of Service, asked of a store made from the
site-policy repository's git history by ``chronorag ingest --git-history`` (no dates or
links added by hand).

A question is right when its first applicable evidence item is the version valid from
the gold version's date (the gold names ``…--<date>`` as ``build.py`` pins it)::

    git clone GITHUB_SITE_POLICY_GIT /tmp/sp && cd /tmp/sp
    chronorag ingest Policies/github-terms/github-terms-of-service.md --git-history \\
        --root . --db /tmp/gh.db
    python benchmarks/policies/git_versions.py /tmp/gh.db
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

HERE = Path(__file__).parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", help="the store ingest --git-history made")
    parser.add_argument("--prefix", default="github/github-terms-of-service--",
                        help="ask the questions whose gold document starts so")
    args = parser.parse_args()
    rows = [json.loads(line) for line in (HERE / "questions.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    rows = [q for q in rows if q["doc"].startswith(args.prefix)]
    right = 0
    for q in rows:
        cmd = ["chronorag", "ask", q["question"], "--db", args.db, "--json", "-k", "5",
               "--now", q["now"], *(["--as-of", q["as_of"]] if q.get("as_of") else [])]
        out = json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                        check=True).stdout)
        top = next((e for e in out["evidence"] if e["applicable"]), None) or {}
        want = q["doc"].rsplit("--", 1)[1]
        ok = (top.get("valid_from") or "")[:10] == want
        right += ok
        print(f"{'ok' if ok else '--'} {q['id']:<12} gold {want} top {top.get('doc_id')} "
              f"answer {str(out['answer'])[:60]!r}")
    print(f"{right}/{len(rows)} versions right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
