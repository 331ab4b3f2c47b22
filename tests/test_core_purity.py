"""The pure core and the rulesets import nothing that does I/O (style P1)."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DENY = {"sqlmodel", "sqlalchemy", "jinja2", "click", "cryptography", "apscheduler", "smtplib", "email",
        "logging", "random", "time", "datetime", "socket", "subprocess", "os", "PIL", "aiosmtpd", "pbem.store",
        "pbem.engine", "pbem.mail"}
PURE = sorted([*ROOT.joinpath("pbem/core").rglob("*.py"), *ROOT.joinpath("rules").rglob("*.py")])


def imported(path: pathlib.Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_no_io(path):
    """A rules or core module that imports an I/O library fails here, naming it."""
    bad = {n for n in imported(path) if n in DENY or n.split(".")[0] in DENY}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


ALL_PY = sorted(p for d in ("pbem", "rules", "tests", "benchmarks") for p in ROOT.joinpath(d).rglob("*.py"))


@pytest.mark.parametrize("path", ALL_PY, ids=lambda p: str(p.relative_to(ROOT)))
def test_rulesets_are_imported_as_pbem_rules(path):
    """`rules` is installed as pbem.rules: a top-level `import rules` works only from the repository root."""
    bad = {n for n in imported(path) if n == "rules" or n.startswith("rules.") or n == "templates"}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}; use pbem.rules"
