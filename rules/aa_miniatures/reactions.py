"""Defensive fire (L340-L384) and overwatch fire (L212-L240): who may fire at a unit stepping from
hex A into hex B, where, and with what result.  Pure: the dice come in as a function.

Provocation (L350-L354): A and B both adjacent to (or the hex of) the firer; a soldier or gun never
provokes a vehicle.  Overwatch: B lies on the firer's row (one hex wide, in its direction, up to its
range against the mover, L220) and is in sight.  Either fire is an ordinary attack (L364) against
the mover placed in the hex fired at, facing the step A -> B (L374-L378), except that any hit only
Disrupts, at once, and stops the move (L346, L364); it adds no face-down marker (digest 4.10).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pbem.core.texts import t_
from pbem.core.hexgrid import Hex, direction, distance, step

from . import combat
from .board import Board
from .los import clear, cover_needed, enfilade
from .model import Unit
from .tables import VEHICLE

DF_RULE = t_("Defensive fire, L340-L384")
OW_RULE = t_("Overwatch, L212-L240")


@dataclass(frozen=True)
class Shot:
    """One reaction fire: the firer, the hex fired at, and why (``df`` or ``overwatch``)."""

    firer: Unit
    at: Hex
    why: str


def provokes(mover: Unit, firer: Unit, a: Hex, b: Hex) -> bool:
    """Moving A -> B provokes ``firer`` when both hexes are adjacent to it or its own (L350-L352)."""
    if mover.stats.kind != VEHICLE and firer.stats.kind == VEHICLE:
        return False
    return distance(a, firer.hex) <= 1 and distance(b, firer.hex) <= 1


def can_react(firer: Unit, used: Iterable[str]) -> bool:
    """A ground unit, not Disrupted (L302), that has not fired defensively this phase (L356)."""
    return firer.stats.ground and not firer.disrupted and firer.id not in used


def on_row(board: Board, firer: Unit, mover: Unit, h: Hex, *, strict: bool = False) -> bool:
    """``h`` is on the overwatch row of ``firer``, within its range against ``mover``, in sight.  The
    unit's own hex is on the row only when ``tables.toml [readings] ow_row_own_hex`` (digest G23)."""
    if firer.overwatch is None or (h == firer.hex and not combat.tables()["readings"]["ow_row_own_hex"]):
        return False
    n = distance(firer.hex, h)
    if step(firer.hex, firer.overwatch, n) != h:
        return False
    band = combat.band(firer.hex, h)
    return (band is not None and firer.stats.dice(mover.stats.kind, band) > 0
            and clear(board, firer.hex, h, strict=strict))


def placed(mover: Unit, a: Hex, b: Hex, at: Hex) -> Unit:
    """The mover as it stands when fired at in ``at`` (A or B): facing the step A -> B (L374-L378)."""
    d = direction(a, b)
    return mover.but(hex=at, facing=mover.facing if d is None else d)


def chance(board: Board, firer: Unit, target: Unit, friends: Iterable[Unit], advanced: bool = False) -> float:
    """P(at least one hit) of a reaction fire at ``target`` where it stands (cover ignored)."""
    band = combat.band(firer.hex, target.hex)
    if band is None:
        return 0.0
    dice = firer.stats.dice(target.stats.kind, band)
    mod = combat.die_modifier(firer, target, enfilade=enfilade(firer, target, friends, advanced=advanced))
    side = combat.facing_defence(target, firer.hex, advanced=advanced)
    return 1 - combat.hit_chances(dice, mod, combat.defence(target, side))[0]


def best_hex(board: Board, firer: Unit, mover: Unit, a: Hex, b: Hex, friends: Iterable[Unit],
             advanced: bool = False) -> Hex:
    """The hex (left or entered) where a defensive fire is likelier to hit (L366-L372); ties: entered."""
    team = list(friends)
    return max((b, a), key=lambda h: (chance(board, firer, placed(mover, a, b, h), team, advanced) if
                                      distance(firer.hex, h) <= 1 else -1.0, h == b))


def fire(board: Board, shot: Shot, target: Unit, friends: Iterable[Unit], advanced: bool,
         roll: Callable[[str], int]) -> tuple[bool, str]:
    """Resolve one reaction fire: (disrupted?, the text of what happened)."""
    firer = shot.firer
    band = combat.band(firer.hex, target.hex) or "close"
    dice = firer.stats.dice(target.stats.kind, band)
    mod = combat.die_modifier(firer, target, enfilade=enfilade(firer, target, friends, advanced=advanced))
    side = combat.facing_defence(target, firer.hex, advanced=advanced)
    d = combat.defence(target, side)
    faces = [roll(t_("%(unit)s fires at %(target)s", unit=firer.id, target=target.id)) for _ in range(dice)]
    s = combat.successes(faces, mod)
    hits = combat.hits_for(s, d)
    each = t_(" (%(mod)s each)", mod=f"{mod:+d}") if mod else ""
    rolled = dict(dice=dice, rolled=",".join(map(str, sorted(faces, reverse=True))), each=each, s=s,
                  side=combat.side_word(side), d=d)
    if not hits:
        return False, t_("%(dice)s dice %(rolled)s%(each)s, %(s)s against %(side)s defence %(d)s: no effect", **rolled)
    need = cover_needed(board, target, firer.hex)
    if need and combat.tables()["readings"]["cover_against_reaction"] == "cancels":
        same = combat.tables()["cover"]["same_hex"] if firer.hex == target.hex else 0
        c = roll(t_("%(unit)s cover roll", unit=target.id))
        if c + same >= need:
            return False, t_("%(dice)s dice %(rolled)s%(each)s, %(s)s against %(side)s defence %(d)s: a hit, "
                                 "but cover roll %(c)s saves it", c=c, **rolled)
    return True, t_("%(dice)s dice %(rolled)s%(each)s, %(s)s against %(side)s defence %(d)s: Disrupted", **rolled)
