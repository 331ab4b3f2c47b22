"""Scenario setup: forces, start areas, AA guns, sun and seats [R 9, 9.3, 2.1.1, 5.0.1, 6.0]."""
from __future__ import annotations

from functools import lru_cache
from typing import Any
from collections.abc import Mapping

from pbem.core.dice import Dice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.flow import Flow
from pbem.core.texts import t_

from . import board, tables
from .board import Hex
from .state import Aircraft, Gun, State

SCENARIOS = ("w1", "w2", "w3", "w4", "w5")
PREFIX = {"spitfire": "Spit", "hurricane": "Hurr", "me109": "Me109", "me110": "Me110", "he111": "He111",
          "ju88": "Ju88"}


def seat_names(n: int) -> tuple[str, ...]:
    if n == 1:
        return ("de", "gb")
    return tuple(f"{s}-{i}" for s in ("de", "gb") for i in range(1, n + 1))


def side_seats(names: tuple[str, ...], side: str) -> tuple[str, ...]:
    return tuple(s for s in names if s == side or s.startswith(side + "-"))


def scenario_data(name: str) -> dict[str, Any]:
    data = tables.scenarios()
    if name not in data:
        raise RulesetDefinitionError(f"unknown scenario {name!r}")
    return data[name]


def targets(name: str) -> tuple[str, ...]:
    """Object ids of the scenario's targets [R 9, 7.0.1]; Wariant 5 bombs all strategic points."""
    sc = scenario_data(name)
    ter = board.terrain()
    if sc["targets"] == "all":
        return tuple(oid for oid, _ in ter.objects)
    out = []
    for name_ in sc["targets"]:
        h = board.parse_hex(name_)
        oid = ter.object_at(h)  # type: ignore[arg-type]
        if oid is None:
            raise RulesetDefinitionError(f"target {name_} is not a strategic object on the map")
        out.append(oid)
    return tuple(out)


@lru_cache(maxsize=65536)
def facing_toward(h: Hex, goal: Hex) -> str:
    """The facing whose first step gets closest to ``goal`` (ties: clockwise from north)."""
    return min(board.FACINGS, key=lambda f: (board.distance(board.step(h, f), goal), board.FACINGS.index(f)))


def inward(h: Hex) -> str:
    """A facing pointing into the board, towards its centre (default for entering aircraft)."""
    return facing_toward(h, board.from_row(21, 14))


def aa_sites(scenario: str, count: int) -> list[Hex]:
    """Default AA placement: legal hexes [R 6.0.1-6.0.2] nearest the scenario targets, round robin."""
    ter = board.terrain()
    tgt = [ter.object_hex(o) for o in targets(scenario)]
    used: set[Hex] = set(tgt)
    out: list[Hex] = []
    for i in range(count):
        t = tgt[i % len(tgt)]
        cands = [h for h in board.within(t, 4) if h not in used and gun_site_problem(h) is None]
        if not cands:
            cands = [h for h in board.all_hexes() if h not in used and gun_site_problem(h) is None]
        best = min(cands, key=lambda h: (board.distance(h, t), h))
        used.add(best)
        out.append(best)
    return out


def gun_site_problem(h: Hex) -> str | None:
    """Why an AA gun may not stand on ``h`` [R 6.0.1, 6.0.2; G-13: any cloud]."""
    ter = board.terrain()
    if not board.on_board(h):
        return t_("the hex is off the board")
    if h in ter.water:
        return t_("AA guns stand on land hexes only")
    if h in ter.river:
        return t_("AA guns may not stand on a river hex")
    if ter.cloud(h) != "none":
        return t_("AA guns may not stand on a cloud hex")
    return None


def setup_state(scenario: str, options: Mapping[str, Any], dice: Dice, flow: Flow) -> State:
    """The forces in their start areas, guns at their default sites, the sun edge [R 9, 5.0.1]."""
    sc = scenario_data(scenario)
    seats = seat_names(int(options["players_per_side"]))
    counters: dict[str, int] = {}
    aircraft: list[Aircraft] = []
    side_count = {"de": 0, "gb": 0}

    def seat_for(side: str) -> str:
        ss = side_seats(seats, side)
        s = ss[side_count[side] % len(ss)]
        side_count[side] += 1
        return s

    def make(side: str, typ: str, commander: bool, **kw: Any) -> Aircraft:
        info = tables.type_info(typ)
        if info["side"] != side:
            raise RulesetDefinitionError(f"{typ} does not fly for {side}")
        counters[typ] = counters.get(typ, 0) + 1
        return Aircraft(id=f"{PREFIX[typ]}-{counters[typ]}", type=typ, side=side, seat=seat_for(side),
                        commander=commander, bombs=info["bomb_load"], **kw)

    enemy_centre = {s: board.parse_hex(sc[o]["groups"][0]["center"]) for s, o in (("de", "gb"), ("gb", "de"))}
    for side in ("de", "gb"):
        for g in sc[side]["groups"]:
            centre = board.parse_hex(g["center"])
            hexes = sorted(board.within(centre, g["radius"]), key=lambda h: (board.distance(h, centre), h))
            k = 0
            for spec in g["aircraft"]:
                for i in range(spec["n"]):
                    if k >= len(hexes):
                        raise RulesetDefinitionError(f"{scenario}: start area {g['center']} is too small")
                    h = hexes[k]
                    k += 1
                    aircraft.append(make(side, spec["type"], i < spec.get("commanders", 0), hex=h,
                                         facing=facing_toward(h, enemy_centre[side])))  # type: ignore[arg-type]
        for r in sc[side].get("reinforcements", []):
            hexes = r["hexes"]
            if scenario == "w5" and options.get("w5_third_entry") != hexes[-1] and "typo_reading" in r:
                hexes = r["typo_reading"]["hexes"]  # G-19
            k = 0
            for spec in r["aircraft"]:
                for i in range(spec["n"]):
                    h = board.parse_hex(hexes[k % len(hexes)])
                    k += 1
                    aircraft.append(make(side, spec["type"], i < spec.get("commanders", 0), status="due",
                                         due_stage=r["stage"], due_hex=h, facing=facing_toward(h, (21, 24))))  # type: ignore[arg-type]
    gb_seats = side_seats(seats, "gb")
    guns = tuple(Gun(id=f"AA-{i + 1}", seat=gb_seats[i % len(gb_seats)], hex=h)
                 for i, h in enumerate(aa_sites(scenario, sc["gb"]["aa_guns"])))
    sun = options["sun"]
    if sun == "die":
        v = dice.roll(6, why="sun edge (1-2 east, 3-4 south, 5-6 west) [R 5.0.1]", seen_by=seats)
        sun = tables.dice_table()["sun"][v - 1]
    return State(scenario=scenario, options=tuple(sorted(options.items())), seat_names=seats, flow=flow,
                 aircraft=tuple(aircraft), guns=guns, sun=sun)


def start_area(scenario: str, side: str, ac_index_hex: Hex) -> tuple[Hex, ...]:
    """The start-area hexes of the group whose default placement holds ``ac_index_hex``."""
    sc = scenario_data(scenario)
    for g in sc[side]["groups"]:
        zone = board.within(board.parse_hex(g["center"]), g["radius"])  # type: ignore[arg-type]
        if ac_index_hex in zone:
            return zone
    return ()
