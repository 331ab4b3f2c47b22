"""The order form and the scripted bot: both read only the view (open information)."""
from __future__ import annotations

from pbem.core.texts import join, t_
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


_MOVE_USAGE = "# MOVE <unit> <hex> ... [FACE <dir>] | FACE <unit> <dir> | HOLD <unit>"
# the steps as the form's head names them (the sitrep's templates name them alike)
_STEPS = {"deploy": t_("deploy"), "move-first": t_("move-first"), "move-second": t_("move-second"),
          "move-both": t_("move-both"), "move-alternate": t_("move-alternate"), "attack": t_("attack"),
          "initiative": t_("initiative"), "react": t_("react")}


def _c(text: str) -> str:
    """A comment line of the form (the "# " stays in every language)."""
    return t_("# %(text)s", text=text)


def _unit_lines(view: View, unit: Unit) -> list[str]:
    state = [s for s, on in ((t_("Disrupted"), unit.disrupted), (t_("Damaged"), unit.damaged)) if on]
    states = t_(", %(states)s", states=join(", ", state)) if state else ""
    down = t_(", face-down %(markers)s", markers=join(" ", [combat.marker(p) for p in unit.pending])) if unit.pending else ""
    lines = [_c(t_("%(unit)s: %(name)s at %(hex)s facing %(face)s, speed %(speed)s%(states)s%(down)s; may %(verbs)s",
                   unit=unit.id, name=unit.stats.name, hex=hex_name(unit.hex), face=NAMES[unit.facing],
                   speed=speed(unit), states=states, down=down, verbs=_verbs(view, unit)))]
    friends = [u for u in units_of(view) if u.side == unit.side]
    lines += [t_("#    sees %(preview)s", preview=attack_preview(unit, t, friends, view['advanced']))
              for t in legal_targets(view, unit)]
    return lines


def _obstacle_effect(kind: str) -> str:
    piece = obstacle_chart()[kind]
    said = [_KIND_SAID[k][0] if k in _KIND_SAID else f"{k}s may not enter" for k in piece.impassable]
    said += [t_("+%(n)s for %(kinds)s", n=n, kinds=_KIND_SAID[k][1]) if k in _KIND_SAID else f"+{n} for {k}s"
             for k, n in piece.extra_cost.items() if n and k not in piece.impassable]
    said += [_KIND_SAID[k][2] if k in _KIND_SAID else f"a {k}'s move ends there" for k in piece.ends_move]
    return t_(" (%(effects)s)", effects=join(", ", said)) if said else ""


# per kind of unit: "may not enter", the plural for an extra cost, "move ends there" (whole sentences, to translate)
_KIND_SAID = {"vehicle": (t_("vehicles may not enter"), t_("vehicles"), t_("a vehicle's move ends there")),
              "soldier": (t_("soldiers may not enter"), t_("soldiers"), t_("a soldier's move ends there"))}


def _ability_lines(view: View, side: str) -> list[str]:
    """The glossary entry of each special ability the side's units have (the glossary is lost: data)."""
    rows = [*view["units"], *view["cargo"], *view["reserve"]]
    held = sorted({a for r in rows if r["side"] == side for a in cards()[r["card"]].abilities})
    glossary = abilities()
    return [t_("# ability %(title)s (%(ref)s): %(effect)s", title=_marked(glossary[a]["title"]), ref=glossary[a]["ref"],
               effect=_marked(glossary[a]["effect"])) for a in held]


def _marked(said: str) -> str:
    """A glossary text of units.toml as a marked message when it is one of :data:`_GLOSSARY` (else as it is)."""
    return next((m for m in _GLOSSARY if m == said), said)


# units.toml's glossary texts, marked here so that the catalog holds them (the data stays the authority: a text
# changed there and not here is shown in English)
_GLOSSARY = (
    t_("Crack Shot"), t_("+1 to every attack die (a reading: every other modifier is per die), never against an aircraft"),
    t_("Double Shot"),
    t_("ATTACK <unit> <t1> AND <t2> (two attacks, the same or another target) or ATTACK <unit> <t> GRAZE"),
    t_("Anti-aircraft (AA)"),
    t_("may attack aircraft as artillery; fires Disrupt-only at an enemy aircraft striking from its hex or next to it "
       "(standing AA); never takes the -1 against an aircraft (tables.toml [readings] aa_shooters_exempt)"),
    t_("Transport"),
    t_("LOAD <unit> INTO <transport> and UNLOAD <unit> [AT <hex>]; one rider (placeholder capacity), lost with its "
       "transport (placeholder)"),
)


