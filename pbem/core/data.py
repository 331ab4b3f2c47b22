"""Game data files with provenance, and a game's corrections to them.

Tables, maps, rosters and scenarios live in TOML files under a ruleset's
package, so an owner of the printed game can correct them without code.
Every table that holds values says where they come from with a
``provenance`` key: ``rulebook`` (the text gives it), ``example`` (a worked
example implies it) or ``placeholder`` (chosen by us, to be replaced).
A table inherits its parent's provenance unless it sets its own; a value
with no provenance anywhere above it is an error at load time.

**Overrides.**  A game may carry override documents: TOML documents named like
the files of the ruleset's ``data/`` folder, laid over them.  The rules of an
override (checked by :func:`override_problems`, all problems at once):

- tables merge key by key, at any depth; a value given replaces the packaged one;
- a list is replaced whole (give every item; ``[[ports]]`` lists included), each
  item of the packaged items' kind, a table item shaped like the packaged ones;
- a key must exist in the packaged table, with a value of the same kind (an
  integer may stand for a number with a fraction, nothing else changes kind);
- except in a table of rows (below the top of the file, every value a table:
  ships, aircraft types, cards): there a new row may be added, with every key
  that all packaged rows have and only keys that some row has;
- every value of the override carries a provenance from the override itself
  (its own table or one above it), so a correction says where it comes from.

The merged data carries the packaged files' marks only (``provenance``, ``ref``,
``note``; an override's are left out, so a ruleset reads exactly the keys a
packaged table has).  The override documents, stored with the game, are the
record of what was corrected and on what authority.

Overrides reach the rulesets without I/O and without a new argument: the engine
runs a game's ruleset calls inside :func:`use_overrides`, and :func:`load_data`
then returns merged data.  A ruleset that caches its tables must cache them with
:func:`data_cache`, which keeps one result per active override.
"""
from __future__ import annotations

import copy
import functools
import hashlib
import json
import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ParamSpec, TypeVar

from .errors import PbemError, RulesetDefinitionError

PROVENANCES = ("rulebook", "example", "placeholder")
#: Keys that describe a table rather than hold a value.
META = ("provenance", "ref", "note")


def load_data(package: str, filename: str) -> dict[str, Any]:
    """Load ``filename`` from ``package`` and check its provenance marks; inside :func:`use_overrides`
    for this ruleset, the game's override of the file is laid over it.

    :raises RulesetDefinitionError: unreadable TOML, or a value without provenance.
    :raises DataOverrideError: the active override does not fit the file (see :func:`override_problems`).
    """
    data = packaged_file(package, filename)
    active = _ACTIVE.get()
    name = active.file_of(package, filename) if active else None
    if active is None or name is None:
        return data
    return apply_override(data, active.documents[name], name)


def packaged_file(package: str, filename: str) -> dict[str, Any]:
    """The file as packaged, checked, whatever override is active."""
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
    """Every TOML data file of a ruleset package as packaged, checked, by file name."""
    root = resources.files(package)
    out: dict[str, dict[str, Any]] = {}

    def walk(node, prefix=""):
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if child.is_dir() and not child.name.startswith(("_", ".")):
                walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith(".toml"):
                out[prefix + child.name] = packaged_file(package, prefix + child.name)
    walk(root)
    return out


# ---------------------------------------------------------------------------- overrides

class DataOverrideError(PbemError):
    """A game's data override does not fit the packaged data; the message lists every problem."""


@dataclass(frozen=True)
class Overrides:
    """One game's override documents for one ruleset: data file name (``tables.toml``) → document.

    ``package`` is the ruleset's package (``pbem.rules.bismarck``); the files are those of its
    ``data/`` folder.  ``key`` identifies the documents' content, so that games with the same
    corrections share cached tables.
    """

    package: str
    documents: Mapping[str, Mapping[str, Any]]
    key: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        text = json.dumps([self.package, self.documents], sort_keys=True, default=str)
        object.__setattr__(self, "key", hashlib.sha256(text.encode()).hexdigest())

    def file_of(self, package: str, filename: str) -> str | None:
        """The override's name for ``filename`` of ``package``, if this override has that file."""
        path = f"{package.replace('.', '/')}/{filename}"
        name = path.removeprefix(f"{self.package.replace('.', '/')}/data/")
        return name if name != path and name in self.documents else None


_ACTIVE: ContextVar[Overrides | None] = ContextVar("pbem_data_overrides", default=None)


@contextmanager
def use_overrides(overrides: Overrides | None) -> Iterator[None]:
    """Within the block, :func:`load_data` lays ``overrides`` over its ruleset's files (``None``: none).

    A context variable, so each thread (a daemon's, a test's) sees only its own game's overrides.
    """
    token = _ACTIVE.set(overrides)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def active_overrides() -> Overrides | None:
    return _ACTIVE.get()


P = ParamSpec("P")
R = TypeVar("R")


def data_cache(fn: Callable[P, R] | None = None, /, *, maxsize: int | None = None) -> Any:
    """``functools.cache`` (or ``lru_cache(maxsize)``) for anything computed from data files: one
    result per active override and arguments, so a game's corrections never leak into another game.

    Use it bare (``@data_cache``) on a ruleset's ``tables()`` loaders, and with ``maxsize`` on any
    cache of values derived from them (distances on a map, a drawn board).
    """
    def wrap(f: Callable[P, R]) -> Callable[P, R]:
        def uncached(_override: str | None, *args: Any, **kwargs: Any) -> R:
            return f(*args, **kwargs)

        lru = functools.lru_cache(maxsize=maxsize)(uncached)
        keyed: Callable[..., R] = lru

        @functools.wraps(f)
        def cached(*args: P.args, **kwargs: P.kwargs) -> R:
            active = _ACTIVE.get()
            return keyed(active.key if active else None, *args, **kwargs)

        cached.cache_clear = lru.cache_clear  # type: ignore[attr-defined]
        return cached

    return wrap(fn) if fn is not None else wrap


