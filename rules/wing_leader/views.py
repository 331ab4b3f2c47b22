"""What a seat sees (open information: the rules hide nothing [5.2]; option ``visibility=fog`` shows a side
only what it sees, fog.py), its order form, and a scripted bot."""
from __future__ import annotations

from typing import Any

from pbem.core.defaults import to_json
from pbem.core.dice import Dice
from pbem.core.ruleset import Outcome, View

from . import (altitude_error, balloons, bomb_forms, dogfight, flak, fog, lufbery, movement, placing, radio, reaction,
               readings, rocket_fighter, seating, split, takeoff, tally, unplayed, weapons, wings)
from .model import ENTERING, SIDES, WAITING, Squadron, State, owner, shown_json, side_of
from .parsing import ARRIVAL_STEPS, SETUP_STEPS, allowed_moves, answer_line, answer_usage, free_mover, plain_problem, position
from .sky import HEADINGS, name
from .surface import surface_status
from .tables import card, scenario, tables
from .tally_phase import jammed_now
from .victory import points

STEP_TITLES = {"raider_tally": "Raider's Tally Phase", "defender_tally": "Defender's Tally Phase",
               "tallies": "Tally Phase (both sides)", "turn": "Tally and Movement Phases",
               "movement": "Movement Phase", "wings": "choice of wings", "over": "end of the game",
               "setup_first": "set-up, the side setting up first", "setup_second": "set-up, the other side",
               "arrivals_first": "Setup Phase, the side that set up first", "arrivals_second": "Setup Phase, the other side"}


#: What stands where no standing order says otherwise [10.4, 10.5, 10.8, 11.0].
DEFAULTS = ("# Where no standing order says otherwise: TACTIC <sq> BEST, REACT <escort> YES, DOGFIGHT DECLINE, "
            "CONSENT NO, KEEP FIRST")
#: The rule behind each interrupt, known by its answers: the rating [10.5], a dogfight [10.8], a reaction [10.4].


def view(state: State, seat: str) -> dict[str, Any]:
    step = state.flow.step
    side = side_of(seat)
    shown = _shown(state, side)
    out = {
        "seat": seat, "side": side_of(seat), "scenario": state.scenario, "turn": state.turn, "step": step,
        "step_title": STEP_TITLES.get(step, step), "raider": state.raider, "defender": state.defender,
        "sky": {"clouds": [[name(sq), kind] for sq, kind in state.sky.clouds], "haze": state.sky.haze,
                "sun": state.sky.sun, "rain": state.sky.rain},
        "squadrons": [shown_json(s) for s in shown],
        "wing_display": [_display(s) for s in shown],
        "tally_targets": _tally_targets(state, seat, shown) if _my_tally_window(state, seat) else {},
        "victory_points": points(state) if state.flow.over or not fog.fogged(state) else {},
        "flexible": side_of(seat) in scenario(state.scenario).get("flexibility", ()),
        "standing": _standing(state, seat),
        "allied_standing": _allied_standing(state, seat),
        "asking": _question(state, seat),
        "asking_choices": list(next((a.choices for a in state.flow.pending.asks if a.seat == seat), ()))
        if state.flow.pending is not None else [],
        "asks": [{"key": a.key, "question": a.question, "default": a.default, "choices": list(a.choices)}
                 for a in state.flow.pending.asks if a.seat == seat] if state.flow.pending is not None else [],
    }
    checked = _ingest_options(state)
    if checked:   # only when not at their defaults, so that views stay as they were
        out["options"] = checked
    out.update(_jammers_seen(state, side))
    if state.leaders:   # Wing Leader markers placed in the set-up [5.2.1]; else views stay as they were
        out["wing_leaders"] = dict(state.leaders)
    if state.surfaces:   # advanced rule 14 only, so that basic views stay as they were
        out["surfaces"] = [to_json(u) for u in state.surfaces]
        out["surface_status"] = [surface_status(u) for u in state.surfaces]
        live = {g.label for g in flak.guns(state)}   # a suppressed unit's marker is gone with its fire [14.1.2]
        out["barrages"] = [to_json(b) for b in state.barrages if b.unit in live]
    if state.option("setup", "scenario") == "players":   # only then, so that other views stay as they were
        out["setup"] = "players"
    if state.balloons:   # advanced rule 14.3
        out["balloons"] = [to_json(b) for b in state.balloons if b.up]
    if fog.fogged(state):   # only under fog, so that open views stay as they were
        out.update(fog=True, last_known=fog.last_known(state, side), radar=fog.plots(state, side))
    return out


