"""The layout of ``fos_cutedsl``: imports go one way, and no module is too long to read.

Parsed with ``ast`` (nothing is imported, no DSL needed): every ``from . import``
or ``from .module import`` inside the package is an edge of its import graph,
which must be acyclic, so each module can be read knowing only those below it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "packages" / "fos-cutedsl" / "src" / "fos_cutedsl"
MAX_LINES = 550


def _modules() -> dict[str, Path]:
    return {p.stem: p for p in sorted(PACKAGE.glob("*.py"))}


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (at any depth in its code)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                targets = [node.module] if node.module else [a.name for a in node.names]
                edges |= {t.split(".")[0] for t in targets}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fos_cutedsl"):
                rest = node.module.split(".")[1:]
                edges |= {rest[0]} if rest else {a.name for a in node.names}
        graph[name] = {e for e in edges if e in modules and e != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle as a path of modules, or [] when the graph is acyclic."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_graph_sees_the_imports():
    """The parser finds the edges that exist (so an empty graph cannot pass vacuously)."""
    graph = import_graph()
    assert {"group", "config"} <= graph["rowwise"]
    assert {"rowwise", "persistent", "tile"} <= graph["compile"]
    assert "compile" in graph["api"]


def test_no_import_cycle():
    cycle = _cycle(import_graph())
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_kernels_import_shared_code_only():
    """Only ``compile`` knows every kernel: no kernel module imports another one."""
    graph = import_graph()
    kernels = {"rowwise", "persistent", "tile"}
    for kernel in kernels:
        assert not graph[kernel] & kernels, (kernel, graph[kernel] & kernels)
    assert not graph["config"], "config is the bottom of the graph"


def test_no_module_too_long():
    lengths = {name: len(p.read_text().splitlines()) for name, p in _modules().items()}
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines: {too_long}"
