"""Game data files with provenance.

Tables, maps, rosters and scenarios live in TOML files under a ruleset's
package, so an owner of the printed game can correct them without code.
Every table that holds values says where they come from with a
``provenance`` key: ``rulebook`` (the text gives it), ``example`` (a worked
example implies it) or ``placeholder`` (chosen by us, to be replaced).
A table inherits its parent's provenance unless it sets its own; a value
with no provenance anywhere above it is an error at load time.
"""
from __future__ import annotations

import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

from .errors import RulesetDefinitionError

PROVENANCES = ("rulebook", "example", "placeholder")


def load_data(package: str, filename: str) -> dict[str, Any]:
    """Load ``filename`` from ``package`` and check its provenance marks.

    :raises RulesetDefinitionError: unreadable TOML, or a value without provenance.
    """
    path = resources.files(package).joinpath(filename)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RulesetDefinitionError(f"{package}/{filename}: {exc}") from exc
    for where, _, prov in walk_provenance(data):
        if prov is None:
            raise RulesetDefinitionError(f"{package}/{filename}: {where} has no provenance "
                                         f"(set provenance = one of {', '.join(PROVENANCES)})")
        if prov not in PROVENANCES:
            raise RulesetDefinitionError(f"{package}/{filename}: {where}: provenance {prov!r} "
                                         f"is not one of {', '.join(PROVENANCES)}")
    return data


def walk_provenance(node: Any, where: str = "", inherited: str | None = None
                    ) -> Iterator[tuple[str, Any, str | None]]:
    """Yield ``(path, value, provenance)`` for every scalar value in a data tree."""
    if isinstance(node, dict):
        prov = node.get("provenance", inherited)
        for key, value in node.items():
            if key in ("provenance", "ref", "note"):
                continue
            yield from walk_provenance(value, f"{where}.{key}" if where else key, prov)
    elif isinstance(node, list) and any(isinstance(v, dict) for v in node):
        for i, value in enumerate(node):
            yield from walk_provenance(value, f"{where}[{i}]", inherited)
    else:
        yield where, node, inherited


def provenance_counts(data: Any) -> dict[str, int]:
    """How many values of each provenance a data tree holds (for the README and `pbem rules`)."""
    counts = dict.fromkeys(PROVENANCES, 0)
    for _, _, prov in walk_provenance(data):
        if prov in counts:
            counts[prov] += 1
    return counts


def package_data(package: str) -> dict[str, dict[str, Any]]:
    """Every TOML data file of a ruleset package, loaded and checked, by file name."""
    root = resources.files(package)
    out: dict[str, dict[str, Any]] = {}

    def walk(node, prefix=""):
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if child.is_dir() and not child.name.startswith(("_", ".")):
                walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith(".toml"):
                out[prefix + child.name] = load_data(package, prefix + child.name)
    walk(root)
    return out
