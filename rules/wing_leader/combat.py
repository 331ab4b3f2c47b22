"""Air combat [10]: who fights whom, the Air Combat Table, hits, their confirmation, cohesion and ammunition.

Pure functions on frozen squadrons; the game (``game.py``) rolls the dice, tells the players and puts the
results back.  The Air Combat and Cohesion tables are placeholders (GAP-10): see ``data/tables.toml``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .model import Squadron
from .sky import front_squares
from .tables import card, tables

SPEED, TURN = "speed", "turn"


@dataclass(frozen=True)
class Fight:
    """One air combat: the squadrons linked by tallies in one square [10.2], by side."""

    square: tuple[int, int]
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]

    def dump(self) -> dict[str, list[Any]]:
        return {"square": list(self.square), "attackers": list(self.attackers), "defenders": list(self.defenders)}

    @classmethod
    def load(cls, d: dict[str, list[Any]]) -> Fight:
        return cls((d["square"][0], d["square"][1]), tuple(d["attackers"]), tuple(d["defenders"]))


def fights(squadrons: Sequence[Squadron], moved: Sequence[str],
           tie: Callable[[], str] = lambda: "") -> list[Fight]:
    """The air combats of a Combat Phase [10.0, 10.1, 10.2]: each group of squadrons in one square linked by
    tallies (a pursuer in its target's square) is one combat.  The side with bombers defends [10.1.1];
    between fighters the pursuer attacks; when both sides pursue, the side of the squadron that moved last
    in the Movement Phase attacks [10.1.2]; in a dogfight the side with the best Basic Turn, ``tie()``
    deciding equal ones [10.8.1]."""
    by_id = {s.id: s for s in squadrons if s.on_map}
    links = _tally_links(by_id)
    return [_fight(by_id, sorted(g), links, moved, tie) for g in sorted(_linked_groups(links), key=sorted)]


def _tally_links(by_id: Mapping[str, Squadron]) -> list[tuple[str, str]]:
    """(pursuer, target) for every fighter in good order in the square of the squadron it tallies."""
    return [(s.id, s.tally) for s in by_id.values()
            if s.tally in by_id and by_id[s.tally].at == s.at and not s.broken and s.fighter]


def _linked_groups(links: Sequence[tuple[str, str]]) -> list[set[str]]:
    """The squadrons joined by chains of tallies, each chain merged into one group."""
    groups: list[set[str]] = []
    for a, b in links:
        touching = [g for g in groups if a in g or b in g]
        merged = {a, b}.union(*touching)
        groups = [g for g in groups if g not in touching] + [merged]
    return groups


def _fight(by_id: Mapping[str, Squadron], members: list[str], links: Sequence[tuple[str, str]],
           moved: Sequence[str], tie: Callable[[], str]) -> Fight:
    """One group's combat, its members split into the attacking side and the rest."""
    fighting = [by_id[m] for m in members]
    attacker_side = (_dogfight_attacker(fighting, tie) if any(s.dogfight for s in fighting)
                     else _attacking_side(fighting, [a for a, _ in links if a in members], moved))
    return Fight(by_id[members[0]].at,
                 tuple(m for m in members if by_id[m].side == attacker_side),
                 tuple(m for m in members if by_id[m].side != attacker_side))


def _dogfight_attacker(members: list[Squadron], tie: Callable[[], str]) -> str:
    best = {side: max(s.basic()[1] for s in members if s.side == side) for side in {s.side for s in members}}
    top = max(best.values())
    leaders = sorted(side for side, turn in best.items() if turn == top)
    return leaders[0] if len(leaders) == 1 else tie()


def _attacking_side(members: list[Squadron], pursuers: list[str], moved: Sequence[str]) -> str:
    bomber_sides = {s.side for s in members if not s.fighter}
    if bomber_sides:
        return next(s.side for s in members if s.side not in bomber_sides)
    sides = {s.side for s in members if s.id in pursuers}
    if len(sides) == 1:
        return sides.pop()
    last = max(pursuers, key=lambda p: moved.index(p) if p in moved else -1)
    return next(s.side for s in members if s.id == last)


def head_on(attacker: Squadron, target: Squadron) -> bool:
    """A head-on attack [10.3]: the attacker entered its target's square from one of the target's three
    front squares (or the defender entered the attacker's square from one of the attacker's)."""
    return (attacker.entered_from is not None and attacker.entered_from in front_squares(target.at, target.heading)) \
        or (target.entered_from is not None and target.entered_from in front_squares(attacker.at, attacker.heading))


def rating(lead: Squadron, side: Sequence[Squadron], kind: str, less: int = 0) -> int:
    """A side's combat value [10.2, 10.5]: the lead's Basic Speed or Turn, +1 for every other armed fighter
    (a broken one cannot attack, so it adds nothing: our reading of 10.7.1); ``less`` is added to the lead's
    value (a single aircraft's -1, 13.6)."""
    speed, turn = lead.basic()
    speed, turn = speed + less, turn + less
    extra = sum(1 for s in side if s.id != lead.id and s.fighter and s.armed and not s.broken)
    return (speed if kind == SPEED else turn) + extra * tables()["air_combat_modifiers"]["extra_fighter"]


def column(own: int, other: int) -> int:
    """The Air Combat Table column: own value minus the enemy's, held within -4..+4 [10.5]."""
    limit = tables()["air_combat_table"]["max_column"]
    return max(-limit, min(limit, own - other))


def hits(col: int, modified_roll: int) -> int:
    """Hits from the (placeholder) Air Combat Table [10.5.1]: thresholds reached by roll + column."""
    return sum(1 for t in tables()["air_combat_table"]["thresholds"] if modified_roll + col >= t)


def defence(defenders: Sequence[Squadron], kind: str, extra: Mapping[str, int] | None = None) -> int:
    """The defending side's best (never summed) defence rating, +2 in a turning fight [10.5.2]; ``extra``
    raises some squadrons' ratings (a heavy bomber group, 13.5.5)."""
    best = max((card(s.model)["defence"] + (extra or {}).get(s.id, 0) for s in defenders), default=0)
    return best + tables()["air_combat_modifiers"]["turning_defence_bonus"] if best and kind == TURN else best


def allocate(count: int, targets: Sequence[str]) -> list[str]:
    """Hits spread so that every enemy squadron takes one before any takes a second [10.2.2]."""
    return [targets[i % len(targets)] for i in range(count)] if targets else []


def firepower(shooter: Squadron, experte_fires: bool = True) -> int:
    """The firepower a hitting squadron confirms with: its card's, +1 with an Experte [10.6] (``experte_fires``:
    False when the Experte is flipped into the Wing Leader marker and option ``leader_experte = leads``), +1 with
    a gun pod [13.5.6]."""
    return (shooter.firepower or 0) + (1 if shooter.experte and experte_fires else 0) + \
        (1 if shooter.gun_pod and shooter.fighter else 0)


def crew_loss(sq: Squadron, losses_now: int, cohesion_natural: int, leads_wing: bool = False) -> bool:
    """The Experte or Wing Leader marker is lost when the squadron took a loss in the combat and rolled a
    natural 2 for cohesion [10.7.3]; an Experte in the leader's squadron is one marker with it [5.2.1]."""
    return (sq.experte or leads_wing) and losses_now >= 1 and cohesion_natural == 2


def confirm(natural: int, firepower: int, target: Squadron, head_on_attack: bool) -> str:
    """One hit's confirmation roll [10.6]: d6 + firepower (+1 against an "h" bomber head-on) against the
    target's Protection: "loss" above it, "straggler" equal, "none" below; a natural 6 always a loss, a
    natural 1 never.  With two Protection values a roll above either is a loss (see NOTES.md)."""
    d = tables()["damage"]
    if natural == d["natural_loss"]:
        return "loss"
    if natural == d["natural_miss"]:
        return "none"
    c = card(target.model)
    total = natural + firepower + (1 if head_on_attack and c.get("head_on_weak") else 0)
    protection = c["protection"]
    if any(total > p for p in protection):
        return "loss"
    return "straggler" if total in protection else "none"


def take(target: Squadron, result: str) -> Squadron:
    """A confirmed result on the Wing Display [10.6, 10.6.1]: a second straggler turns into a loss."""
    if result == "loss" or (result == "straggler" and target.straggler):
        return target.move(losses=target.losses + 1, straggler=False if result == "straggler" else target.straggler)
    if result == "straggler":
        return target.move(straggler=True)
    return target


def cohesion_modifier(sq: Squadron, losses_now: int, weather: int) -> int:
    """Cohesion roll modifiers (placeholder values, 10.7): losses in this combat, ammunition (fighters only,
    10.7.2), quality, and the combat square's weather [4.7]."""
    t = tables()["cohesion"]
    mod = losses_now * t["per_loss"] - weather
    if sq.fighter:
        mod += (0, t["low_ammo"], t["depleted"])[sq.ammo]
    return mod + t.get(sq.quality, 0)


def disruption(sq: Squadron, modified_roll: int) -> int:
    """Disruption levels from the (placeholder) Cohesion Table: Fighter or Bomber column by mission [10.7]."""
    two, one = tables()["cohesion"]["fighter" if sq.fighter else "bomber"]
    return 2 if modified_roll <= two else 1 if modified_roll <= one else 0


def disrupt(sq: Squadron, levels: int) -> Squadron:
    """Disruption accumulates; a flight breaks at 1 level, a squadron at 2 [10.7]; broken stays broken."""
    if sq.broken or not levels:
        return sq
    d = tables()["damage"]
    total = sq.disruption + levels
    return sq.move(disruption=total, broken=total >= (d["flight_breaks_at"] if sq.flight else d["squadron_breaks_at"]))


def broken_effects(sq: Squadron) -> Squadron:
    """A broken fighter drops its tally and mission, leaves any dogfight and returns to base [10.7.1]; a
    bomber flies on."""
    return sq.move(tally="", mission="rtb", vector=None, dogfight=False) if sq.broken and sq.fighter else sq


def spend_ammo(sq: Squadron) -> Squadron:
    """Low Ammo after a fighter's first combat, Depleted after its second [10.7.2]; bombers never."""
    return sq.move(ammo=min(2, sq.ammo + 1)) if sq.fighter else sq