def _jammers_seen(state: State, side: str) -> dict[str, Any]:
    """Under ``jam_reading = combats`` (AMB-14) the own squadrons that fought in the last Combat Phase, which
    jam their nets in this Tally Phase [9.4.2]: wing orders are counted against it at ingest."""
    if state.option("jam_reading", "dogfights") != "combats":
        return {}
    return {"fought_last": [i for i in state.fought_last if (s := state.find(i)) is not None and s.side == side]}


def _ingest_options(state: State) -> dict[str, Any]:
    """The options orders are checked against at ingest, those not at their defaults (readings.AT_INGEST)."""
    defaults = {o.name: o.default for o in readings.OPTIONS} | {"split_count": "together"}
    return {k: v for k, v in state.options if k in readings.AT_INGEST and v != defaults.get(k)}


def _shown(state: State, side: str) -> list[Squadron]:
    """The squadrons a side is shown: all in an open game; under fog its own and the enemies it sees, whose
    vectors (their ground control's business) it is not shown."""
    if not fog.fogged(state):
        return list(state.squadrons)
    return [s if s.side == side else s.move(vector=None) for s in fog.visible(state, side)]


def _standing(state: State, seat: str) -> list[dict[str, str]]:
    """The seat's standing orders, then its side's (kept under the side's name when it has several seats)."""
    side = side_of(seat)
    return state.flow.standing.view_of(seat) + (state.flow.standing.view_of(side) if side != seat else [])


def _allied_standing(state: State, seat: str) -> list[dict[str, str]]:
    """The standing orders of the seat's allies (the other players of its side): theirs to change, shown
    because the side fights one battle [10.2, 10.4]."""
    return [{"seat": other, **o} for other in state.seats_of(side_of(seat)) if other not in (seat, side_of(seat))
            for o in state.flow.standing.view_of(other)]


def _question(state: State, seat: str) -> str:
    """The question an interrupt window puts to this seat, or ""."""
    pending = state.flow.pending
    return next((a.question for a in pending.asks if a.seat == seat), "") if pending is not None else ""


def _my_tally_window(state: State, seat: str) -> bool:
    step = state.flow.step
    side = side_of(seat)
    return (step == "raider_tally" and side == state.raider) or (step == "defender_tally" and side == state.defender) \
        or step in ("tallies", "turn")


def _display(s: Squadron) -> dict[str, Any]:
    """A Wing Display line [5.2]: public to both sides."""
    return {"id": s.id, "side": s.side, "aircraft": card(s.model)["name"], "mission": s.mission,
            "square": name(s.at) if s.on_map else s.status, "heading": HEADINGS[s.heading],
            "altitude": s.at[1] if s.on_map else "", "seat": owner(s), "cohesion": _cohesion(s),
            "alert": s.alert, "tally": s.tally, "vector": name(s.vector) if s.vector else "",
            "losses": s.losses, "straggler": s.straggler, "disrupted": s.disruption, "broken": s.broken,
            "ammo": ("", "low", "depleted")[s.ammo], "quality": s.quality, "marker": s.marker,
            "speed_turn": list(s.basic()) if s.on_map else [], "dogfight": s.dogfight,
            **({"equipment": weapons.equipment(s)} if weapons.equipment(s) else {})}   # advanced markers [13]


def _cohesion(s: Squadron) -> str:
    """The cohesion box of the Wing Display [10.7]: steady, disrupted (levels) or broken."""
    return "broken" if s.broken else f"disrupted {s.disruption}" if s.disruption else "steady"


def _tally_targets(state: State, seat: str, shown: list[Squadron]) -> dict[str, dict[str, int]]:
    """For each of the seat's squadrons that may roll: every legal target it is shown and the die roll it needs."""
    found: dict[str, dict[str, int]] = {}
    ids = {s.id for s in shown}
    for sq in state.of_seat(seat):
        if tally.may_tally(sq.move(tally=""), state):
            continue
        found[sq.id] = {t.id: tally.needed(state.sky, sq, t, radio.modifiers(state, sq, t, jammed_now(state)))
                        for t in state.squadrons
                        if t.side != sq.side and t.id in ids and tally.target_problem(state, sq, t) is None}
    return found


