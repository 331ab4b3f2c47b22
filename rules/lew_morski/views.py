"""Per-seat views: everything a seat may know, as JSON [digest 5, 11].

Open games show everything (the boxed game hides nothing).  Fog games (digest 5): German pilots
see British aircraft within visual range and not inside clouds beyond the next hex, AA guns only
once revealed or adjacent; the British see every German aircraft (radar); enemy bomb loads, jams,
off-board aircraft and reinforcement schedules are hidden.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import board, combat, movement, tables
from .combat import plane
from .options import OPTIONS
from .phases import STEP_TITLES, phase
from .setup import inward, scenario_data, start_area, targets
from .state import Aircraft, State


def side_of(seat: str) -> str:
    return seat.split("-")[0]


def visible_enemies(state: State, side: str) -> list[Aircraft]:
    """Enemy aircraft on the board that ``side`` sees [digest 5.1-5.2]."""
    enemies = [a for a in state.aircraft if a.side != side and a.status == "board"]
    opts = state.opts
    if opts["visibility"] == "open" or side == "gb":
        return enemies
    eyes = [a.hex for a in state.aircraft if a.side == side and a.status == "board"]
    rng = int(opts["visual_range"])
    return [e for e in enemies if combat.seen(e.hex, e.alt, eyes, rng)]


def plane_dict(a: Aircraft, full: bool) -> dict[str, Any]:
    d: dict[str, Any] = {"id": a.id, "side": a.side, "type": a.type, "name": tables.type_info(a.type)["name"],
                         "hex": board.fmt(a.hex), "alt": a.alt, "facing": a.facing,  # type: ignore[arg-type]
                         "damaged": a.damaged, "commander": a.commander,
                         "class": tables.type_info(a.type)["vp_class"]}
    if full:
        d.update(bombs=a.bombs, jammed=a.jammed, seat=a.seat)
    return d


def seat_is_awaited(state: State, seat: str) -> bool:
    ph = phase(state)
    return ph is not None and (seat in ph.awaiting or seat in ph.optional)


def phase_kind(state: State, seat: str) -> str:
    side = side_of(seat)
    step = state.step
    if step == "setup":
        return "setup"
    if step == f"{side}-move":
        return "move"
    if step == f"{side}-react":
        return "react"
    return "none"


def own_entry(state: State, a: Aircraft, taken: set) -> dict[str, Any] | None:
    """Where an aircraft due this stage enters, and the hexes it may choose [R 4.3.1, 9, G-21]."""
    if state.step != f"{a.side}-move":
        return None
    if a.status == "due" and a.due_stage <= state.stage:
        h = a.due_hex
        return {"hex": board.fmt(h), "facing": a.facing, "alt": "HIGH", "hexes": [board.fmt(h)],  # type: ignore[arg-type]
                "reinforcement": True}
    if a.status == "off" and 0 < a.return_stage <= state.stage:
        r = tables.dice_table()["return_radius"]
        hexes = [h for h in board.all_hexes() if board.is_edge(h) and board.distance(h, a.exit_hex) <= r]  # type: ignore[arg-type]
        free = [h for h in hexes if (h, a.left_alt) not in taken] or hexes
        h = min(free, key=lambda x: (board.distance(x, a.exit_hex), x))  # type: ignore[arg-type]
        return {"hex": board.fmt(h), "facing": inward(h), "alt": a.left_alt,
                "hexes": [board.fmt(x) for x in sorted(hexes)], "reinforcement": False}
    return None


def move_options(a: Aircraft, start: tuple, planes: list[combat.Plane], state: State) -> list[dict[str, Any]]:
    """Legal moves summarised by end position, each with the shot it would give [R 4, 5]."""
    opts = state.opts
    st = tables.stats(a.type, a.damaged, a.commander, a.bombs)
    h, f, alt = start
    others = [p for p in planes if p.id != a.id]
    taken = {(p.hex, p.alt) for p in others}
    index = combat.by_hex(others)
    seen: dict[tuple, dict[str, Any]] = {}
    for change, path, w in movement.options(st, h, f, alt, lambda x, y: (x, y) in taken,
                                            opts["occupancy"] == "end_hex"):
        alt2 = movement.new_alt(alt, change)
        if w.exited:
            key: tuple = ("exit", change, board.edge_of(w.off_hex))  # type: ignore[arg-type]
        else:
            key = (w.end, w.facing, alt2)
        if key in seen:
            continue
        d: dict[str, Any] = {"change": change, "path": path, "alt": alt2}
        if w.exited:
            d.update(end="", facing=w.facing, exits=board.edge_of(w.off_hex), shot=None)  # type: ignore[arg-type]
        else:
            me = combat.Plane(a.id, a.side, a.type, w.end, alt2, w.facing, a.damaged, a.commander, a.bombs)  # type: ignore[arg-type]
            tg = combat.target_of(me, others, opts, index)
            shot = None
            if tg:
                s, notes = combat.strength(me, tg[0], state.sun, opts)
                rng = tables.hit_range(s, tg[1])
                shot = {"target": tg[0].id, "dist": tg[1], "strength": s, "range": list(rng) if rng else [],
                        "chance": round(combat.hit_chance(rng), 3)}
            d.update(end=board.fmt(w.end), facing=w.facing, exits="", shot=shot)  # type: ignore[arg-type]
        seen[key] = d
    return list(seen.values())


def view(state: State, seat: str) -> dict[str, Any]:
    side = side_of(seat)
    opts = state.opts
    fog = opts["visibility"] == "fog"
    sc = scenario_data(state.scenario)
    kind = phase_kind(state, seat)
    enemies = visible_enemies(state, side)
    mine_side = [a for a in state.aircraft if a.side == side]
    on_board = [a for a in mine_side if a.status == "board"] + enemies
    planes = [plane(a) for a in on_board]
    index = combat.by_hex(planes)
    taken = {(p.hex, p.alt) for p in planes}
    own = []
    for a in state.aircraft:
        if a.seat != seat or a.status == "destroyed":
            continue
        st = tables.stats(a.type, a.damaged, a.commander, a.bombs)
        d: dict[str, Any] = {"id": a.id, "type": a.type, "name": tables.type_info(a.type)["name"], "side": a.side,
                             "status": a.status, "commander": a.commander, "damaged": a.damaged,
                             "hex": board.fmt(a.hex) if a.hex else "", "facing": a.facing, "alt": a.alt,
                             "jammed": a.jammed, "unjam_pending": bool(a.unjam_stage), "bombs": a.bombs,
                             "fired": a.fired_stage == state.stage,
                             "stats": {"max_speed": st.max_speed, "min_speed": st.min_speed, "attack": st.attack,
                                       "manoeuvrability": st.manoeuvrability},
                             "exit_hex": board.fmt(a.exit_hex) if a.exit_hex else "", "exit_edge": a.exit_edge,
                             "return_stage": a.return_stage, "due_stage": a.due_stage,
                             "path": [board.fmt(h) for h in a.path], "target": None, "moves": []}
        if a.status == "board":
            tg = combat.target_of(plane(a), planes, opts, index)
            if tg:
                s, notes = combat.strength(plane(a), tg[0], state.sun, opts)
                rng = tables.hit_range(s, tg[1])
                d["target"] = {"target": tg[0].id, "dist": tg[1], "strength": s, "mods": notes,
                               "range": list(rng) if rng else [], "chance": round(combat.hit_chance(rng), 3)}
        entry = own_entry(state, a, taken) if kind == "move" else None
        d["entry"] = entry
        if kind == "setup":
            area = start_area(state.scenario, side, a.hex) if a.hex else ()  # type: ignore[arg-type]
            d["start_area"] = [board.fmt(h) for h in area]
            for g in sc[side]["groups"]:
                if a.hex in board.within(board.parse_hex(g["center"]), g["radius"]):  # type: ignore[arg-type]
                    d["start_centre"], d["start_radius"] = g["center"], g["radius"]
        if kind == "move" and (a.status == "board" or entry):
            start = (a.hex, a.facing, a.alt) if a.status == "board" else \
                (board.parse_hex(entry["hex"]), entry["facing"], entry["alt"])  # type: ignore[index]
            pl = [p for p in planes if p.id != a.id]
            d["moves"] = move_options(replace(a, hex=start[0], facing=start[1], alt=start[2]), start, pl, state)
        own.append(d)
    friends = [plane_dict(a, True) for a in mine_side if a.status == "board" and a.seat != seat]
    enemy_list = [plane_dict(a, not fog) for a in enemies]
    planes_view = [plane_dict(a, a.side == side or not fog) for a in on_board]
    off = []
    for a in state.aircraft:
        if a.status in ("off", "due", "withdrawn", "destroyed") and (a.side == side or not fog):
            off.append({"id": a.id, "side": a.side, "type": a.type, "status": a.status,
                        "return_stage": a.return_stage if a.status == "off" else 0,
                        "due_stage": a.due_stage if a.status == "due" else 0,
                        "exit_edge": a.exit_edge if a.status == "off" else ""})
    own_guns, enemy_guns = [], []
    for g in state.guns:
        gd = {"id": g.id, "hex": board.fmt(g.hex), "destroyed": g.destroyed,  # type: ignore[arg-type]
              "fired": g.fired_stage == state.stage}
        if side == "gb":
            if g.seat == seat:
                gd["policy"] = state.policy(g.id, "aa", "AUTO")
                gd["in_range"] = []
                for e in enemies:
                    if not g.destroyed and board.distance(g.hex, e.hex) <= 1:  # type: ignore[arg-type]
                        rng, why = combat.aa_can_hit(g.hex, plane(e), state.sun, opts)  # type: ignore[arg-type]
                        gd["in_range"].append({"target": e.id, "range": list(rng) if rng else [], "why": why})
                own_guns.append(gd)
        elif not fog or g.revealed or any(board.distance(g.hex, a.hex) <= 1 for a in mine_side  # type: ignore[arg-type]
                                          if a.status == "board"):
            enemy_guns.append({"id": g.id, "hex": board.fmt(g.hex), "destroyed": g.destroyed})  # type: ignore[arg-type]
    ally_guns = [{"id": g.id, "hex": board.fmt(g.hex), "destroyed": g.destroyed, "seat": g.seat}  # type: ignore[arg-type]
                 for g in state.guns if side == "gb" and g.seat != seat]
    tg_ids = targets(state.scenario)
    ter = board.terrain()
    policies = [[u, k, v] for u, k, v in state.policies
                if any(x["id"] == u for x in own) or any(g["id"] == u for g in own_guns)]
    ask = [x for x in state.pending_data().get("asks", []) if x["seat"] == seat] if kind == "react" else []
    reinf = []
    for s_ in ("de", "gb"):
        if s_ == side or not fog:
            for r in sc[s_].get("reinforcements", []):
                reinf.append({"side": s_, "stage": r["stage"], "hexes": r["hexes"],
                              "aircraft": [f"{x['n']} {x['type']}" for x in r["aircraft"]]})
    return {
        "game": "lew_morski", "scenario": state.scenario, "scenario_title": sc["title"], "seat": seat, "side": side,
        "stage": state.stage, "step": state.step,
        "phase": {"name": state.step, "kind": kind, "mine": kind != "none" and seat_is_awaited(state, seat),
                  "title": STEP_TITLES[state.step]},
        "options": dict(opts),
        "options_text": [f"{o.name} = {opts[o.name]}" + ("" if opts[o.name] == o.default else " (not the default)")
                         for o in OPTIONS],
        "sun": state.sun, "vp": {"de": state.vp_de, "gb": state.vp_gb},
        "min_vp": {"de": sc["de"]["min_vp"], "gb": sc["gb"]["min_vp"]},
        "targets": [{"id": t, "hex": board.fmt(ter.object_hex(t)), "bombed": t in state.bombed} for t in tg_ids],
        "objects_bombed": sorted(state.bombed), "bonus": sc["all_targets_bonus"], "bonus_done": state.bonus_done,
        "own": own, "friends": friends, "enemies": enemy_list, "planes": planes_view, "offboard": off,
        "own_guns": own_guns, "ally_guns": ally_guns, "enemy_guns": enemy_guns, "reinforcements": reinf,
        "policies": policies, "ask": ask, "over": state.step == "over", "end_reason": state.end_reason,
    }
