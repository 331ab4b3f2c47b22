"""The order form and the scripted bot: both read only the view (open information)."""
from __future__ import annotations

from pbem.core.dice import Dice
from pbem.core.errors import OrderError
from pbem.core.hexgrid import NAMES, distance, neighbours
from pbem.core.verbs import View

from . import combat
from .board import hex_name, obstacle_chart, parse_hex, view_board
from .ingest import placing
from .preview import attack_preview
from .model import Unit
from .movement import path_problem, placement_problem, speed
from .parsers import budget as points_of, commanded, legal_targets, overwatch_limit, parse_air, reserve_of, units_of, zone
from .tables import abilities, cards


def _awaited(view: View, seat: str) -> bool:
    step = view["step"]
    if step == "react":
        return view["asking"] is not None
    return step in ("attack", "move-both", "move-alternate", "deploy") or (step == "move-first") == (view["first"] == seat)


def _verbs(view: View, unit: Unit) -> str:
    verbs = ["HOLD"] if unit.disrupted else ["MOVE", "FACE", "HOLD"]
    if view["step"] == "attack" and legal_targets(view, unit):
        verbs.insert(0, "ATTACK")
    return " ".join(verbs)


def _unit_lines(view: View, unit: Unit) -> list[str]:
    state = [s for s, on in (("Disrupted", unit.disrupted), ("Damaged", unit.damaged)) if on]
    lines = [f"# {unit.id}: {unit.stats.name} at {hex_name(unit.hex)} facing {NAMES[unit.facing]}, "
             f"speed {speed(unit)}{', ' + ', '.join(state) if state else ''}"
             f"{', face-down ' + ' '.join(unit.pending) if unit.pending else ''}; may {_verbs(view, unit)}"]
    friends = [u for u in units_of(view) if u.side == unit.side]
    lines += [f"#    sees {attack_preview(unit, t, friends, view['advanced'])}" for t in legal_targets(view, unit)]
    return lines


def _obstacle_effect(kind: str) -> str:
    piece = obstacle_chart()[kind]
    said = [f"{k}s may not enter" for k in piece.impassable]
    said += [f"+{n} for {k}s" for k, n in piece.extra_cost.items() if n and k not in piece.impassable]
    said += [f"a {k}'s move ends there" for k in piece.ends_move]
    return f" ({', '.join(said)})" if said else ""


def _ability_lines(view: View, side: str) -> list[str]:
    """The glossary entry of each special ability the side's units have (the glossary is lost: data)."""
    rows = [*view["units"], *view["cargo"], *view["reserve"]]
    held = sorted({a for r in rows if r["side"] == side for a in cards()[r["card"]].abilities})
    glossary = abilities()
    return [f"# ability {glossary[a]['title']} ({glossary[a]['ref']}): {glossary[a]['effect']}" for a in held]


def order_form(view: View, seat: str) -> str:
    you, seat = seat, view.get("side", seat)  # below, ``seat`` is the side; what ``you`` command comes from the view
    head = [f"# Axis & Allies Miniatures, {view['scenario']}, turn {view['turn']} of {view['last_turn']}: "
            f"{view['step']} ({view['first']} moves first this turn). You are {you}."]
    if view.get("command"):
        partner = ", ".join(s for s in view["seats"] if s != you)
        head.append(f"# You command {', '.join(sorted(u for u, s in view['command'].items() if s == you)) or 'nothing'}"
                    f"; {partner} commands the rest of your side (HAND <unit> TO <seat> passes one over).")
    if not _awaited(view, seat):
        return "\n".join(head + ["# Nothing to order in this phase."]) + "\n"
    if view["step"] == "deploy" and placing(view, seat):
        return "\n".join(head + _placing_lines(view, seat)) + "\n"
    if view["step"] == "deploy":
        return "\n".join(head + _army_lines(view, seat) + army(view, seat)) + "\n"
    if view["asking"]:
        default = view["asking"]["default"]
        return "\n".join(head + [f"# {view['asking']['question']}", f"# Silence answers {default}.", default]) + "\n"
    own = [u for u in units_of(view) if u.side == seat and commanded(view, u.id)]
    body = [line for u in own for line in _unit_lines(view, u)]
    body += [f"# {c['id']}: {c['name']} aboard {c['aboard']}; may UNLOAD" for c in view["cargo"]
             if c["side"] == seat and commanded(view, c["id"])]
    if view["step"] == "attack":
        body += [f"# {p['id']}: {p['name']} off the map{', Disrupted' if p['disrupted'] else ''}; may AIR"
                 for p in view["reserve"] if p["side"] == seat and commanded(view, p["id"])]
    body += [f"# obstacle: {o['name']} in {o['hex']}{_obstacle_effect(o['kind'])}" for o in view.get("obstacles", ())]
    body += _ability_lines(view, seat)
    body += [f"# last seen: {g['side']} {g['id']} ({g['name']}) in {g['hex']} facing {g['facing']} on turn {g['turn']}"
             for g in view.get("last_known", ())]
    kept = [f"#   {s['text']}" for s in view["standing"]] or ["#   none"]
    usage = ("# AIR <aircraft> AT <hex> ATTACK <target> [FACE <dir>] | ATTACK <unit> <target> [AND <target>|GRAZE]"
             " | MOVE <unit> <hex> ... [FACE <dir>] | FACE <unit> <dir> | HOLD <unit>"
             " | IF LIVE <unit> THEN ... ELSE ..." if view["step"] == "attack"
             else "# MOVE <unit> <hex> ... [FACE <dir>] | FACE <unit> <dir> | HOLD <unit>"
             + (" | IF AT|DISRUPTED|LIVE <unit> ... THEN ... ELSE ... (one entry of each side in turn)"
                if view["step"] == "move-alternate" else ""))
    return "\n".join(head + body + ["# Standing orders in force:"] + kept + [usage]
                     + [f"HOLD {u.id}" for u in own]) + "\n"


