"""What an attack would be: band, the defence the target would use, the dice and P(0/1/2/3 hits)
(the order form and the acknowledgement show it; cover and face-down markers are not counted)."""
from __future__ import annotations

from collections.abc import Iterable

from pbem.core.texts import t_
from . import combat
from .board import hex_name
from .los import aircraft_front, enfilade
from .model import Unit


def attack_preview(attacker: Unit, target: Unit, friends: Iterable[Unit], advanced: bool = False) -> str:
    band = combat.band(attacker.hex, target.hex) or "close"
    flank = enfilade(attacker, target, friends, advanced=advanced)
    mod = combat.die_modifier(attacker, target, enfilade=flank,
                              aircraft_front=aircraft_front(target, attacker.hex))
    side = combat.facing_defence(target, attacker.hex, advanced=advanced)
    d = combat.defence(target, side)
    dice = attacker.stats.dice(target.stats.kind, band)
    p = combat.hit_chances(dice, mod, d)
    return t_("%(target)s (%(name)s) at %(hex)s: %(band)s, %(side)s defence %(d)s, %(dice)s dice%(mod)s, "
              "P(0/1/2/3 hits) = %(p)s", target=target.id, name=target.stats.name, hex=hex_name(target.hex),
              band=combat.band_word(band), side=combat.side_word(side), d=d, dice=dice, mod=f" {mod:+d}" if mod else "",
              p="/".join(f"{x:.2f}" for x in p))