def order_form(v: View, seat: str) -> str:
    if v["asking"]:
        return "".join(f"# {a['question']}\n# Answer {answer_usage(a)}; on silence: {a['default']}\n"
                       f"{answer_line(a, a['default'])}\n" for a in v["asks"])
    lines = [f"# {scenario(v['scenario'])['title']}: turn {v['turn']}, {v['step_title']} ({seat})"]
    state = position(v)
    lines += [f"# {note}" for note in unplayed.notes(v["scenario"])]
    if v["step"] == "wings":
        return "\n".join(lines + seating.wings_form(state, seat, scenario(v["scenario"]).get("wings", ()))) + "\n"
    tally_step = v["step"] in ("raider_tally", "defender_tally", "tallies", "turn")
    if tally_step and not _my_tally_window(state, seat):
        lines.append("# The other side rolls its tallies now; yours come in the next window (6.0). Standing "
                     "orders (TACTIC, REACT, DOGFIGHT, LEADS, HITS, CONSENT, ARRIVE) may be sent.")
    if v["step"] in SETUP_STEPS + ARRIVAL_STEPS:
        lines += _setup_lines(v, state, seat)
    for sq in state.of_seat(seat) if v["step"] not in SETUP_STEPS + ARRIVAL_STEPS else ():
        if not sq.on_map:
            lines += _arrival_lines(sq) + _later_vector_lines(v, state, sq) + \
                (takeoff.form_line(state, sq) if v["step"] in ("movement", "turn") else [])
            continue
        lines.append(f"# {sq.id} {card(sq.model)['name']} at {name(sq.at)} heading {HEADINGS[sq.heading]}, "
                     f"{'alert' if sq.alert else 'unalert'} {sq.mission}" + (f", tallies {sq.tally}" if sq.tally else ""))
        lines += _form_lines(v, state, sq)
        lines += bomb_forms.form_lines(state, sq)   # rule 15
        lines += balloons.form_lines(state, sq) if sq.mission == "sweep" or sq.balloon else []   # rule 14.3
    lines += _fog_lines(v)
    lines += [f"# {u['line']}" for u in v.get("surface_status", ())]
    lines += flak.form_lines(state, side_of(seat)) if state.surfaces else []
    kept = [f"#   {o['text']}" for o in v["standing"]]
    lines += ["# Standing orders in force (CANCEL <key> removes one):", *kept] if kept else ["# Standing orders: none"]
    lines.append(DEFAULTS + _rule13_defaults(state))
    allied = [f"#   {o['seat']}: {o['text']}" for o in v.get("allied_standing", ())]
    lines += ["# Your allies' standing orders (theirs to change):", *allied] if allied else []
    return "\n".join(lines) + "\n"


def _rule13_defaults(state: State) -> str:
    """The defaults of rule 13's standing orders, where the scenario uses them."""
    found = [text for rule, text in (("13.1", "ERROR AWAY"), ("13.4.3", "LUFBERY <sq> NO"), ("13.8.2", "POWER <sq> FULL"))
             if state.uses(rule)]
    return "".join(f", {t}" for t in found)


def _fog_lines(v: View) -> list[str]:
    """Under fog: the radar plots of ground control and where unseen enemies were last seen."""
    lines = [f"# radar plot: {p['count']} squadron{'s' if p['count'] != 1 else ''} in columns {p['columns']}, "
             f"{p['band']} (altitudes {p['altitudes'][0]}-{p['altitudes'][1]})" for p in v.get("radar", ())]
    lines += [f"# last seen: {g['side']} {g['id']} ({g['aircraft']}) in {name((g['at'][0], g['at'][1]))} heading "
              f"{HEADINGS[g['heading']]} on turn {g['turn']}" for g in v.get("last_known", ())]
    return lines


