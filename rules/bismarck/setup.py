"""Setup [3]: the scenario's ships, air units, optional units and schedule as the first state."""
from __future__ import annotations

from pbem.core.texts import t_

from dataclasses import replace

from pbem.core.errors import RulesetDefinitionError
from pbem.core.flow import Flow
from pbem.core.standing import Standing

from . import tables as T
from .board import board
from .model import Air, Ship, State
from .verbs import standing_key
from .work import Work

STARTING_STANDING = (("allied", ("SHADOW ON", "AUTO_ENGAGE ON")),
                     ("german", ("HUNT AUTO", "ON_MERCHANT ATTACK", "ON_CONVOY ATTACK")))


def _starting_standing() -> Standing:
    store = Standing()
    for side, lines in STARTING_STANDING:
        for line in lines:
            store, _ = store.set(side, standing_key(line.split()), line)
    return store


def setup(scenario: str, options: dict, dice) -> State:
    scen = T.scenarios().get(scenario)
    if scen is None:
        raise RulesetDefinitionError(f"unknown scenario {scenario}")
    sched = T.schedule().get(scenario, {})
    reinf = _entries(sched.get("reinforcements", {}))
    restricted = _entries(sched.get("restricted", {}))
    ships = _ships(scenario, scen, options, reinf, restricted)
    air = _air(ships)
    start = T.turn_index(scen["start"])
    opt_vp, revealed = _optional_units(options, ships, dice)
    state = State(scenario=scenario, options=tuple(sorted((k, v) for k, v in options.items())), turn=start,
                  start=start, last=T.turn_index(scen["last"]), weather=scen["weather"], fog=False,
                  vis=0, ships=tuple(ships[k] for k in sorted(ships)), air=tuple(air[k] for k in sorted(air)),
                  flow=Flow("weather", turn=1, standing=_starting_standing()),
                  ee_bag=T.bag("evasion"), damage_bag=T.bag("damage"), vp_bag=T.bag("convoy_vp"),
                  optional_vp=opt_vp, revealed_optional=tuple(revealed),
                  **_schedule(ships, reinf, restricted))
    w = Work(state)
    _take_printed_evasion(w, ships)
    for sid in scen.get("contacts", {}).get("allied", []):
        w.mark("allied", w.unit_of(sid), "shadowed", "setup")
    for name in revealed:
        w.say(t_('optional unit in play: %(name)s', name=name), kind="setup")
    return w.freeze(vis=T.visibility(state.weather, start), fog=state.weather >= T.tables()["weather"]["fog_from"])


def _entries(table: dict) -> dict:
    return {k: v for k, v in table.items() if isinstance(v, dict)}


def _start(sid: str, placed: dict, options: dict, reinf: dict, restricted: dict) -> tuple[str | None, str | None]:
    """(status, hex) a ship starts with, or (None, None) if she is not in this game."""
    if sid in placed:
        return "sea", placed[sid]
    if sid in T.escorts():  # every escort starts RESTRICTED with its convoy [11.3, 12]
        return "escort", None
    if sid in reinf:
        return "pending", None
    if sid in restricted:
        return "restricted", None
    optional = T.tables()["optional_units"]
    if sid in optional and options.get(sid.replace("-", "_")):
        return "sea", optional[sid]["hex"]
    return None, None


def _ships(scenario: str, scen: dict, options: dict, reinf: dict, restricted: dict) -> dict[str, Ship]:
    tf_of = {sid: tf for tf, ids in scen.get("tfs", {}).items() if tf not in ("provenance", "ref") for sid in ids}
    fuel = scen.get("fuel", {})
    ee = scen.get("evasion", {})
    placed = {k: v for k, v in scen["ships"].items() if k not in ("provenance", "ref", "note")}
    ships: dict[str, Ship] = {}
    for sid, u in sorted(_entries(T.units()["ships"]).items()):
        status, h = _start(sid, placed, options, reinf, restricted)
        if status is None:
            continue
        if h is not None and h not in board().sea:
            raise RulesetDefinitionError(f"scenario {scenario}: {sid} starts on land or off the map ({h})")
        cap = u["fuel"] if u["speed"] in ("F", "M") else 0
        ships[sid] = Ship(id=sid, side=u["side"], cls=u["cls"], er=u["er"], speed=u["speed"], fuel_max=cap,
                          hex=h, status=status, tf=tf_of.get(sid), fuel=fuel.get(sid, cap), ee=tuple(ee.get(sid, ())),
                          hull=u["hull"], bow=u["bow"], stern=u["stern"], sec=u["sec"], radar=u["radar"],
                          markers=("restricted",) if status in ("escort", "restricted") else ())
    _one_hex_per_tf(scenario, ships)
    return ships


def _one_hex_per_tf(scenario: str, ships: dict[str, Ship]) -> None:
    """Every ship of a task force is in its hex [7.2]: a scenario that splits one is a data error."""
    hexes: dict[str, set[str]] = {}
    for x in ships.values():
        if x.tf and x.hex is not None:
            hexes.setdefault(x.tf, set()).add(x.hex)
    for tf, hs in sorted(hexes.items()):
        if len(hs) > 1:
            raise RulesetDefinitionError(f"scenario {scenario}: {tf} is spread over {', '.join(sorted(hs))}; "
                                         f"a task force is in one hex [7.2]")


def _air(ships: dict[str, Ship]) -> dict[str, Air]:
    """Air units, but not those of a carrier that is not at sea in this game."""
    udata = T.units()
    air = {}
    for aid, a in sorted(_entries(udata["air"]).items()):
        if a["base"] in udata["ships"] and (a["base"] not in ships or ships[a["base"]].status != "sea"):
            continue
        air[aid] = Air(aid, a["side"], a["type"], a["speed"], a["range"], a["base"])
    return air


def _optional_units(options: dict, ships: dict[str, Ship], dice) -> tuple[int, list[str]]:
    """The VP of the hypothetical units in play and those revealed by their roll [13.1]."""
    opt_vp, revealed = 0, []
    for name, o in sorted(T.tables()["optional_units"].items()):
        if isinstance(o, dict) and options.get(name.replace("-", "_")):
            opt_vp += o["vp"]
            r = T.d10(dice, t_('reveal roll for optional %(name)s', name=name), (ships[name].side,))
            if r <= o["reveal_max"]:
                revealed.append(name)
    return opt_vp, revealed


def _schedule(ships: dict[str, Ship], reinf: dict, restricted: dict) -> dict:
    """Reinforcements, RELEASE permissions and automatic lifts of RESTRICTED markers [12]."""
    waiting = {k for k in restricted if k in ships and ships[k].status != "sea"}
    return {
        "reinforcements": tuple(sorted((k, T.turn_index(v["turn"]), v["hex"]) for k, v in reinf.items()
                                       if k in ships)),
        "releases": tuple(sorted((k, T.turn_index(v["release_from"]), v["hex"]) for k, v in restricted.items()
                                 if "release_from" in v and k in waiting)),
        "lifts": tuple(sorted((k, T.turn_index(v["lift_turn"]) if "lift_turn" in v else -1, v.get("lift_on", ""),
                               v["hex"]) for k, v in restricted.items()
                              if ("lift_turn" in v or "lift_on" in v) and k in waiting)),
    }


def _take_printed_evasion(w: Work, ships: dict[str, Ship]) -> None:
    """Evasion markers a scenario starts a ship with come out of the bag."""
    for sid in sorted(ships):
        if ships[sid].ee:
            bag = list(w.s.ee_bag)
            for v in ships[sid].ee:
                if v in bag:
                    bag.remove(v)
            w.s = replace(w.s, ee_bag=tuple(bag))
