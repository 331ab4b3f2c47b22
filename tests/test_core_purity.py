"""The pure core and the rulesets import only what is allowed (style P1, issue 14).

An allow-list, not a list of the bad: ``pbem/core`` may import the standard library and ``pbem.core``;
a ruleset may import those and its own package. Anything else (a new dependency, ``pbem.store``,
another ruleset, the registry in ``pbem.rules``) fails with the file and line. The standard library
is the interpreter's own list (``sys.stdlib_module_names``), less the modules that reach the world
outside a call: clock, randomness, files and processes, network, mail and logging.
"""
from __future__ import annotations

import ast
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: Standard-library modules that do I/O or read the clock or entropy: a resolution must be a function of
#: its state, orders and dice, so these stay out even though they are the standard library.
IMPURE_STDLIB = {"os", "sys", "io", "socket", "subprocess", "smtplib", "email", "logging", "random", "secrets",
                 "time", "datetime", "threading", "asyncio", "shutil", "tempfile", "urllib", "http", "sqlite3"}
STDLIB = set(sys.stdlib_module_names) - IMPURE_STDLIB


def module_of(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    """The dotted name ``path`` under ``root`` is installed as (rules/ is pbem.rules)."""
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[0] == "rules":
        parts[0:1] = ["pbem", "rules"]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def own_package(module: str) -> str:
    """What a module may import besides the core: for a ruleset its package, ``pbem.rules.<name>``
    (the registry ``pbem.rules`` itself may import every ruleset); for the core nothing more."""
    parts = module.split(".")
    if parts[:2] != ["pbem", "rules"]:
        return "pbem.core"
    return ".".join(parts[:3])


def imports(path: pathlib.Path, module: str) -> list[tuple[int, str]]:
    """(line, absolute name) of every import in the file, wherever it is written; ``from a import b`` is
    ``a.b``, so that ``from pbem import store`` names what it reaches."""
    found = []
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            found += [(node.lineno, f"{source}.{a.name}") for a in node.names]
    return found


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def violations(path: pathlib.Path, module: str) -> list[str]:
    """Each import of ``path`` outside the allow-list, as ``file:line imports name``."""
    own = own_package(module)
    bad = []
    for line, name in imports(path, module):
        allowed = (name.split(".")[0] in STDLIB or within(name, "pbem.core") or within(name, own))
        if not allowed:
            bad.append(f"{path}:{line} imports {name}")
    return bad


PURE = sorted([*ROOT.joinpath("pbem/core").rglob("*.py"), *ROOT.joinpath("rules").rglob("*.py")])


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_only_the_allowed(path):
    """A core or rules module importing anything but the standard library, the core and its own package
    fails here, naming the file, the line and the module."""
    bad = violations(path, module_of(path))
    assert not bad, "only the standard library, pbem.core and the ruleset's own package:\n" + "\n".join(bad)


def test_the_allow_list_rejects_what_it_should(tmp_path):
    """The check can fail: a synthetic ruleset importing a library, the store, another ruleset and the
    clock is caught at each line; its own modules, the core and pure standard library pass."""
    game = tmp_path / "rules" / "mygame"
    game.mkdir(parents=True)
    (game / "__init__.py").write_text("from .game import RULESET\n")
    path = game / "game.py"
    path.write_text("import json\nfrom pbem.core.dice import Dice\nfrom . import tables\n"
                    "from pbem.rules.mygame.views import view\n"
                    "import jinja2\nfrom pbem.store import models\nfrom ..bismarck import tables\n"
                    "def late():\n    import time\n    from pbem import rules\n")
    module = module_of(path, tmp_path)
    assert module == "pbem.rules.mygame.game"
    assert violations(path, module) == [f"{path}:{n} imports {name}" for n, name in (
        (5, "jinja2"), (6, "pbem.store.models"), (7, "pbem.rules.bismarck.tables"), (9, "time"), (10, "pbem.rules"))]
    assert violations(game / "__init__.py", module_of(game / "__init__.py", tmp_path)) == []


def test_the_core_may_not_import_the_engine(tmp_path):
    path = tmp_path / "pbem" / "core" / "x.py"
    path.parent.mkdir(parents=True)
    path.write_text("from . import dice\nfrom .. import render\nimport dataclasses\nimport os.path\n")
    bad = violations(path, module_of(path, tmp_path))
    assert bad == [f"{path}:2 imports pbem.render", f"{path}:4 imports os.path"]


def imported(path: pathlib.Path) -> set[str]:
    """The absolute modules a file imports (relative imports are its own and left out)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


ALL_PY = sorted(p for d in ("pbem", "rules", "tests", "benchmarks") for p in ROOT.joinpath(d).rglob("*.py"))


@pytest.mark.parametrize("path", ALL_PY, ids=lambda p: str(p.relative_to(ROOT)))
def test_rulesets_are_imported_as_pbem_rules(path):
    """`rules` is installed as pbem.rules: a top-level `import rules` works only from the repository root."""
    bad = {n for n in imported(path) if n == "rules" or n.startswith("rules.") or n == "templates"}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}; use pbem.rules"
