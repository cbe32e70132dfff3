"""A git repository's file history as versions (``chronorag ingest --git-history``).

Policies are often kept in git with no version but the file's history. Each commit that
changed a file is a version of it, valid from the effective date its text states
("Effective date: November 16, 2020", ``chronorag.ingest.stated``), else from the commit's
date (one earlier than the version it replaces counts as no date). The history is the
file's on the first-parent line (the main branch: what was in effect, not a side branch's
drafts), followed across renames. Commits that keep the stated date are edits of one
version: the last of them stands for it (the text as it was when the next date came). A
commit that leaves the text as it was (a rename) is no version.

The newest version keeps the file's own id (its path from the root); an older one is
``<id>@<date>`` (the date it became valid; ``-<commit>`` added when two share a day). Each
version ``supersedes`` the one before it and records ``metadata["git"]``: commit, path at
that commit, commit time and where its ``valid_from`` came from. Its text is read from the
commit, so the store holds every version even after the file changes again. Front matter
a version states (its own ``valid_from``, ``supersedes``, ``metadata``) wins. A stated
date is left to ``ingest --dates-from-text``'s adoption, which ``--git-history`` implies,
so the field records the sentence it came from.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, tzinfo
from os import PathLike
from pathlib import Path, PurePosixPath
from typing import Any

from chronorag.errors import FieldError, ValidationError
from chronorag.ingest.formats import FormatError, reader_for
from chronorag.ingest.frontmatter import split_front_matter
from chronorag.ingest.ids import path_id
from chronorag.ingest.loaders import SUFFIXES, Named
from chronorag.ingest.stated import propose

__all__ = ["GitVersion", "file_versions", "git_inputs"]

_RECORD, _FIELD = "\x1e", "\x1f"


@dataclass(frozen=True)
class GitVersion:
    """One version of a file: the commit that made it, the file's path then, the commit's
    time, its bytes, and the effective date its text states (ISO), if any."""

    commit: str
    path: str
    committed_at: datetime
    data: bytes
    stated: str | None

    @property
    def valid_from(self) -> str:
        return self.stated or self.committed_at.isoformat()


def _git(repo: Path, *args: str) -> bytes:
    git = shutil.which("git")
    if git is None:
        raise ValidationError([FieldError(str(repo), 0, "--git-history",
                                          "needs the git command; install git")])
    done = subprocess.run([git, "-C", str(repo), *args], capture_output=True, check=False)
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ValidationError([FieldError(str(repo), 0, "--git-history",
                                          f"git {args[0]} failed: {reason[-1] if reason else ''}"
                                          "; give a folder or file inside a git work tree")])
    return done.stdout


def _stated_date(data: bytes, name: str, *, tz: tzinfo) -> str | None:
    """The effective date the text of a version states (read as ingest reads it)."""
    reader = reader_for(name)
    if reader is not None and PurePosixPath(name).suffix.lower() not in (".md", ".markdown"):
        try:
            text = reader.read(data, name=name).text
        except FormatError:
            return None
    else:
        text = split_front_matter(data.decode("utf-8", "replace")).body
    return next((p.value for p in propose(text, tz=tz) if p.field == "valid_from"), None)


def file_versions(repo: Path, path: str, *, tz: tzinfo) -> list[GitVersion]:
    """The versions of ``path`` (relative to the work tree ``repo``), oldest first."""
    log = _git(repo, "log", "--first-parent", "--follow", "--name-only", "--diff-filter=d",
               f"--format={_RECORD}%H{_FIELD}%cI",
               "--", path).decode("utf-8", "replace")
    commits: list[tuple[str, str, datetime]] = []
    for record in log.split(_RECORD)[1:]:
        head, _, names = record.partition("\n")
        sha, _, stamp = head.partition(_FIELD)
        name = next((n for n in names.splitlines() if n.strip()), path)
        commits.append((sha, name, datetime.fromisoformat(stamp.strip())))
    versions: list[GitVersion] = []
    for sha, name, when in reversed(commits):
        data = _git(repo, "show", f"{sha}:{name}")
        if versions and versions[-1].data == data:
            continue
        stated = _stated_date(data, name, tz=tz)
        # A date before the version it replaces is no effective date of this one (a
        # date quoted from the past): the commit dates it.
        if stated is not None and versions and stated[:10] < versions[-1].valid_from[:10]:
            stated = None
        version = GitVersion(sha, name, when, data, stated)
        # Edits that keep the stated effective date stay one version: the last edit.
        if versions and stated is not None and versions[-1].stated == stated:
            versions[-1] = version
        else:
            versions.append(version)
    return versions


def _tracked(paths: Sequence[str | PathLike[str]]) -> list[tuple[Path, Path]]:
    """``(work tree, file)`` of every tracked file of a readable type under ``paths``."""
    found: list[tuple[Path, Path]] = []
    for given in paths:
        place = Path(given)
        if not place.exists():
            raise ValidationError([FieldError(str(given), 0, "path", "does not exist")])
        folder = place if place.is_dir() else place.parent
        top = Path(_git(folder, "rev-parse", "--show-toplevel").decode().strip())
        listed = _git(folder, "ls-files", "-z", "--full-name", "--", place.name
                      if place.is_file() else ".").decode("utf-8", "replace")
        before = len(found)
        for name in filter(None, listed.split("\0")):
            relative = PurePosixPath(name)
            if relative.suffix.lower() in SUFFIXES and relative.suffix.lower() != ".jsonl" \
                    and not any(p.startswith(".") for p in relative.parts):
                found.append((top, top / relative))
        if len(found) == before:
            raise ValidationError([FieldError(str(given), 0, "--git-history",
                                              "holds no committed file of a readable type "
                                              "(git add and commit them first)")])
    return sorted(set(found))


def _ids(base: str, versions: Sequence[GitVersion]) -> list[str]:
    out: list[str] = []
    for number, version in enumerate(versions):
        if number == len(versions) - 1:
            out.append(base)
            continue
        made = f"{base}@{version.valid_from[:10]}"
        out.append(made if made not in out else f"{made}-{version.commit[:10]}")
    return out


@contextmanager
def git_inputs(paths: Sequence[str | PathLike[str]], *, root: Path, tz: tzinfo
               ) -> Iterator[list[Named]]:
    """Every version of every tracked file under ``paths`` as an input to ingest (kept in
    a temporary folder while the block runs). Raises ``ValidationError`` naming the path
    when it is not inside a git work tree or a file lies outside ``root``."""
    with tempfile.TemporaryDirectory(prefix="chronorag-git-") as tmp:
        inputs: list[Named] = []
        for top, file in _tracked(paths):
            base = path_id(file, root)
            if base is None:
                raise ValidationError([FieldError(str(file), 0, "path",
                                                  f"is outside the root {str(root)!r}; "
                                                  "give --root")])
            versions = file_versions(top, file.relative_to(top).as_posix(), tz=tz)
            ids = _ids(base, versions)
            for number, version in enumerate(versions):
                stored = Path(tmp) / f"{len(inputs)}{file.suffix.lower()}"
                stored.write_bytes(version.data)
                # A stated date is adopted from the text at ingest, with its sentence.
                fields: dict[str, Any] = {
                    "id": ids[number], **({} if version.stated else
                                         {"valid_from": version.valid_from}),
                    "metadata": {"git": {
                        "commit": version.commit, "path": version.path,
                        "committed_at": version.committed_at.isoformat(),
                        "valid_from": "text" if version.stated else "commit"}}}
                if number:
                    fields["supersedes"] = [ids[number - 1]]
                inputs.append(Named(stored, f"{version.commit[:10]}:{version.path}",
                                    defaults=fields))
        yield inputs
