"""A game's corrections to its ruleset's data files: read and checked once, when the game is created.

A box owner who finds a misprint in a table, a map or a roster need not touch the installed
package: ``pbem game new … --data DIR`` points at a folder of TOML files named like the files of
the ruleset's ``data/`` folder (``tables.toml``, ``units.toml``), each holding only what it
corrects, with provenance marks.  The folder is read and checked here, before the game exists (a
bad file rejects the game, naming every problem); the documents are then stored with the game
(``game.data_json``), so editing the folder later changes nothing in a running game, and the game
replays the same on any machine.  What an override may say is :mod:`pbem.core.data`'s to decide.

While the engine plays a game, :func:`bind` gives it the game's ruleset with every call made
inside :func:`pbem.core.data.use_overrides`; a game without corrections gets the ruleset itself.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, cast

from pbem.core.data import Overrides, override_problems, packaged_file, use_overrides
from pbem.core.errors import PbemError, RulesetDefinitionError
from pbem.core.ruleset import Ruleset
from pbem.store.models import Game


class GameDataError(PbemError):
    """A folder of data corrections cannot be used for a game; the message names every problem."""


def data_package(ruleset_name: str) -> str:
    """The package whose ``data/`` folder a game of ``ruleset_name`` may correct."""
    package = f"pbem.rules.{ruleset_name}"
    try:
        found = importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        found = False
    if not found or not packaged_names(package):
        raise GameDataError(f"ruleset {ruleset_name!r} has no data files that a game could correct")
    return package


def packaged_names(package: str) -> list[str]:
    """The data files of a ruleset package, by their names in its ``data/`` folder."""
    folder = resources.files(package).joinpath("data")
    if not folder.is_dir():
        return []
    return sorted(f.name for f in folder.iterdir() if f.name.endswith(".toml"))


def read_folder(folder: str | Path, ruleset_name: str) -> Overrides:
    """The corrections in ``folder`` for a game of ``ruleset_name``, checked against the packaged files.

    Every ``*.toml`` file in the folder must be named like a packaged data file; other files (an
    owner's notes) and sub-folders are not read.

    :raises GameDataError: listing every problem: an unknown file name, unreadable TOML, and each
        problem :func:`pbem.core.data.override_problems` finds.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise GameDataError(f"{folder} is not a folder")
    package = data_package(ruleset_name)
    known = packaged_names(package)
    documents: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for path in sorted(folder.glob("*.toml")):
        if path.name not in known:
            problems.append(f"{path.name}: no such data file in {ruleset_name} (its files: {', '.join(known)})")
            continue
        try:
            document = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            problems.append(f"{path.name}: cannot be read: {exc}")
            continue
        try:
            packaged = packaged_file(package, f"data/{path.name}")
        except RulesetDefinitionError as exc:  # the installed package itself is broken
            raise GameDataError(str(exc)) from exc
        problems += override_problems(packaged, document, path.name)
        documents[path.name] = document
    if problems:
        raise GameDataError(f"the data corrections in {folder} do not fit {ruleset_name}:\n  "
                            + "\n  ".join(problems))
    if not documents:
        raise GameDataError(f"{folder} holds no data file of {ruleset_name} (its files: {', '.join(known)})")
    return Overrides(package, documents)


def documents_json(overrides: Overrides | None) -> str:
    """The text kept in ``game.data_json``: the corrections' documents, or ``{}`` for none."""
    return json.dumps(dict(overrides.documents), sort_keys=True) if overrides else "{}"


def overrides_of(game: Game) -> Overrides | None:
    """The corrections stored with ``game``, or None for a game played from the packaged data."""
    documents = json.loads(game.data_json or "{}")
    return Overrides(f"pbem.rules.{game.ruleset}", documents) if documents else None


def bind(ruleset: Ruleset, overrides: Overrides | None) -> Ruleset:
    """``ruleset`` with each call made under ``overrides``; the ruleset itself when there are none."""
    return ruleset if overrides is None else cast(Ruleset, _Bound(ruleset, overrides))


class _Bound:
    """A ruleset whose every method runs inside :func:`use_overrides` (its attributes pass through)."""

    def __init__(self, ruleset: Ruleset, overrides: Overrides) -> None:
        self._ruleset, self._overrides = ruleset, overrides

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._ruleset, name)
        if not callable(attr):
            return attr
        overrides = self._overrides

        @functools.wraps(attr)
        def under_overrides(*args: Any, **kwargs: Any) -> Any:
            with use_overrides(overrides):
                return attr(*args, **kwargs)

        return under_overrides