def _form_lines(v: View, state: State, sq: Squadron) -> list[str]:
    """A squadron's lines of the order form: its tally choices in a tally window, else its move."""
    if v["step"] == "turn":  # cadence single: the tally, then the move, from one message
        rolling = [f"#   if its tally succeeds it pursues (9.2.7): IF TALLYING {sq.id} THEN ... ELSE ... plans either way"] \
            if v["tally_targets"].get(sq.id) and not sq.tally else []
        return [*_tally_lines(v, state, sq), *_split_lines(state, sq), *_move_lines(state, sq),
                *weapons.form_lines(state, sq), *lufbery.form_lines(state, sq, list(state.squadrons)), *rolling]
    if v["step"] in ("raider_tally", "defender_tally", "tallies"):
        return [*_tally_lines(v, state, sq), *_split_lines(state, sq)] if _my_tally_window(state, sq.side) else []
    return [*_move_lines(state, sq), *weapons.form_lines(state, sq),   # drop tanks [13.2] and more of rule 13
            *lufbery.form_lines(state, sq, list(state.squadrons))]


def _split_lines(state: State, sq: Squadron) -> list[str]:
    """If it splits [9.3]: which flight takes the Wing Leader marker it carries [9.3.1], and the flight
    counters its side has left of its aircraft under option ``flight_counters``."""
    lines = []
    if wings.leads_wing(state, sq) and not sq.flight:
        one = " (one marker with its Experte, 5.2.1)" if sq.experte else ""
        lines.append(f"#   carries its wing's Wing Leader marker{one}: if it splits, SPLIT {sq.id} LEADER 2 gives "
                     f"it to the second flight, else the first keeps it (9.3.1)")
    problem = split.counters_problem(state, sq) if not sq.flight else None
    if problem:
        lines.append(f"#   {problem} (9.3)")
    return lines


def _arrival_lines(sq: Squadron) -> list[str]:
    """A later arrival [5.3.1]: when and where it comes, and the altitude it may be given."""
    if sq.status == ENTERING:
        return [f"# {sq.id} {card(sq.model)['name']} flies in from beyond the {sq.edge} edge this turn at altitude "
                f"{sq.at[1]}, heading {HEADINGS[sq.heading]} (5.3.1, 8.4.1)"]
    if sq.status != WAITING:
        return []
    if sq.base:   # on an airfield or carrier [13.7]
        return [f"# {sq.id} {card(sq.model)['name']} waits on {sq.base} to take off (13.7)"]
    where = f"at the {sq.edge} edge" if sq.edge else "on its square"
    alts = f" at altitude {' or '.join(map(str, sq.altitudes))} (ARRIVE {sq.id} <altitude>; else {sq.altitudes[0]})" \
        if sq.altitudes else ""
    return [f"# {sq.id} {card(sq.model)['name']} arrives on turn {sq.arrives} {where}{alts} (5.3.1)"]


def _later_vector_lines(v: View, state: State, sq: Squadron) -> list[str]:
    """A later Intercept's vector, placed by its owner when it arrives when the players set up [5.3.1] (not a
    wing's squadron other than its leader's, 9.5.3)."""
    if v.get("setup") != "players" or sq.mission != "intercept" or sq.status != WAITING or \
            placing.wing_of_member(state, sq) is not None:
        return []
    default = f"; else the scenario's {name(sq.vector)}" if sq.vector else ""
    return [f"#   its vector is placed in the Setup Phase of turn {sq.arrives}, when it arrives (VECTOR {sq.id} "
            f"<square>, 5.3.1){default}"]


def _setup_lines(v: View, state: State, seat: str) -> list[str]:
    """The set-up windows [5.2.1, 5.3, 5.3.1]: what the seat may place now; silence keeps the scenario's."""
    if v["step"] in ARRIVAL_STEPS:
        return [line for sq in placing.arriving_intercepts(state, v["turn"], side_of(seat))
                if owner(sq) == seat
                for line in (f"# {sq.id} {card(sq.model)['name']} arrives this turn: VECTOR {sq.id} <square> places "
                             f"its vector anywhere on the map (5.3.1); else {name(sq.vector) if sq.vector else 'none'}",)]
    lines = []
    for kind in placing.MARKERS:
        now = placing.markers_of(state, seat, kind)
        if now:
            where = "fighter squadrons" if kind == "EXPERTE" else "squadrons, at most one Veteran or Green each"
            lines.append(f"# {len(now)} {kind.capitalize()} marker{'s' if len(now) > 1 else ''}, now on {' '.join(now)}: "
                         f"{kind} <squadron>... places them on your {where} (5.2.1)")
    lines += _leader_lines(state, seat)
    for sq in state.of_seat(seat):
        if not sq.on_map:
            lines += _arrival_lines(sq) + _later_vector_lines(v, state, sq)
            continue
        lines.append(f"# {sq.id} {card(sq.model)['name']} at {name(sq.at)} heading {HEADINGS[sq.heading]}, {sq.mission}")
        lines += _placement_lines(state, sq)
    return lines


