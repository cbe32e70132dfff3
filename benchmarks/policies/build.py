"""Write the policy evaluation corpus from two public git mirrors at pinned commits.

    python benchmarks/policies/build.py GITHUB_SITE_POLICY_GIT MOZILLA_LEGAL_DOCS_GIT OUT_DIR

The texts belong to their publishers (GitHub's site-policy, CC0; Mozilla's legal-docs,
MPL-2.0 / CC BY-SA) and are not committed here: this script takes every file byte for byte
from the git history of a mirror (``git --git-dir=... show COMMIT:PATH``), so the corpus is
the same wherever it is rebuilt. Nothing is added to a file: no front matter, no dates. A
product that answers from this corpus has to find each version's date in its text.

Besides the corpus, ``OUT_DIR/truth.json`` records, per file, the date its text states
(checked here against the pinned phrase, so a wrong pin or a changed mirror fails the
build), the true version chains oldest to newest, the exact duplicate, translations (the
same policy in English and Chinese: not versions of one another) and policies that share
boilerplate but are different documents. ``truth.json`` sits beside the corpus, not in it:
``run.py`` ingests only the folders ``github/`` and ``mozilla/``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

GITHUB_URL = "https://github.com/github/site-policy"
MOZILLA_URL = "https://github.com/mozilla/legal-docs"

# The newest commit of each mirror when the corpus was made (every pinned commit below is an
# ancestor of it).
HEADS = {"github": "12992597c5d9d8cfc006693c54b9609d9993bc99",
         "mozilla": "f098c17556ff822c17f4b6bd591c9b459be2f183"}

GH_NOW = "9f6a843594a6443f1b9a45fbadfcdd37a2f53be3"
MZ_NOW = "f098c17556ff822c17f4b6bd591c9b459be2f183"


@dataclass(frozen=True)
class Entry:
    """One corpus file: where it comes from, where it goes, what date its text states."""

    source: str          # "github" | "mozilla"
    commit: str
    path: str            # path inside the mirror at that commit
    out: str             # path inside OUT_DIR
    date: str | None     # the stated date, ISO (YYYY-MM-DD, or YYYY-MM when only a month)
    phrase: str | None   # the words that state it, as the text has them
    chain: str | None = None   # versions of one document share a chain name
    copy_of: str | None = None  # an exact duplicate names the out path it copies
    lang: str = "en"


def _gh(commit: str, path: str, out: str, date: str | None, phrase: str | None,
        chain: str | None = None) -> Entry:
    return Entry("github", commit, path, f"github/{out}", date, phrase, chain)


def _mz(commit: str, path: str, out: str, date: str | None, phrase: str | None,
        chain: str | None = None) -> Entry:
    lang = "zh" if path.startswith("zh-CN/") else "en"
    return Entry("mozilla", commit, path, f"mozilla/{out}", date, phrase, chain, lang=lang)


P = "Policies/"
ENTRIES: tuple[Entry, ...] = (
    # GitHub Privacy Statement: three versions, the file moved twice in between.
    _gh("0e61d296c42b44302a2b40afec06958f999dfd98", P + "github-privacy-statement.md",
        "github-privacy-statement--2020-12-19.md", "2020-12-19",
        "Effective date: December 19, 2020", "gh-privacy"),
    _gh("1396c7a8b19861226f2e5493fb4498e0cd874ff5",
        P + "privacy-policies/github-privacy-statement.md",
        "github-privacy-statement--2022-12-15.md", "2022-12-15",
        "Effective date: December 15, 2022", "gh-privacy"),
    _gh(GH_NOW, P + "privacy-policies/github-general-privacy-statement.md",
        "github-privacy-statement--2024-02-01.md", "2024-02-01",
        "Effective date: February 1, 2024", "gh-privacy"),
    # Terms of Service: three versions.
    _gh("28bf8e26fabe6120f4b0f90a2d2f359d093bc0ae", P + "github-terms-of-service.md",
        "github-terms-of-service--2019-11-13.md", "2019-11-13",
        "Effective date: November 13, 2019", "gh-tos"),
    _gh("9d99038d4e34a532c5b52c054100cf995bfbc571", P + "github-terms-of-service.md",
        "github-terms-of-service--2020-04-02.md", "2020-04-02",
        "Effective date: April 2, 2020", "gh-tos"),
    _gh(GH_NOW, P + "github-terms/github-terms-of-service.md",
        "github-terms-of-service--2020-11-16.md", "2020-11-16",
        "Effective date: November 16, 2020", "gh-tos"),
    # Subprocessors and Cookies: the tables of subprocessors changed between versions.
    _gh("64e7c052150d6a7f54139d44364f4b124f0adb0b", P + "github-subprocessors-and-cookies.md",
        "github-subprocessors-and-cookies--2020-12-19.md", "2020-12-19",
        "Effective date: **December 19, 2020**", "gh-subprocessors"),
    _gh("2acc2367cde66317a357a8102af94e625923d310",
        P + "privacy-policies/github-subprocessors-and-cookies.md",
        "github-subprocessors-and-cookies--2022-09-01.md", "2022-09-01",
        "Effective date: **September 1, 2022**", "gh-subprocessors"),
    # Marketplace Terms of Service: two versions.
    _gh("eb9eaff3e4cd8c7d0b29b999170749123a473837",
        P + "github-terms/github-marketplace-terms-of-service.md",
        "github-marketplace-terms-of-service--2020-11-20.md", "2020-11-20",
        "Effective Date: November 20, 2020", "gh-marketplace"),
    _gh(GH_NOW, P + "github-terms/github-marketplace-terms-of-service.md",
        "github-marketplace-terms-of-service--2024-08-01.md", "2024-08-01",
        "Effective Date: August 1, 2024", "gh-marketplace"),
    # Candidate Privacy Policy: the newer one states only a month.
    _gh("3ec3b21666fe217afbf5e7a7b6bcbce415458d6c",
        P + "privacy-policies/github-candidate-privacy-policy.md",
        "github-candidate-privacy-policy--2021-03-08.md", "2021-03-08",
        "Effective Date: March 8, 2021", "gh-candidate"),
    _gh(GH_NOW, P + "privacy-policies/github-candidate-privacy-policy.md",
        "github-candidate-privacy-policy--2025-12.md", "2025-12",
        "Last Updated: December 2025", "gh-candidate"),
    # Single versions that state no date: unrelated policies with the same boilerplate.
    _gh(GH_NOW, P + "other-site-policies/github-logo-policy.md",
        "github-logo-policy.md", None, None),
    _gh(GH_NOW, P + "other-site-policies/github-username-policy.md",
        "github-username-policy.md", None, None),
    _gh(GH_NOW, P + "other-site-policies/github-deceased-user-policy.md",
        "github-deceased-user-policy.md", None, None),
    # Firefox Privacy Notice: three English versions, two Chinese.
    _mz("07c68133c2fdf5f91e0f865c8f4ebcb977bc0643", "en/firefox_privacy_notice.md",
        "en/firefox_privacy_notice--2025-06-02.md", "2025-06-02",
        "Effective June 2, 2025", "mz-ffpn-en"),
    _mz("e89fac46749c29798ac1bd955ad02986b63deec7", "en/firefox_privacy_notice.md",
        "en/firefox_privacy_notice--2025-12-17.md", "2025-12-17",
        "Effective December 17, 2025", "mz-ffpn-en"),
    _mz("6e773a709a8c8e21ed03973d003527d480517083", "en/firefox_privacy_notice.md",
        "en/firefox_privacy_notice--2026-05-04.md", "2026-05-04",
        "Effective May 4, 2026", "mz-ffpn-en"),
    _mz("e89fac46749c29798ac1bd955ad02986b63deec7", "zh-CN/firefox_privacy_notice.md",
        "zh-CN/firefox_privacy_notice--2025-12-17.md", "2025-12-17",
        "2025 年 12 月 17 日生效", "mz-ffpn-zh"),
    _mz("85fecee42cae8dfda7be7fd11d4acc6d52dc6363", "zh-CN/firefox_privacy_notice.md",
        "zh-CN/firefox_privacy_notice--2026-05-04.md", "2026-05-04",
        "2026 年 5 月 4 日生效", "mz-ffpn-zh"),
    # Firefox Terms of Use, English and Chinese, two versions each.
    _mz("cd43f0e451268b2d2d425e63e4f076bba26bd4a5", "en/firefox_terms_of_use.md",
        "en/firefox_terms_of_use--2025-02-28.md", "2025-02-28",
        "Effective February 28, 2025", "mz-fftou-en"),
    _mz("07c68133c2fdf5f91e0f865c8f4ebcb977bc0643", "en/firefox_terms_of_use.md",
        "en/firefox_terms_of_use--2025-06-10.md", "2025-06-10",
        "Effective June 10, 2025", "mz-fftou-en"),
    _mz("2edbed1831b8bc8a70cd3238f14c8a22cf332f28", "zh-CN/firefox_terms_of_use.md",
        "zh-CN/firefox_terms_of_use--2025-02-28.md", "2025-02-28",
        "2025 年 02 月 28 日生效", "mz-fftou-zh"),
    _mz("07c68133c2fdf5f91e0f865c8f4ebcb977bc0643", "zh-CN/firefox_terms_of_use.md",
        "zh-CN/firefox_terms_of_use--2025-06-10.md", "2025-06-10",
        "2025 年 06 月 10 日生效", "mz-fftou-zh"),
    # Pocket Terms of Service: two versions three years apart.
    _mz("eeecd1cb97f615cd4c94314ad5f1b4894144d301", "en/pocket_tos.md",
        "en/pocket_tos--2021-01-27.md", "2021-01-27",
        "*Effective January 27, 2021*", "mz-pocket"),
    _mz("07c68133c2fdf5f91e0f865c8f4ebcb977bc0643", "en/pocket_tos.md",
        "en/pocket_tos--2024-02-15.md", "2024-02-15",
        "*Effective February 15, 2024*", "mz-pocket"),
    # Single versions: Focus's terms were copied from Firefox's (shared boilerplate).
    _mz(MZ_NOW, "en/focus_terms_of_use.md", "en/focus_terms_of_use.md", "2025-04-22",
        "Effective April 22, 2025"),
    _mz(MZ_NOW, "en/mozilla_location_services_privacy_notice.md",
        "en/mozilla_location_services_privacy_notice.md", "2021-02-03",
        "Last updated February 3, 2021"),
    _mz(MZ_NOW, "zh-CN/amo_policies.md", "zh-CN/amo_policies.md", "2024-03-18",
        "最后更新于 2024 年 3 月 18 日"),
    _mz(MZ_NOW, "en/acceptable_use_policy.md", "en/acceptable_use_policy.md", None, None),
    # HTML as Mozilla publishes it (converted from the Markdown; only one dated version each).
    _mz(MZ_NOW, "en/html/mozilla_accounts_privacy_notice.html",
        "en/html/mozilla_accounts_privacy_notice.html", "2026-02-10",
        "Effective February 10, 2026"),
    _mz(MZ_NOW, "zh-CN/html/mozilla_accounts_privacy_notice.html",
        "zh-CN/html/mozilla_accounts_privacy_notice.html", "2026-02-10",
        "2026 年 2 月 10 日生效"),
    _mz("3ab1570eaecc4601ddf06557c2d93c17dccc0315", "en/html/firefox_cloud_services_tos.html",
        "en/html/firefox_cloud_services_tos.html", "2025-06-10",
        "Last Updated June 10, 2025"),
    # PDF as Mozilla publishes it, versions from the history of the PDF itself.
    _mz("4e2940167543053ae2b7d039cf262cfabd16ac4d", "en/pdf/subscription_services_tos.pdf",
        "en/pdf/subscription_services_tos--2024-11-04.pdf", "2024-11-04",
        "Version 2.0, effective November 4, 2024", "mz-subs-tos"),
    _mz("b69d18fbf3715086bd68d3be11ec1069a8441670", "en/pdf/subscription_services_tos.pdf",
        "en/pdf/subscription_services_tos--2025-12-17.pdf", "2025-12-17",
        "Effective December 17, 2025", "mz-subs-tos"),
    _mz("fabac95f19e904442495cb10c0f154529d1d7443", "en/pdf/subscription_services_tos.pdf",
        "en/pdf/subscription_services_tos--2026-03-24.pdf", "2026-03-24",
        "Effective March 24, 2026", "mz-subs-tos"),
    _mz("b9d83c4e4d7ebc291cc10254ac2bdfc6ecdb7a03", "en/pdf/mdn_plus_terms.pdf",
        "en/pdf/mdn_plus_terms--2023-05-24.pdf", "2023-05-24",
        "Version 1.1, Effective May 24, 2023", "mz-mdn-terms"),
    _mz("4739626687b7208bef766ca7e27d832873fc8a90", "en/pdf/mdn_plus_terms.pdf",
        "en/pdf/mdn_plus_terms--2023-11-01.pdf", "2023-11-01",
        "Version 1.2, Effective November 1, 2023", "mz-mdn-terms"),
    _mz("fabac95f19e904442495cb10c0f154529d1d7443", "zh-CN/pdf/subscription_services_tos.pdf",
        "zh-CN/pdf/subscription_services_tos.pdf", "2026-03-24", "2026 年 3 月 24 日生效"),
)

# The same file saved a second time under another name, byte for byte.
DUPLICATES = (("mozilla/en/mozilla_location_services_privacy_notice.md",
               "mozilla/en/copies/location-services-privacy.md"),)

# The same policy in two languages: related, but neither replaces the other.
TRANSLATIONS = (("mz-ffpn-en", "mz-ffpn-zh"), ("mz-fftou-en", "mz-fftou-zh"),
                ("mozilla/en/html/mozilla_accounts_privacy_notice.html",
                 "mozilla/zh-CN/html/mozilla_accounts_privacy_notice.html"),
                ("mz-subs-tos", "mozilla/zh-CN/pdf/subscription_services_tos.pdf"))

# Different documents with much text in common (one was written from the other, or both
# from one template): a pair of them proposed as versions is a false pair.
LOOKALIKES = (("mz-fftou-en", "mozilla/en/focus_terms_of_use.md"),
              ("gh-privacy", "gh-candidate"), ("gh-tos", "gh-marketplace"))


CHAIN_NAMES = sorted({e.chain for e in ENTRIES if e.chain})


def doc_id(out: str) -> str:
    """The id a folder ingest gives the file: its path in the corpus without the suffix."""
    return out.rsplit(".", 1)[0]


def git_show(git_dir: Path, commit: str, path: str) -> bytes:
    result = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                            capture_output=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{git_dir}: cannot read {commit}:{path}: "
                         f"{result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def plain_text(data: bytes, suffix: str) -> str | None:
    """The text a reader sees, for checking the stated date; None when it cannot be read."""
    if suffix != ".pdf":
        return data.decode("utf-8")
    try:
        from pypdf import PdfReader
    except ImportError:
        return None
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def check_phrase(entry: Entry, data: bytes) -> bool:
    """True when the pinned phrase stands in the text; False when the PDF cannot be read."""
    if entry.phrase is None:
        return True
    text = plain_text(data, Path(entry.out).suffix)
    if text is None:
        return False
    flat = re.sub(r"\s+", " ", text)
    if re.sub(r"\s+", " ", entry.phrase) not in flat:
        raise SystemExit(f"{entry.out}: the text at {entry.commit[:10]}:{entry.path} does not "
                         f"state {entry.phrase!r}; the pin is wrong")
    return True


def _chain_ids(name: str) -> list[str]:
    members = [e for e in ENTRIES if e.chain == name]
    return [doc_id(e.out) for e in sorted(members, key=lambda e: e.date or "")]


def _group(name: str) -> list[str]:
    """A chain name stands for its versions; a corpus path for that one document."""
    if any(e.chain == name for e in ENTRIES):
        return _chain_ids(name)
    return [doc_id(name)]


def truth(records: dict[str, dict[str, object]]) -> dict[str, object]:
    chains = CHAIN_NAMES
    return {
        "sources": {
            "github": {"url": GITHUB_URL, "head": HEADS["github"], "license": "CC0-1.0"},
            "mozilla": {"url": MOZILLA_URL, "head": HEADS["mozilla"],
                        "license": "MPL-2.0 / CC-BY-SA-3.0"},
        },
        "documents": records,
        "chains": [_chain_ids(name) for name in chains],
        "duplicates": [[doc_id(a), doc_id(b)] for a, b in DUPLICATES],
        "translations": [[_group(a), _group(b)] for a, b in TRANSLATIONS],
        "lookalikes": [[_group(a), _group(b)] for a, b in LOOKALIKES],
    }


def _record(entry: Entry, data: bytes, *, checked: bool) -> dict[str, object]:
    return {
        "file": entry.out, "format": Path(entry.out).suffix.lstrip("."), "lang": entry.lang,
        "source": entry.source, "commit": entry.commit, "path": entry.path,
        "sha256": hashlib.sha256(data).hexdigest(),
        "stated_date": entry.date, "date_phrase": entry.phrase,
        "date_granularity": None if entry.date is None else
        ("month" if len(entry.date) == 7 else "day"),
        "phrase_checked": checked, "chain": entry.chain,
    }


def build(github: Path, mozilla: Path, out: Path) -> dict[str, object]:
    dirs = {"github": github, "mozilla": mozilla}
    records: dict[str, dict[str, object]] = {}
    unchecked: list[str] = []
    for entry in ENTRIES:
        data = git_show(dirs[entry.source], entry.commit, entry.path)
        checked = check_phrase(entry, data)
        if not checked:
            unchecked.append(entry.out)
        target = out / entry.out
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        records[doc_id(entry.out)] = _record(entry, data, checked=checked)
    for original, copy in DUPLICATES:
        data = (out / original).read_bytes()
        (out / copy).parent.mkdir(parents=True, exist_ok=True)
        (out / copy).write_bytes(data)
        records[doc_id(copy)] = {**records[doc_id(original)], "file": copy, "chain": None,
                                 "copy_of": doc_id(original)}
    if unchecked:
        print(f"pypdf is not installed: the dates of {len(unchecked)} PDF files were not "
              "checked against their text", file=sys.stderr)
    return truth(records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("github", type=Path, help="git dir of github/site-policy")
    parser.add_argument("mozilla", type=Path, help="git dir of mozilla/legal-docs")
    parser.add_argument("out", type=Path, help="folder to write the corpus and truth.json to")
    args = parser.parse_args(argv)
    result = build(args.github, args.mozilla, args.out)
    (args.out / "truth.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
    documents = result["documents"]
    assert isinstance(documents, dict)
    formats: dict[str, int] = {}
    for record in documents.values():
        formats[str(record["format"])] = formats.get(str(record["format"]), 0) + 1
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(formats.items()))
    print(f"{len(documents)} files in {args.out} ({kinds}); {len(CHAIN_NAMES)} version chains; "
          f"truth in {args.out / 'truth.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
