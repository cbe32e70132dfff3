"""No import cycles in chronorag, not even through imports inside functions.

The import graph is read from the source with ``ast``: every ``import`` and ``from ...
import`` anywhere in a file (module level, inside functions, under ``TYPE_CHECKING``),
relative names resolved, ``from package import submodule`` counted as an import of the
submodule. The layers themselves are checked by import-linter (``lint-imports`` in
``.ci/run``, contracts in pyproject.toml); this test also makes sure those contracts
place every top-level module, so a new one cannot slip past them.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

import chronorag
from chronorag.rank.links import cycle_components

PACKAGE = Path(chronorag.__file__).resolve().parent
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

Graph = dict[str, dict[str, int]]  # module -> imported module -> first line


def module_names(root: Path) -> dict[str, Path]:
    """Dotted name -> file of every module of the package at ``root``."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imported(module: str, is_package: bool, source: str, known: Iterable[str]) -> dict[str, int]:
    """Modules of ``known`` that ``source`` (the text of ``module``) imports, with lines."""
    known = set(known)

    def owner(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")[: len(module.split(".")) - node.level + is_package]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        for target in targets:
            name = owner(target)
            if name is not None and name != module:
                found.setdefault(name, node.lineno)
    return found


def import_graph(root: Path = PACKAGE) -> Graph:
    modules = module_names(root)
    return {name: imported(name, path.name == "__init__.py", path.read_text("utf-8"), modules)
            for name, path in modules.items()}


def collapse(graph: Graph, depth: int = 2) -> Graph:
    """The graph between top-level subpackages and modules (``chronorag.rank``, ...)."""
    out: Graph = {}
    for module, targets in graph.items():
        top = ".".join(module.split(".")[:depth])
        edges = out.setdefault(top, {})
        for target, line in targets.items():
            other = ".".join(target.split(".")[:depth])
            if other != top:
                edges.setdefault(other, line)
    return out


def cycles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """Strongly connected components of two or more modules (the iterative Tarjan
    that validity runs on document links)."""
    members = cycle_components({m: sorted(t) for m, t in graph.items()})
    groups: dict[str, list[str]] = {}
    for module, smallest in members.items():
        groups.setdefault(smallest, []).append(module)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def describe(graph: Graph, component: list[str]) -> str:
    edges = [f"  {a} -> {b} (line {graph[a][b]})"
             for a in component for b in sorted(graph[a]) if b in component]
    return "\n".join(edges)


def test_graph_sees_lazy_relative_and_type_checking_imports() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import b\n"
        "from .c import thing\n"
        "if TYPE_CHECKING:\n"
        "    from p.d import Other\n"
        "def f():\n"
        "    import p.e.f\n"
    )
    known = {"p", "p.a", "p.b", "p.c", "p.d", "p.e", "p.e.f"}
    assert imported("p.a", False, source, known) == {
        "p.b": 2, "p.c": 3, "p.d": 5, "p.e.f": 7}
    assert imported("p", True, "from .e import f\nfrom . import c\n", known) == {
        "p.e.f": 1, "p.c": 2}
    assert cycles({"a": {"b": 1}, "b": {"a": 1}, "c": {"a": 1}}) == [["a", "b"]]


def test_no_import_cycle_between_modules() -> None:
    graph = import_graph()
    assert graph.get("chronorag.engine"), "the graph reader found no imports"
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n\n".join(describe(graph, c) for c in found)


def test_no_import_cycle_between_packages() -> None:
    graph = collapse(import_graph())
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n\n".join(describe(graph, c) for c in found)


def test_layers_contract_places_every_top_level_module() -> None:
    config = tomllib.loads(PYPROJECT.read_text("utf-8"))["tool"]["importlinter"]
    stages = next(c for c in config["contracts"] if c["type"] == "layers"
                  and "chronorag.cli" in c["layers"])
    placed = {name.strip() for layer in stages["layers"] for name in layer.split("|")}
    top_level = set(collapse(import_graph())) - {"chronorag"}
    assert top_level - placed == set(), "add these modules to a layer in pyproject.toml"
    assert placed - top_level == set(), "these layers name modules that do not exist"
