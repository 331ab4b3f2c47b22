"""Setting up a game: seats, ground objects, initiative, aircraft selection, deployment [3]."""
from __future__ import annotations

from pbem.core.errors import RulesetDefinitionError
from pbem.core.flow import Flow
from pbem.core.ruleset import Seat
from pbem.core.work import Work

from . import tables
from .damage import draw_into
from .movement import entry_cells, place
from .plan import per_round
from .rulebook import cite_text
from .standing import RULES, OnPursuit, React, ReactDefault, SequenceOrder
from .state import Game, other_side
from .step_verbs import Deploy, Ground, Pick, last
from .asks import ask, first_flow
from .turn import advance
from pbem.core.texts import join, t_
from .terms import word

PREFIX = {"coalition": "c", "axis": "x"}
GROUND_IDS = ("cp", "dp", "aa")


def seats_per_side(players: int) -> dict[str, int]:
    """Players split equally [L307]; an odd count (a house variant) gives the coalition the extra player."""
    return {"coalition": (players + 1) // 2, "axis": players // 2}


def make_seats(players: int) -> list[dict]:
    """Seats per player [L307]: coalition-1, axis-1, coalition-2, ..."""
    per = seats_per_side(players)
    out = []
    for i in range(1, max(per.values()) + 1):
        for side in tables.SIDES:
            if i <= per[side]:
                out.append({"name": f"{side}-{i}", "side": side,
                            "title": f"{side.capitalize()} player {i}" if per[side] > 1 else side.capitalize()})
    return out


def new_game(scenario: str, options: dict, dice) -> Game:
    """The initial position, up to the first decision owed [S0-S10]."""
    players, n = options["players"], options["aircraft"]
    most = max(seats_per_side(players).values())
    if n < most:
        raise RulesetDefinitionError(f"{most} players a side need at least as many aircraft a side "
                                     f"(each player controls 1-3 aircraft) [L307]; aircraft={n}")
    sc = tables.scenarios()[scenario]
    seats = make_seats(players)
    doc = {
        "scenario": scenario, "options": dict(options), "round": 0,
        "seats": seats, "initiative": None, "last_side": None,
        "deck": [], "discard": [], "aircraft": {},
        "ground": {s: [{"slot": list(c), "obj": None, "damage": 0, "destroyed": False}
                       for c in tables.board().ground_slots[s]] for s in tables.SIDES},
        "revealed": False, "cp_used": {s: False for s in tables.SIDES}, "dp": {s: None for s in tables.SIDES},
        "vp": {s: 0 for s in tables.SIDES},
        "selection": {s: {"candidates": [], "keep": n} for s in tables.SIDES},
        "turn": None, "over": None,
    }
    # set-up runs outside the step table: a Work of its own collects (and drops) its events
    g = Game(doc, Work(Flow("setup", 0), [Seat(s["name"], s["side"], s["title"]) for s in seats], dice))
    everyone = g.all_seats
    coin = g.work.roll(2, why=cite_text(t_("initiative (coin toss) %(ref)s", ref="[L285]")), seen_by=everyone)
    doc["initiative"] = tables.SIDES[coin - 1]
    g.say(t_("%(side)s wins the initiative for the whole game %(ref)s", side=word(doc['initiative']), ref="[L285]"),
          kind="setup")
    doc["deck"] = list(g.work.shuffle(tables.deck_cards(False), why=cite_text(t_("shuffle the combat deck without events %(ref)s", ref="[L315]"))))
    if per_round(options):
        round_defaults(g)
    if sc["preset"]:
        preset(g, sc)
    else:
        choose(g, options)
    doc["flow"] = first_flow(g).dump()
    return g


#: The standing orders every seat starts with in the round cadence, so that no window opens unless a
#: player asks for one: defend with any card that turns the outcome, pursue when it costs no extra card.
ROUND_DEFAULTS = (React("*", "*"), ReactDefault("pass"), OnPursuit("*", "free"))


def round_defaults(g: Game) -> None:
    for s in g.doc["seats"]:
        g.work.standing = RULES.apply(g.work.standing, s["name"], s["side"], list(ROUND_DEFAULTS))[0]


def choose(g: Game, options: dict) -> None:
    """Number cards are drawn (or the whole roster offered); the captains are asked [L267-275]."""
    doc, n = g.doc, options["aircraft"]
    mode = options["selection"]
    for side in tables.SIDES:
        numbers = sorted(tables.roster()[side])
        if mode == "free":
            doc["selection"][side]["candidates"] = numbers
            continue
        drawn = list(g.work.shuffle(numbers, why=cite_text(t_("%(side)s number cards %(ref)s", side=word(side), ref="[L271, L275]")), seen_by=g.seats_of(side)))
        take = n if mode == "random" else 2 * n
        doc["selection"][side]["candidates"] = drawn[:take]
        if mode == "random":
            make_aircraft(g, side, drawn[:take])
    ask(g, "setup", [f"{s}-1" for s in tables.SIDES])


def make_aircraft(g: Game, side: str, numbers) -> None:
    """Aircraft go to the hangars and to the side's players in turn [L311, L313]."""
    seats = g.seats_of(side)
    for i, num in enumerate(numbers):
        aid = f"{PREFIX[side]}{i + 1}"
        g.doc["aircraft"][aid] = {"id": aid, "side": side, "seat": seats[i % len(seats)], "number": num,
                                  "placed": False, "alt": None, "cell": None, "facing": None,
                                  "damaged": False, "destroyed": False, "markers": 0, "hand": [],
                                  "done": False, "attached": [], "rescue": None, "next_discard": []}
    # the side's activation order starts as the hangar order [L325]; SEQUENCE changes it
    sequence = SequenceOrder(tuple(f"{PREFIX[side]}{i + 1}" for i in range(len(numbers))))
    g.work.standing = RULES.apply(g.work.standing, g.seats_of(side)[0], side, [sequence])[0]


def preset(g: Game, sc: dict) -> None:
    n = g.opt("aircraft")
    for side in tables.SIDES:
        for slot, obj in zip(g.doc["ground"][side], sc["ground"][side], strict=False):
            slot["obj"] = obj
        make_aircraft(g, side, sc["aircraft"][side][:n])
    order = [other_side(g.doc["initiative"]), g.doc["initiative"]]
    for i in range(n):
        for side in order:
            a = g.ac(f"{PREFIX[side]}{i + 1}")
            alt, x, y, face = sc["deploy"][side][i]
            place(a, alt, (x, y), face)
            draw_into(g, a, g.stats(a).ttx, t_("initial hand %(ref)s", ref="[L317]"))
    start_battle(g)


def resolve_setup(g: Game, orders: dict) -> None:
    """Ground objects face down, then aircraft choice, both sides at once and in secret [S2, S4]."""
    for side in tables.SIDES:
        o = orders.get(f"{side}-1") or ()
        ground, pick = last(o, Ground), last(o, Pick)
        objs = list(ground.objects) if ground else list(GROUND_IDS[:2])
        for slot, obj in zip(g.doc["ground"][side], objs, strict=False):
            slot["obj"] = obj
        g.say(t_("%(side)s lays two ground-object cards face down", side=word(side)), kind="setup")
        if g.opt("selection") != "random":
            sel = g.doc["selection"][side]
            picks = list(pick.numbers) if pick else sel["candidates"][:sel["keep"]]
            make_aircraft(g, side, picks)
        names = ", ".join(f"{a['id']} {g.type_of(a).model} (#{a['number']}, {g.type_of(a).category}, {a['seat']})"
                          for a in g.aircraft(side))
        g.say(t_("%(side)s aircraft in the hangars: %(names)s", side=word(side), names=names), kind="setup")
    next_deploy(g)


def next_deploy(g: Game) -> bool:
    """Open the next deployment step, the side without initiative first, alternating [L317]."""
    left = {s: [a for a in g.aircraft(s) if not a["placed"]] for s in tables.SIDES}
    done = {s: sum(1 for a in g.aircraft(s) if a["placed"]) for s in tables.SIDES}
    first = other_side(g.doc["initiative"])
    order = [first, g.doc["initiative"]]
    side = None
    for s in order:
        if left[s] and (not left[other_side(s)] or done[s] <= done[other_side(s)]):
            side = s
            break
    if side is None:
        return False
    if per_round(g):
        ask(g, "deploy", sorted({a["seat"] for s in tables.SIDES for a in left[s]}), sealed=True)
        return True
    a = left[side][0]
    ask(g, "deploy", [a["seat"]], side=side, ac=a["id"])
    return True


def resolve_deploy(g: Game, p: dict, order: Deploy | None) -> None:
    """Place the aircraft named (the one asked for, ``p``, when none or a wrong one is), draw its hand [L317]."""
    a = g.ac(order.ac if order else p["ac"])
    if a["side"] != p["side"] or a["placed"] or a["seat"] != p["seats"][0]:
        a = g.ac(p["ac"])
    deploy_one(g, a, order)
    if not next_deploy(g):
        start_battle(g)


def resolve_sealed(g: Game, orders: dict) -> None:
    """The sealed deployment: every seat's DEPLOY lines, written unseen by the enemy, are carried out in
    the rulebook's order -- the side without the initiative first, the sides alternating, each side's
    aircraft in hangar order [L317]; an aircraft with no line (or whose cell an earlier one took) goes
    to the first open cell."""
    wanted = {o.ac: o for seat, items in orders.items() for o in items
              if isinstance(o, Deploy) and g.ac(o.ac)["seat"] == seat}
    left = {s: [a for a in g.aircraft(s) if not a["placed"]] for s in tables.SIDES}
    first = other_side(g.doc["initiative"])
    for i in range(max(len(v) for v in left.values())):
        for side in (first, other_side(first)):
            if i < len(left[side]):
                a = left[side][i]
                deploy_one(g, a, wanted.get(a["id"]))
    start_battle(g)


def deploy_one(g: Game, a: dict, order: Deploy | None) -> None:
    alt = order.alt if order else "medium"
    cells = entry_cells(g, a["side"], alt, setup=True)
    if not cells:
        alt = next(x for x in tables.ALTITUDES if entry_cells(g, a["side"], x, setup=True))
        cells = entry_cells(g, a["side"], alt, setup=True)
    want = order.cell if order else None
    cell = want if want in cells else cells[0]
    face = (order.face if order else None) or ("E" if a["side"] == "coalition" else "W")
    place(a, alt, cell, face)
    g.say(t_("%(id)s (%(model)s) enters the battle at %(alt)s altitude, %(x)s,%(y)s facing %(facing)s", id=a['id'],
             model=g.type_of(a).model, alt=word(alt), x=cell[0], y=cell[1], facing=face),
          kind="deploy")
    draw_into(g, a, g.stats(a).ttx, t_("initial hand %(ref)s", ref="[L317]"))


def start_battle(g: Game) -> None:
    """Events join the deck, ground objects are revealed, round 1 begins [S8-S10]."""
    if g.opt("events"):
        g.doc["deck"] = list(g.work.shuffle(g.doc["deck"] + list(tables.deck_cards(True)),
                                          why=cite_text(t_("shuffle the event cards into the deck %(ref)s", ref="[L323]"))))
        g.say(t_("the event cards are shuffled into the rest of the deck %(ref)s", ref="[L323]"), kind="setup")
    g.doc["revealed"] = True
    for side in tables.SIDES:
        objs = join(", ", [t_("%(obj)s at %(x)s,%(y)s", obj=word(tables.ground()[o['obj']].name), x=o['slot'][0],
                              y=o['slot'][1]) for o in g.doc["ground"][side]])
        g.say(t_("%(side)s ground objects revealed: %(objs)s %(ref)s", side=word(side), objs=objs, ref="[L325]"),
              kind="setup")
    g.doc["round"] = 1
    g.work.new_turn()
    g.say(t_("round 1 begins; %(side)s has the initiative %(ref)s", side=word(g.doc['initiative']), ref="[L325]"),
          kind="round")
    advance(g)