def apply_override(packaged: Mapping[str, Any], override: Mapping[str, Any], filename: str) -> dict[str, Any]:
    """``override`` laid over ``packaged`` (neither is changed).

    :raises DataOverrideError: listing every problem of :func:`override_problems`.
    """
    problems = override_problems(packaged, override, filename)
    if problems:
        raise DataOverrideError("\n".join(problems))
    return _merge(packaged, override)


def override_problems(packaged: Mapping[str, Any], override: Mapping[str, Any], filename: str) -> list[str]:
    """What is wrong with ``override`` as a correction of ``packaged`` (the rules are in the module's
    docstring), one line each, naming the file, the key and what is allowed; empty when it fits."""
    problems: list[str] = []
    _check_table(packaged, override, f"{filename}: ", "", problems)
    for where, _, prov in walk_provenance(override):
        if prov is None:
            problems.append(f"{filename}: {where or 'the file'} has no provenance: set provenance = one of "
                            f"{', '.join(PROVENANCES)} in its table or a table above it")
        elif prov not in PROVENANCES:
            problems.append(f"{filename}: {where}: provenance {prov!r} is not one of {', '.join(PROVENANCES)}")
    return problems


def _kind(value: Any) -> str:
    for types, name in ((bool, "true or false"), (int, "an integer"), (float, "a number"), (str, "text"),
                        (dict, "a table"), (list, "a list")):
        if isinstance(value, types):
            return name
    return f"a {type(value).__name__}"  # TOML's dates and times (datetime stays out of the pure core)


def _fits(packaged: Any, value: Any) -> bool:
    """Same kind of value; an integer may stand where the packaged value has a fraction (TOML's 2 for 2.0)."""
    return _kind(packaged) == _kind(value) or (_kind(packaged) == "a number" and _kind(value) == "an integer")


def _check_table(base: Mapping[str, Any], over: Any, file: str, where: str, problems: list[str]) -> None:
    if not isinstance(over, Mapping):
        problems.append(f"{file}{where}: expected a table, got {_kind(over)}")
        return
    rows = _rows(base) if where else None  # the top of a file is never a table of rows
    for key, value in over.items():
        at = f"{where}.{key}" if where else key
        if key in META:
            if key != "provenance" and not isinstance(value, str):  # provenance is checked on every value
                problems.append(f"{file}{at}: expected text, got {_kind(value)}")
        elif key in base:
            _check_value(base[key], value, file, at, problems)
        elif rows is not None:
            _check_row(rows, value, file, at, problems)
        else:
            known = ", ".join(k for k in base if k not in META) or "none"
            problems.append(f"{file}{at}: no such key in the packaged file (known here: {known})")


def _check_value(base: Any, value: Any, file: str, at: str, problems: list[str]) -> None:
    if isinstance(base, dict):
        _check_table(base, value, file, at, problems)
    elif not _fits(base, value):
        problems.append(f"{file}{at}: expected {_kind(base)}, got {_kind(value)} ({value!r})"[:300])
    elif isinstance(base, list):
        rows = _rows(dict(enumerate(base))) if base else None
        for i, item in enumerate(value):
            if rows is not None:
                _check_row(rows, item, file, f"{at}[{i}]", problems)
            elif base and not any(_fits(b, item) for b in base):
                problems.append(f"{file}{at}[{i}]: expected {_kind(base[0])}, got {_kind(item)} ({item!r})"[:300])


@dataclass(frozen=True)
class _Rows:
    """The shape of a table of rows: every key some row has (with an example value), and the keys all have."""

    shape: dict[str, Any]
    required: frozenset[str]


def _rows(table: Mapping[Any, Any]) -> _Rows | None:
    """The shape of ``table``'s rows, if it is a table of rows (every value, marks aside, a table)."""
    rows = [v for k, v in table.items() if k not in META]
    if not rows or not all(isinstance(r, dict) for r in rows):
        return None
    shape: dict[str, Any] = {}
    for row in rows:
        for key, value in row.items():
            if isinstance(value, dict) and isinstance(shape.get(key), dict):
                shape[key] = {**value, **shape[key]}  # sub-tables of rows: the union of their keys
            else:
                shape.setdefault(key, value)
    keys = [frozenset(k for k in row if k not in META) for row in rows]
    return _Rows(shape, frozenset.intersection(*keys))


def _check_row(rows: _Rows, value: Any, file: str, at: str, problems: list[str]) -> None:
    if isinstance(value, dict) and (missing := sorted(rows.required - set(value))):
        problems.append(f"{file}{at}: a new row needs every key the packaged rows all have; "
                        f"missing: {', '.join(missing)}")
    _check_table(rows.shape, value, file, at, problems)


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` laid over a copy of ``base``."""
    out = copy.deepcopy(dict(base))
    for key, value in over.items():
        if key in META:
            continue  # the packaged table keeps its marks (module docstring)
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            out[key] = _merge(base[key], value)
        else:
            out[key] = _bare(value)
    return out


def _bare(value: Any) -> Any:
    """A copy of a value the override brings whole, without its marks: a ruleset reading a row or an
    inline table (``Stats(**row["intact"])``) sees exactly the keys a packaged one has."""
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k not in META}
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value
