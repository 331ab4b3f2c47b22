"""Rulesets hosted by pbem: one package each, listed here by hand (no registration by import side effect).

Each package is imported when it is first needed: ``find_ruleset(name)`` imports that ruleset alone,
and ``RULESETS`` (every one, in this order) imports them all when it is first read.  A process taking
one message in (`pbem ingest -`) then loads the one ruleset its game is played under.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from pbem.core.errors import UnknownRulesetError
from pbem.core.ruleset import Ruleset

#: The hosted rulesets, by package name, in the order RULESETS lists them.
NAMES: tuple[str, ...] = ("bismarck", "lew_morski", "sky_ww2", "aa_miniatures", "wing_leader")

if TYPE_CHECKING:
    RULESETS: tuple[Ruleset, ...]


def _load(name: str) -> Ruleset:
    return import_module(f"{__name__}.{name}").RULESET


def __getattr__(attr: str) -> object:
    if attr == "RULESETS":
        found = tuple(_load(name) for name in NAMES)
        globals()["RULESETS"] = found  # read once; a test may replace it (monkeypatch) like any attribute
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def find_ruleset(name: str, extra: tuple[Ruleset, ...] = ()) -> Ruleset:
    """The ruleset called ``name``.

    :raises UnknownRulesetError: naming the rulesets there are.
    """
    if "RULESETS" not in globals():  # a package's name is its ruleset's name: load that one only
        if name in NAMES:
            return _load(name)
        for ruleset in extra:
            if ruleset.info.name == name:
                return ruleset
    every = globals()["RULESETS"] if "RULESETS" in globals() else __getattr__("RULESETS")
    for ruleset in (*every, *extra):
        if ruleset.info.name == name:
            return ruleset
    known = ", ".join(r.info.name for r in (*every, *extra)) or "none"
    raise UnknownRulesetError(f"unknown ruleset {name!r} (known: {known})")
