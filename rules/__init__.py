"""Rulesets hosted by pbem: one package each, listed here by hand (no registration by import side effect)."""
from __future__ import annotations

from pbem.core.errors import UnknownRulesetError
from pbem.core.ruleset import Ruleset

from . import aa_miniatures, bismarck, lew_morski, sky_ww2, wing_leader

RULESETS: tuple[Ruleset, ...] = (bismarck.RULESET, lew_morski.RULESET, sky_ww2.RULESET,
                                  aa_miniatures.RULESET, wing_leader.RULESET)


def find_ruleset(name: str, extra: tuple[Ruleset, ...] = ()) -> Ruleset:
    """The ruleset called ``name``.

    :raises UnknownRulesetError: naming the rulesets there are.
    """
    for ruleset in (*RULESETS, *extra):
        if ruleset.info.name == name:
            return ruleset
    known = ", ".join(r.info.name for r in (*RULESETS, *extra)) or "none"
    raise UnknownRulesetError(f"unknown ruleset {name!r} (known: {known})")