def _leader_lines(state: State, seat: str) -> list[str]:
    """Which squadron of each of the seat's wings carries its Wing Leader marker [5.2.1]."""
    lines = []
    for wing in wings.wings(state):
        own = [m for m in wings.members(state, wing) if owner(state.squadron(m)) == seat]
        if own:
            lines.append(f"# LEADER <squadron>: the Wing Leader marker of {wing['name']} goes on one of its squadrons "
                         f"({', '.join(own)}; 5.2.1); else {wings.leader_id(state, wing)}")
    return lines


def _placement_lines(state: State, sq: Squadron) -> list[str]:
    """What a squadron on the map may be given in the set-up [5.3 steps 4-6]."""
    lines = []
    wing = placing.wing_of_member(state, sq)
    if sq.mission == "intercept" and wing is None:   # a wing's others keep formation on its leader [9.5.3]
        lines.append(f"#   VECTOR {sq.id} <square>: its vector anywhere on the map (step 4); else "
                     f"{name(sq.vector) if sq.vector else 'none'}")
    if sq.mission == "escort":
        lines.append(f"#   PLACE {sq.id} <square>: within 3 squares of a bomber, the same heading, not ahead of the "
                     f"lead bomber nor more than one altitude below (step 5, 9.2.2); else {name(sq.at)}")
    if wing is not None:
        legal = ", ".join(name(q) for q in placing.formation_squares(state, sq))
        lines.append(f"#   PLACE {sq.id} <square>: in formation with the Wing Leader's squadron of {wing['name']} "
                     f"(step 6): {legal}; else {name(sq.at)}")
    if not lines:
        lines.append("#   its square and heading are the order of battle's (steps 2-3)")
    return lines


def _tally_lines(v: View, state: State, sq: Squadron) -> list[str]:
    """A tally kept may be dropped [7.2.2]; else the targets it may tally and what each needs, the best
    odds suggested, or why it can tally nobody [7.2]."""
    targets = v["tally_targets"].get(sq.id)
    if sq.tally:
        return [f"#   keeps its tally; DROP {sq.id} to give it up (7.2.2)"]
    if not targets:
        why = tally.may_tally(sq, state) or "no enemy within 9 squares in sight (7.2)"
        return [f"#   no tally possible: {why}"]
    best = min(targets, key=lambda t: targets[t])
    legal = ", ".join(f"{t} needs {n}+" for t, n in targets.items())
    return [f"#   may tally: {legal}", f"TALLY {sq.id} {best}"]


def _move_lines(state: State, sq: Squadron) -> list[str]:
    """A pursuer pursues by default and a free mover moves freely [9.2.7]; anything else flies its mission,
    with the plain orders it may give instead, and an escort learns whether it may react [10.4]."""
    if sq.dogfight:
        moves = ", ".join(name(to) for to in dogfight.stack_moves(sq.at) if to != sq.at)
        return [f"#   in a dogfight: the stack moves as one, for the side a d6 picks (1-3 Raider, 4-6 Defender); "
                f"it stays unless that side's STACK {sq.id} <square> names one of {moves} (10.8.2)"]
    if sq.tally and not sq.broken:
        return [f"#   free movement with {movement.allowance(sq)} MP (9.2.7); by default it pursues", f"PURSUE {sq.id}"]
    if free_mover(state, sq) is None:
        return [f"#   free movement with {movement.allowance(sq)} MP (9.2.7): MOVE {sq.id} <squares>"]
    verbs = [v for v in ("SWEEP", "CIRCLE", "RTB") if plain_problem(state, sq, v) is None]
    lines = [f"#   {allowed_moves(sq)}" + (f"; orders: {', '.join(verbs)}" if verbs else "")]
    return (lines + [_reaction_line(state, sq)]) if sq.mission == "escort" else lines