def order_form(view: View, seat: str) -> str:
    you, seat = seat, view.get("side", seat)  # below, ``seat`` is the side; what ``you`` command comes from the view
    head = [_c(t_("Axis & Allies Miniatures, %(scenario)s, turn %(turn)s of %(last)s: %(step)s (%(first)s moves first "
                  "this turn). You are %(you)s.", scenario=view['scenario'], turn=view['turn'], last=view['last_turn'],
                  step=_STEPS.get(view['step'], view['step']), first=view['first'], you=you))]
    if view.get("command"):
        partner = ", ".join(s for s in view["seats"] if s != you)
        mine = ", ".join(sorted(u for u, s in view['command'].items() if s == you)) or t_("nothing")
        head.append(_c(t_("You command %(units)s; %(partner)s commands the rest of your side (HAND <unit> TO <seat> "
                          "passes one over).", units=mine, partner=partner)))
    if not _awaited(view, seat):
        return join("\n", [*head, _c(t_("Nothing to order in this phase.")), ""])
    if view["step"] == "deploy" and placing(view, seat):
        return join("\n", [*head, *_placing_lines(view, seat), ""])
    if view["step"] == "deploy":
        return join("\n", [*head, *_army_lines(view, seat), *army(view, seat), ""])
    if view["asking"]:
        default = view["asking"]["default"]
        return join("\n", [*head, _c(view['asking']['question']), _c(t_("Silence answers %(answer)s.", answer=default)),
                            default, ""])
    own = [u for u in units_of(view) if u.side == seat and commanded(view, u.id)]
    body = [line for u in own for line in _unit_lines(view, u)]
    body += [_c(t_("%(unit)s: %(name)s aboard %(carrier)s; may UNLOAD", unit=c['id'], name=c['name'], carrier=c['aboard']))
             for c in view["cargo"]
             if c["side"] == seat and commanded(view, c["id"])]
    if view["step"] == "attack":
        body += [_c(t_("%(unit)s: %(name)s off the map, Disrupted; may AIR", unit=p['id'], name=p['name']) if p['disrupted']
                    else t_("%(unit)s: %(name)s off the map; may AIR", unit=p['id'], name=p['name']))
                 for p in view["reserve"] if p["side"] == seat and commanded(view, p["id"])]
    body += [_c(t_("obstacle: %(name)s in %(hex)s%(effect)s", name=o['name'], hex=o['hex'], effect=_obstacle_effect(o['kind'])))
             for o in view.get("obstacles", ())]
    body += _ability_lines(view, seat)
    body += [_c(t_("last seen: %(side)s %(unit)s (%(name)s) in %(hex)s facing %(face)s on turn %(turn)s", side=g['side'],
                   unit=g['id'], name=g['name'], hex=g['hex'], face=g['facing'], turn=g['turn']))
             for g in view.get("last_known", ())]
    kept = [f"#   {s['text']}" for s in view["standing"]] or [t_("#   none")]
    usage = ("# AIR <aircraft> AT <hex> ATTACK <target> [FACE <dir>] | ATTACK <unit> <target> [AND <target>|GRAZE]"
             " | MOVE <unit> <hex> ... [FACE <dir>] | FACE <unit> <dir> | HOLD <unit>"
             " | IF LIVE <unit> THEN ... ELSE ..." if view["step"] == "attack"
             else t_("%(usage)s | IF AT|DISRUPTED|LIVE <unit> ... THEN ... ELSE ... (one entry of each side in turn)",
                     usage=_MOVE_USAGE) if view["step"] == "move-alternate" else _MOVE_USAGE)
    return join("\n", [*head, *body, _c(t_("Standing orders in force:")), *kept, usage, *[f"HOLD {u.id}" for u in own], ""])


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
    return ([_c(t_("Sealed army build: up to %(points)s points, set up in %(n)s hexes of your zone (%(low)s to %(high)s).",
                   points=view['points'], n=len(places), low=min(hex_name(h) for h in places),
                   high=max(hex_name(h) for h in places)))]
            + [t_("#   %(card)s: %(name)s, %(kind)s, %(cost)s points", card=k, name=c.name, kind=combat.kind_word(c.kind),
                  cost=c.cost) for k, c in cards().items() if c.side == seat]
            + [_c(t_("A suggestion follows; change it as you like."))])


def _placing_lines(view: View, seat: str) -> list[str]:
    places = zone(view, seat)
    return ([_c(t_("Sealed deployment: the other side does not see where you set up. PLACE <unit> AT <hex> [FACE <dir>] "
                   "in your zone (%(low)s to %(high)s); a unit not placed stays where the scenario puts it.",
                   low=min(hex_name(h) for h in places), high=max(hex_name(h) for h in places)))]
            + [t_("#   %(unit)s: %(name)s at %(hex)s facing %(face)s", unit=u.id, name=u.stats.name, hex=hex_name(u.hex),
                  face=NAMES[u.facing])
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
