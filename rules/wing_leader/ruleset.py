"""Wing Leader, the basic game (rules 1-12) on the ruleset kit: the ``RULESET`` object.

Advanced rules 13-15 are switched on per scenario (its ``advanced`` list); ``ADVANCED`` names those built, and
a scenario that names another is refused at setup rather than played without it.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.core.defaults import Assembled
from pbem.core.dice import Dice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.ruleset import Checked, Option, RulesetInfo, Scenario, View
from pbem.core.orders import OrderLine

from .campaign import CARRYOVER
from . import advanced, bomb_runs, flak, radio, seating, sky, surface, weapons
from .game import STEPS, first_step, seats
from .model import SIDES, WAITING, Squadron, State
from .parsing import ANSWERS, VERBS, whole
from .picture import picture
from .tables import scenario, scenarios
from .missions import escort_setup_problem
from .views import bot_orders, order_form, outcome, view

#: The advanced rules a scenario may switch on (those built).
ADVANCED: tuple[str, ...] = ("13.2", "13.3", "13.4.1", "13.4.2", "13.5.1", "13.5.2", "13.5.3", "13.5.4", "13.5.5",
                             "13.6", "13.8.1", "13.8.3",
                             "14.1", "14.1.1", "14.1.2", "14.1.3", "14.2", "14.2.1", "14.2.2", "14.2.3", "14.2.4",
                             "14.2.5", "14.2.6", "14.2.7", "14.2.8",
                             "15.2.1", "15.2.2", "15.3.1", "15.3.2", "15.4")   # rule 15 so far


def setup(name: str, options: Mapping[str, Any], dice: Dice) -> State:
    """The scenario's order of battle on the map [5.3]: every squadron facing left or right, Intercepts
    with their vectors, Intercepts Alert and the others Unalert [7.1]."""
    s = scenario(name)
    unknown = [r for r in s.get("advanced", ()) if r not in ADVANCED]
    if unknown:
        raise RulesetDefinitionError(f"scenario {name} needs advanced rules not built yet: {unknown}")
    squadrons = tuple(weapons.fitted(_squadron(row), row, s, lambda rule: advanced.uses(s.get("advanced", ()), rule))
                      for row in s["squadrons"])
    bad = [p for e in squadrons if e.mission == "escort"
           for p in [escort_setup_problem(e, [b for b in squadrons if b.side == e.side and b.mission == "bombing"])] if p]
    if bad:
        raise RulesetDefinitionError(f"scenario {name}: " + "; ".join(bad))
    squadrons, seat_names = seating.assign(squadrons, s.get("wings", ()), int(options.get("seats_per_side", 1)))
    try:   # surface and ground units [14.0]
        surfaces = tuple(surface.from_row(row, s["defender"]) for row in s.get("surfaces", ()))
        barrages = tuple(flak.Barrage(unit, sky.parse(point)) for unit, point in s.get("barrages", ()))
    except ValueError as e:
        raise RulesetDefinitionError(f"scenario {name}: {e}") from e
    ids = {u.id for u in surfaces}
    lost = [f"{q.id} bombs {q.target}, which is no surface unit of the scenario (15.2.1)" for q in squadrons
            if q.target and q.target not in ids]
    lost += [f"{q.id}: {p}" for q in squadrons if q.attack
             for p in [bomb_runs.attack_problem(q)] if p]
    if lost:
        raise RulesetDefinitionError(f"scenario {name}: " + "; ".join(lost))
    state = State(name, squadrons, STEPS.start("wings"), options=tuple(sorted(options.items())), seat_names=seat_names,
                  surfaces=surfaces, barrages=barrages)
    state = replace(state, flow=STEPS.start(first_step(state)))
    alerted = radio.alerted_by_radio(state)   # the first Tally Phase opens with radio alerts [9.4 a]
    return replace(state, squadrons=tuple(q.move(alert=True) if q.id in alerted else q for q in squadrons))


def _squadron(row: Mapping[str, Any]) -> Squadron:
    sq = Squadron(id=row["id"], side=row["side"], model=row["model"], mission=row["mission"],
                  at=sky.parse(row["at"]) if "at" in row else (0, 0), heading=sky.HEADINGS.index(row["heading"]),
                  alert=row["mission"] in ("intercept", "cap"), vector=sky.parse(row["vector"]) if "vector" in row else None,
                  flight=bool(row.get("flight", False)), quality=row.get("quality", "trained"),
                  bombs=row["mission"] == "bombing", experte=bool(row.get("experte", False)),
                  target=str(row.get("target", "")), attack=str(row.get("attack", "")))
    arrive = row.get("arrive")
    if not arrive:
        return sq
    return sq.move(status=WAITING, arrives=int(arrive["turn"]), edge=arrive.get("edge", ""),
                   altitudes=tuple(arrive.get("altitudes", ())), trail=arrive.get("trail", ""))


def check_orders(v: View, seat: str, lines: Sequence[OrderLine]) -> Checked:
    if v["asking"]:
        return ANSWERS.check_lines(v, seat, lines)
    return VERBS.check_lines(v, seat, lines, whole=whole)


INFO = RulesetInfo(
    name="wing_leader", title="Wing Leader (basic game, rules 1-12; the advanced rules 13-15 as a scenario switches them on)", sides=SIDES,
    scenarios=tuple(Scenario(n, scenarios()[n]["title"], scenarios()[n].get("note", ""))
                    for n in scenarios() if isinstance(scenarios()[n], dict)),
    options=(Option("cadence", "standard", "windows a turn: standard = the Raider's tally, the Defender's tally, "
                    "then movement; fast = both tallies, then movement; single = everything in one message",
                    ("standard", "fast", "single")),
             Option("seats_per_side", 1, "players a side, each commanding whole wings (a squadron in no wing is a "
                    "wing of its own); a side with fewer wings gets fewer seats (9.1)", seating.SEAT_COUNTS),
             Option("visibility", "open", "open = the rules hide nothing (5.2); fog = a side sees only the enemy "
                    "squadrons in its sighting range and line of sight, and the Defender's ground control gives radar "
                    "plots of the rest (a house rule, see NOTES.md)", ("open", "fog")),
             Option("escape_reading", "rule", "11.0: escape when the modified roll is below the range (rule) or the "
                    "natural roll, as the worked example reads (example)", ("rule", "example")),
             Option("tally_chains", "breadth", "6.1.2: of squadrons tallying one target, all move before the "
                    "followers of any of them (breadth) or each one's own followers right after it (depth)",
                    ("breadth", "depth")),
             Option("jet_sweeps", "four", "9.2.3, 8.2: a jet on Sweep flying straight on covers 4 squares, as jets "
                    "always have 4 MP (four), or 2 as other sweeps (fixed)", ("four", "fixed")),
             Option("split_count", "together", "9.3.1: a flight's share of losses counts its straggler too "
                    "(together) or only the losses (losses), against a flight's Max Losses", ("together", "losses")),
             Option("escort_again", "former", "9.2.2: in the Administrative Phase only former escorts on Sweep "
                    "meeting the escort requirements are marked Escort (former), or any Sweep squadron (any)",
                    ("former", "any")),
             Option("escorts_home", "formation", "9.2.2: when a bomber escapes, the escorts of its bomber formation "
                    "go home once no bomber of that formation is left (formation), or only once no bomber of the side "
                    "is left (side)", ("formation", "side")),
             Option("setup", "scenario", "5.3: the scenario places everything, vectors and escorts included "
                    "(scenario), or, before the first turn, the side the scenario names sets up first and the other "
                    "after it: each Intercept's vector anywhere on the map and each escort's square within the escort "
                    "rules (players)", ("scenario", "players"))),
    rulebook="Wing Leader rules v2 (Russian translation), seeds/000_081fe1e0bed44cb6.txt")

RULESET = Assembled(info=INFO, steps=STEPS, setup=setup, view=view, order_form=order_form,
                    check_orders=check_orders, outcome=outcome, bot_orders=bot_orders, state_type=State, seats=seats,
                    picture=picture, carryover=CARRYOVER)