def _reaction_line(state: State, sq: Squadron) -> str:
    """The bombers the escort may react for now [10.4] with the 2d6 it needs (success, late), or that it
    may react for none."""
    table = tables()["reaction"]
    need = {b.id: (table["success_from"] - reaction.modifier(state, sq, b), table["late_from"] - reaction.modifier(state, sq, b))
            for b in state.of_side(sq.side) if b.on_map and not b.fighter and sq in reaction.eligible(state, b)}
    odds = ", ".join(f"{b} (2d6 {s}+, late {late}+)" for b, (s, late) in need.items())
    split = (f"; REACT {sq.id} SPLIT sends one flight, 10.4.2" if not sq.flight
             and sq.side in scenario(state.scenario).get("flexibility", ()) else "")
    return (f"#   may react for {odds} (10.4; REACT {sq.id} NO holds it back{split})" if need
            else "#   may react for no bomber now: none within 3 squares, at most one altitude below it and in sight (10.4)")


def outcome(state: State) -> Outcome | None:
    if not state.flow.over:
        return None
    vp = points(state)
    a, b = (vp[s] for s in SIDES)
    winner = None if a == b else SIDES[0] if a > b else SIDES[1]
    return Outcome(winner, f"{winner or 'nobody'} wins on victory points {a}-{b} (12.1)", dict(vp))


def bot_orders(v: View, seat: str, dice: Dice) -> str:
    """Tally each target it can with the best odds; in movement, let missions and PURSUE do the rest,
    sometimes seeking dogfights and leaving the rating to an interrupt (so bot games exercise them)."""
    if v["asking"]:
        return "".join(answer_line(a, a["choices"][dice.roll(len(a["choices"]), why="bot answer", seen_by=()) - 1])
                       + "\n" for a in v["asks"])
    lines: list[str] = []
    rolling: list[str] = []
    if v["step"] in SETUP_STEPS + ARRIVAL_STEPS:
        return "".join(f"{line}\n" for line in _bot_setup(v, seat, lambda n, why: dice.roll(n, why=why, seen_by=())))
    if v["step"] == "wings":   # sometimes claim a formation of the side (so bot games exercise the choice)
        ours = sorted(s["id"] for s in v["squadrons"] if s["side"] == v["side"])
        pick = dice.roll(len(ours) + 1, why="bot wings", seen_by=())
        return f"WINGS {ours[pick - 1]}\n" if pick <= len(ours) else ""
    if v["step"] in ("raider_tally", "defender_tally", "tallies", "turn"):
        tallying = {s["id"] for s in v["squadrons"] if s["tally"]}
        for sid, targets in sorted(v["tally_targets"].items()):
            if targets and sid not in tallying:
                lines.append(f"TALLY {sid} {min(sorted(targets), key=lambda t: targets[t])}")
                rolling.append(sid)
                me = next(s for s in v["squadrons"] if s["id"] == sid)
                if v["flexible"] and not (me["flight"] or me["disruption"]) and \
                        dice.roll(3, why="bot split", seen_by=()) == 1:
                    lines.append(f"IF TALLYING {sid} THEN SPLIT {sid}")
    if v["step"] in ("movement", "turn"):
        lines += _bot_moves(v, seat, dice, rolling)
        if v.get("surfaces"):   # advanced rule 14 only: sometimes move a Barrage marker or aim flak
            lines += flak.bot_lines(position(v), side_of(seat), lambda n, why: dice.roll(n, why=why, seen_by=()))
    return "".join(f"{line}\n" for line in lines)


