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
from . import advanced, bomb_forms, bomb_runs, flak, loads, radio, readings, rocket_fighter, seating, sky, surface, weapons
from .game import STEPS, first_step, seats
from .model import SIDES, WAITING, Squadron, State
from .orders import Attack
from .parsing import ANSWERS, VERBS, position, whole
from .picture import picture
from .tables import scenario, scenarios
from .missions import escort_setup_problem
from .views import bot_orders, order_form, outcome, view

#: The advanced rules a scenario may switch on (those built).
ADVANCED: tuple[str, ...] = ("13.1", "13.2", "13.3", "13.4.1", "13.4.2", "13.4.3", "13.5.1", "13.5.2", "13.5.3", "13.5.4", "13.5.5",
                             "13.5.6", "13.6", "13.7", "13.7.1", "13.8.1", "13.8.2", "13.8.3",
                             "14.1", "14.1.1", "14.1.2", "14.1.3", "14.2", "14.2.1", "14.2.2", "14.2.3", "14.2.4",
                             "14.2.5", "14.2.6", "14.2.7", "14.2.8", "14.3",
                             "15.1", "15.2.1", "15.2.2", "15.2.4", "15.3.1", "15.3.2", "15.3.3", "15.3.4", "15.3.5",
                             "15.3.6", "15.3.7", "15.4", "15.5.1", "15.5.2", "15.5.3", "15.5.4")   # rule 15 so far


def setup(name: str, options: Mapping[str, Any], dice: Dice) -> State:
    """The scenario's order of battle on the map [5.3]: every squadron facing left or right, Intercepts
    with their vectors, Intercepts Alert and the others Unalert [7.1]."""
    s = scenario(name)
    unknown = [r for r in s.get("advanced", ()) if r not in ADVANCED]
    if unknown:
        raise RulesetDefinitionError(f"scenario {name} needs advanced rules not built yet: {unknown}")
    uses = lambda rule: advanced.uses(s.get("advanced", ()), rule)   # noqa: E731
    squadrons = tuple(rocket_fighter.fitted(weapons.fitted(_squadron(row), row, s, uses), uses)
                      for row in s["squadrons"])
    bad = [p for e in squadrons if e.mission == "escort"
           for p in [escort_setup_problem(e, [b for b in squadrons if b.side == e.side and b.mission == "bombing"])] if p]
    if bad:
        raise RulesetDefinitionError(f"scenario {name}: " + "; ".join(bad))
    squadrons, seat_names = seating.assign(squadrons, s.get("wings", ()), int(options.get("seats_per_side", 1)))
    try:   # surface and ground units [14.0]
        surfaces = tuple(surface.from_row(row, s["defender"]) for row in s.get("surfaces", ()))
        barrages = tuple(flak.Barrage(unit, sky.parse(point)) for unit, point in s.get("barrages", ()))
        balloons = tuple(surface.balloon_from_row(row, s["defender"]) for row in s.get("balloons", ()))
    except ValueError as e:
        raise RulesetDefinitionError(f"scenario {name}: {e}") from e
    ids = {u.id for u in surfaces}
    lost = [f"{q.id} bombs {q.target}, which is no surface unit of the scenario (15.2.1)" for q in squadrons
            if q.target and q.target not in ids]
    lost += [f"{q.id} waits on {q.base}, which is no surface unit of the scenario (13.7)" for q in squadrons
             if q.base and q.base not in ids]
    lost += [f"{q.id} takes off from {q.base}: the scenario does not list 13.7" for q in squadrons
             if q.base and not uses("13.7")]
    squadrons = tuple(q.move(at=next(u.at for u in surfaces if u.id == q.base)) if q.base in ids else q
                      for q in squadrons)
    state = State(name, squadrons, STEPS.start("wings"), options=tuple(sorted(options.items())), seat_names=seat_names,
                  surfaces=surfaces, barrages=barrages, balloons=balloons)
    if balloons and not state.uses("14.3"):
        lost.append("barrage balloons need rule 14.3 in the scenario's advanced list")
    lost += [f"{q.id}: {p}" for q in squadrons if q.target and not lost for p in [_load_problem(state, q)
                                                                                  or bomb_runs.problem_in(state, q)] if p]
    if lost:
        raise RulesetDefinitionError(f"scenario {name}: " + "; ".join(lost))
    state = replace(state, flow=STEPS.start(first_step(state)))
    alerted = radio.alerted_by_radio(state)   # the first Tally Phase opens with radio alerts [9.4 a]
    return replace(state, squadrons=tuple(q.move(alert=True) if q.id in alerted else q for q in squadrons))


def _load_problem(state: State, sq: Squadron) -> str:
    """A scenario's load other than ordinary bombs needs rule 15.1 and the card's ability [15.1, 3.3]."""
    if not sq.load:
        return ""
    if not state.uses("15.1"):
        return "15.1: a load other than bombs needs rule 15.1 in the scenario's advanced list"
    return "" if sq.load == "none" else loads.load_problem(sq.model, sq.load)


def _squadron(row: Mapping[str, Any]) -> Squadron:
    sq = Squadron(id=row["id"], side=row["side"], model=row["model"], mission=row["mission"],
                  at=sky.parse(row["at"]) if "at" in row else (0, 0), heading=sky.HEADINGS.index(row.get("heading", "E")),
                  alert=row["mission"] in ("intercept", "cap"), vector=sky.parse(row["vector"]) if "vector" in row else None,
                  flight=bool(row.get("flight", False)), quality=row.get("quality", "trained"),
                  bombs=row["mission"] == "bombing" and row.get("load") != "none", experte=bool(row.get("experte", False)),
                  target=str(row.get("target", "")), attack=str(row.get("attack", "")),
                  load="" if row.get("load", "bombs") in ("bombs", "none") else str(row["load"]))
    if row.get("base"):   # on an airfield or carrier until it takes off [13.7]
        return sq.move(status=WAITING, base=str(row["base"]), arrives=int(row.get("arrive", {}).get("turn", 1)))
    arrive = row.get("arrive")
    if not arrive:
        return sq
    return sq.move(status=WAITING, arrives=int(arrive["turn"]), edge=arrive.get("edge", ""),
                   altitudes=tuple(arrive.get("altitudes", ())), trail=arrive.get("trail", ""))


def check_orders(v: View, seat: str, lines: Sequence[OrderLine]) -> Checked:
    if v["asking"]:
        return ANSWERS.check_lines(v, seat, lines)
    return VERBS.check_lines(v, seat, lines, whole=whole, note=lambda order: _attack_note(v, order))


def _attack_note(v: View, order: object) -> str | None:
    """The acknowledgement of an ``ATTACK`` order previews the strike's chances, from the seat's view [15.4]."""
    if not isinstance(order, Attack):
        return None
    state = position(v)
    return bomb_forms.acknowledgement(state, state.squadron(order.sq), order.kind)


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
                    "after it: the Veteran, Green and Experte markers (5.2.1), each Intercept's vector anywhere on the "
                    "map, each escort's square within the escort rules and each wing squadron's in formation with its "
                    "Wing Leader's; a later Intercept's vector in its arrival's Setup Phase (5.3.1) (players)",
                    ("scenario", "players"))) + readings.OPTIONS,
    rulebook="Wing Leader rules v2 (Russian translation), seeds/000_081fe1e0bed44cb6.txt")

RULESET = Assembled(info=INFO, steps=STEPS, setup=setup, view=view, order_form=order_form,
                    check_orders=check_orders, outcome=outcome, bot_orders=bot_orders, state_type=State, seats=seats,
                    picture=picture, carryover=CARRYOVER)