# ------------------------------------------------------------------------------------------- bot
def _step_toward(view: View, unit: Unit, foes: list[Unit]) -> str | None:
    """One legal step nearer the nearest enemy or, once next to it, round it (towards its flank and
    rear, provoking its defensive fire); None if there is none."""
    if not foes or unit.disrupted:
        return None
    foe = min(foes, key=lambda f: (distance(unit.hex, f.hex), f.id))
    goal = foe.hex
    now = distance(unit.hex, goal)
    want = 1 if now == 1 else now - 1
    units = units_of(view)
    options = sorted(hex_name(h) for h in neighbours(unit.hex) if distance(h, goal) == want
                     and path_problem(view_board(view), units, unit, [h]) is None)
    if not options:
        return None
    if view["step"] == "move-alternate" and any(u.id == foe.id for u in units):
        # alternating moves: go on only if the enemy is still where the step was planned from
        return f"IF AT {foe.id} {hex_name(goal)} THEN MOVE {unit.id} {options[0]} ELSE HOLD {unit.id}"
    return f"MOVE {unit.id} {options[0]}"


def _best_target(view: View, unit: Unit) -> list[Unit]:
    def expected(t: Unit) -> float:
        p = combat.hit_chances(unit.stats.dice(t.stats.kind, combat.band(unit.hex, t.hex) or "close"),
                               combat.die_modifier(unit, t),
                               combat.defence(t, combat.facing_defence(t, unit.hex, advanced=view["advanced"])))
        return p[1] + 2 * p[2] + 3 * p[3]
    return sorted(legal_targets(view, unit), key=lambda t: (-expected(t), t.id))


def bot_orders(view: View, seat: str, dice: Dice) -> str:
    """A simple player: it asks to be consulted on reaction fire (and then always fires), puts idle guns
    on Overwatch, steps each other unit toward the nearest enemy in movement, and in the attack window
    fires each unit at its best target, falling back to the next best if that one is doomed."""
    seat = view.get("side", seat)  # the side; what this seat commands comes from the view
    if not _awaited(view, seat):
        return ""
    if view["step"] == "deploy":
        return "" if placing(view, seat) else "\n".join(army(view, seat)) + "\n"  # the bot keeps the scenario's places
    if view["asking"]:
        return view["asking"]["choices"][-2] + "\n"  # FIRE TO (or FIRE): the bot always fires
    lines: list[str] = [] if view["standing"] else ["DF ALL ASK", "OW ALL ASK", "INITIATIVE ASK"]  # meet the windows
    lines += _attack_lines(view, seat) if view["step"] == "attack" else _manoeuvre_lines(view, seat)
    return "\n".join(lines) + "\n"


def _manoeuvre_lines(view: View, seat: str) -> list[str]:
    """Outside the attack window: idle guns with nothing in range go on Overwatch while the limit allows;
    every other unit closes in, so that reaction fire and cover come into play, or holds."""
    own = [u for u in units_of(view) if u.side == seat and commanded(view, u.id)]
    foes = [u for u in units_of(view) if u.side != seat] or _glimpsed(view)
    watching = sum(1 for u in units_of(view) if u.side == seat and u.overwatch is not None)
    lines = []
    for unit in own:
        if watching < overwatch_limit(view, seat) and _idle_gun(view, unit):
            watching += 1
            lines.append(f"OVERWATCH {unit.id} {NAMES[unit.facing]}")
        else:
            lines.append(_step_toward(view, unit, foes) or f"HOLD {unit.id}")
    return lines