def _bot_setup(v: View, seat: str, roll: Any) -> list[str]:
    """Set-up choices now and then, so bot games exercise them [5.2.1, 5.3, 5.3.1]: one kind of marker
    moved onto the last eligible squadrons, wing squadrons and Intercepts' vectors placed at random."""
    state = position(v)
    enemies = sorted((s for s in state.squadrons if s.side != side_of(seat) and s.on_map), key=lambda s: s.id)
    if v["step"] in ARRIVAL_STEPS:
        return [f"VECTOR {sq.id} {name(enemies[roll(len(enemies), 'bot vector') - 1].at)}"
                for sq in placing.arriving_intercepts(state, v["turn"], side_of(seat))
                if owner(sq) == seat and enemies and roll(2, "bot arrival vector") == 1]
    lines = []
    kind = ("VETERAN", "GREEN", "EXPERTE", "")[roll(4, "bot markers") - 1]
    if kind and placing.markers_of(state, seat, kind):
        other = {"VETERAN": "GREEN", "GREEN": "VETERAN", "EXPERTE": ""}[kind]
        fit = [s.id for s in state.of_seat(seat) if not (other and placing.carries(s, other))
               and (kind != "EXPERTE" or s.fighter)]
        lines.append(" ".join([kind, *fit[-len(placing.markers_of(state, seat, kind)):]]))
    placed = False   # one wing squadron a file: each square is checked with the others where they stand
    for sq in state.of_seat(seat):
        if not sq.on_map or roll(2, "bot set-up") == 2:
            continue
        if sq.mission != "escort" and placing.wing_of_member(state, sq) is not None:
            squares = placing.formation_squares(state, sq)
            if squares and not placed:
                lines.append(f"PLACE {sq.id} {name(squares[roll(len(squares), 'bot wing square') - 1])}")
                placed = True
        elif sq.mission == "intercept" and placing.wing_of_member(state, sq) is None and enemies:
            lines.append(f"VECTOR {sq.id} {name(enemies[roll(len(enemies), 'bot vector') - 1].at)}")
    return lines


def _bot_moves(v: View, seat: str, dice: Dice, rolling: list[str]) -> list[str]:
    state = position(v)
    lines = [] if v["standing"] else [("DOGFIGHT SEEK", "DOGFIGHT ASK", "")[dice.roll(3, why="bot dogfight",
                                                                                     seen_by=()) - 1]]
    if not v["standing"]:   # sometimes leave leads, hits and dogfight tallies to interrupts too
        lines += [f"{key} ASK" for key in ("LEADS", "HITS", "RETALLY") if dice.roll(4, why="bot ask", seen_by=()) == 1]
    lines = [line for line in lines if line]
    for s in state.of_seat(seat):
        if s.on_map and s.mission == "escort" and not v["standing"] and dice.roll(2, why="bot react", seen_by=()) == 1:
            lines.append(f"REACT {s.id} ASK")   # sometimes leave the reaction to an interrupt
        if s.on_map and not v["standing"] and state.uses("13.4.2"):   # evade when it may, or be asked [13.4.2]
            lines.append(f"EVADE {s.id} {('ASK', 'YES')[dice.roll(2, why='bot evade', seen_by=()) - 1]}")
        if s.on_map and s.dogfight:
            lines.append(f"STACK {s.id} STAY")
        elif s.on_map and s.tally and not s.broken:
            lines.append(f"PURSUE {s.id}")
            if dice.roll(4, why="bot tactic", seen_by=()) == 1:   # sometimes leave the rating to an interrupt
                lines.append(f"TACTIC {s.id} ASK")
        elif s.id in rolling:
            lines.append(f"IF TALLYING {s.id} THEN PURSUE {s.id}")
        if s.on_map and v["turn"] == 1:
            lines += _bot_attack(state, s, dice)
        if s.on_map and s.mission == "sweep" and state.uses("14.3") and not s.tally:
            lines += balloons.bot_lines(state, s, dice.roll(2, why="bot balloon", seen_by=()))
    return lines + _bot_rule13(state, seat, dice)


def _bot_rule13(state: State, seat: str, dice: Dice) -> list[str]:
    """The bot's orders of 13.1 (vectors and altitude errors) and 13.8.2 (power settings); no dice are
    rolled in scenarios without them, so the other games stay as they were."""
    def roll(n: int, why: str) -> int:
        return dice.roll(n, why=why, seen_by=())
    return altitude_error.bot_lines(state, state.of_seat(seat), roll) + rocket_fighter.bot_lines(
        list(state.of_seat(seat)), roll) + lufbery.bot_lines(state, list(state.of_seat(seat)), roll)


def _bot_attack(state: State, sq: Squadron, dice: Dice) -> list[str]:
    """On turn 1, one time in three, a bomber with a choice makes another attack its owner may order [15.3]."""
    if not (bomb_forms.flying_to_target(state, sq) and sq.bombs):
        return []
    others = bomb_forms.other_attacks(state, sq)
    if not others or dice.roll(3, why="bot attack", seen_by=()) != 1:
        return []
    pick = others[0] if len(others) == 1 else others[dice.roll(len(others), why="bot attack kind", seen_by=()) - 1]
    return [f"ATTACK {sq.id} {pick}"]
