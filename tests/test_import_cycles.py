"""No import cycles in pbem/ and rules/ (issue 14): the layers are one-way.

Every import counts, wherever it is written: at module level, inside a function (a lazy import that
hides a cycle still is one) and under ``if TYPE_CHECKING`` (a type-only cycle is still two modules
that need each other). An import names the most specific module it reaches: ``import a.b`` and
``from a import b`` (b a module) point at ``a.b``; ``from a import name`` points at ``a``. Parent
packages that Python runs on the way are not edges, or every ``__init__`` that re-exports its
modules would make a cycle with each of them.
"""
from __future__ import annotations

import ast
import pathlib


ROOT = pathlib.Path(__file__).resolve().parents[1]
#: Folder of the repository → the package it is installed as (rules/ is installed as pbem.rules).
TREES = {"pbem": "pbem", "rules": "pbem.rules"}

Graph = dict[str, set[str]]


def module_names(folder: pathlib.Path, package: str) -> dict[str, pathlib.Path]:
    """Every module under ``folder`` by its dotted name; a package is named by its ``__init__.py``."""
    names = {}
    for path in folder.rglob("*.py"):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join([package, *parts])] = path
    return names


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module a ``from … import`` names, resolving ``.`` and ``..`` against ``module``."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()  # `.` is the module's own package
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _target(name: str, known: set[str]) -> str | None:
    """The longest prefix of ``name`` that is one of ours (``a.b.c`` of a module ``a.b`` is ``a.b``)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in known:
            return ".".join(parts[:end])
    return None


def imports_of(module: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports anywhere in its text."""
    found: set[str] = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {t for a in node.names if (t := _target(a.name, known))}
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, is_package)
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                t = sub if sub in known else _target(source, known)
                if t:
                    found.add(t)
    found.discard(module)
    return found


def import_graph(trees: dict[pathlib.Path, str]) -> Graph:
    """Module → the modules of the same trees it imports."""
    paths: dict[str, pathlib.Path] = {}
    for folder, package in trees.items():
        paths |= module_names(folder, package)
    known = set(paths)
    return {m: imports_of(m, p, known) for m, p in sorted(paths.items())}


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def describe(graph: Graph, component: list[str]) -> str:
    """One cycle as its modules and the imports between them, so the message says what to cut."""
    members = set(component)
    edges = [f"{m} -> {t}" for m in component for t in sorted(graph[m] & members)]
    return f"{', '.join(component)}\n    " + "\n    ".join(edges)


def test_no_import_cycles():
    graph = import_graph({ROOT / folder: package for folder, package in TREES.items()})
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(describe(graph, c) for c in found)


def test_the_graph_sees_the_tree():
    """The check reads the real tree: the core is there, and a ruleset's imports of it are edges."""
    graph = import_graph({ROOT / folder: package for folder, package in TREES.items()})
    assert "pbem.core.ruleset" in graph and "pbem.rules.bismarck" in graph
    assert any(t.startswith("pbem.core") for t in graph["pbem.rules.bismarck"] | set().union(
        *(graph[m] for m in graph if m.startswith("pbem.rules.bismarck."))))


def _package(tmp_path: pathlib.Path, files: dict[str, str]) -> Graph:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return import_graph({tmp_path / "pkg": "pkg"})


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    graph = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from pkg import b\n",
        "b.py": "def late():\n    from . import c\n",
        "c.py": "import pkg.a as a\n",
        "d.py": "from pkg.a import thing\n",  # outside the cycle: it only points into it
    })
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert "pkg.b -> pkg.c" in describe(graph, cycles(graph)[0])


def test_relative_imports_resolve_in_packages_and_modules(tmp_path):
    graph = _package(tmp_path, {
        "__init__.py": "from .sub import x\n",
        "top.py": "",
        "sub/__init__.py": "from ..top import y\nfrom . import leaf\n",
        "sub/leaf.py": "from .. import top\nfrom ..sub import leaf2\n",
        "sub/leaf2.py": "from pkg.sub.leaf import z\n",
    })
    assert graph["pkg"] == {"pkg.sub"}
    assert graph["pkg.sub"] == {"pkg.top", "pkg.sub.leaf"}
    assert graph["pkg.sub.leaf"] == {"pkg.top", "pkg.sub.leaf2"}
    assert cycles(graph) == [["pkg.sub.leaf", "pkg.sub.leaf2"]]


def test_a_package_that_re_exports_its_modules_is_no_cycle(tmp_path):
    graph = _package(tmp_path, {"__init__.py": "from .a import A\n", "a.py": "import os\nA = 1\n"})
    assert cycles(graph) == []