def _glimpsed(view: View) -> list[Unit]:
    """In fog with no enemy in sight: the enemies where they were last seen (the bot goes looking)."""
    return [Unit(g["id"], g["card"], g["side"], h, NAMES.index(g["facing"]))
            for g in view.get("last_known", ()) if (h := parse_hex(g["hex"])) is not None]


def _idle_gun(view: View, unit: Unit) -> bool:
    """An artillery unit in good order, not yet on Overwatch, with no target it could fire at now."""
    return (unit.stats.kind == "artillery" and unit.overwatch is None and not unit.disrupted
            and not _best_target(view, unit))


def _attack_lines(view: View, seat: str) -> list[str]:
    """In the attack window: each unit fires at its best target (or holds), then each aircraft in reserve
    strikes where the rules accept it."""
    lines = [_attack_line(unit, _best_target(view, unit)) for unit in units_of(view)
             if unit.side == seat and commanded(view, unit.id)]
    return lines + [s for s in (_strike(view, seat, p) for p in reserve_of(view)
                                if p.side == seat and commanded(view, p.id)) if s]


def _attack_line(unit: Unit, targets: list[Unit]) -> str:
    """Fire at the best target, falling back to the next best if that one is already destroyed."""
    if not targets:
        return f"HOLD {unit.id}"
    if len(targets) == 1:
        return f"ATTACK {unit.id} {targets[0].id}"
    return (f"IF LIVE {targets[0].id} THEN ATTACK {unit.id} {targets[0].id} "
            f"ELSE ATTACK {unit.id} {targets[1].id}")


def _strike(view: View, seat: str, plane: Unit) -> str | None:
    """An air strike from a hex next to the nearest enemy ground unit that the rules accept, or None."""
    for foe in sorted((u for u in units_of(view) if u.side != seat and u.stats.ground), key=lambda u: u.id):
        for h in neighbours(foe.hex):
            line = f"AIR {plane.id} AT {hex_name(h)} ATTACK {foe.id}"
            try:
                parse_air(tuple(line.split()[1:]), view, seat)
            except OrderError:
                continue
            return line
    return None


# ------------------------------------------------------------------------------------ army build
def _army_lines(view: View, seat: str) -> list[str]:
    places = zone(view, seat)
    return ([f"# Sealed army build: up to {view['points']} points, set up in {len(places)} hexes of your zone "
             f"({min(hex_name(h) for h in places)} to {max(hex_name(h) for h in places)})."]
            + [f"#   {k}: {c.name}, {c.kind}, {c.cost} points" for k, c in cards().items() if c.side == seat]
            + ["# A suggestion follows; change it as you like."])


def _placing_lines(view: View, seat: str) -> list[str]:
    places = zone(view, seat)
    return ([f"# Sealed deployment: the other side does not see where you set up. PLACE <unit> AT <hex> "
             f"[FACE <dir>] in your zone ({min(hex_name(h) for h in places)} to {max(hex_name(h) for h in places)});"
             " a unit not placed stays where the scenario puts it."]
            + [f"#   {u.id}: {u.stats.name} at {hex_name(u.hex)} facing {NAMES[u.facing]}"
               for u in units_of(view) if u.side == seat and commanded(view, u.id)])


def army(view: View, seat: str) -> list[str]:
    """A legal army: the dearest cards first while the points last, one unit per hex of the zone
    nearest the enemy, aircraft off the map."""
    budget, lines = points_of(view), []
    places = sorted(zone(view, seat), key=lambda h: (hex_name(h)[1:].zfill(3), hex_name(h)),
                    reverse=seat != "allies")  # the allies set up at the bottom of the map
    for key, card in sorted(((k, c) for k, c in cards().items() if c.side == seat), key=lambda kc: -kc[1].cost):
        fits = [h for h in places if placement_problem(view_board(view), (), Unit(key, key, seat, h, 0), h) is None]
        if card.cost > budget or (card.ground and not fits):
            continue
        budget -= card.cost
        if card.ground:
            places.remove(fits[0])
        lines.append(f"BUY {key} AT {hex_name(fits[0])}" if card.ground else f"BUY {key}")
    return lines
