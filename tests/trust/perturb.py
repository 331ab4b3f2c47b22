"""Per-ruleset "perturb hidden" helpers: twin states that differ only in what one seat may not see.

Each helper takes ``(ruleset, state, seat, rnd)`` and returns a list of ``(what, twin)``:
``what`` names the hidden thing changed, ``twin`` is a state loaded through the ruleset's own
``load`` from an edited ``dump``.  Every twin differs from ``state`` (its dump differs), and
the change is one the rules say ``seat`` cannot know:

* duel: the other gunner's post, whether it is dug in, its standing ON_HIT order;
* bismarck: the enemy's standing orders, searches, reports and fuel, where its units really
  are, the order of the blind bags, the German secret VP (until the game ends);
* lew_morski: other seats' standing orders (REACT / RETURNFIRE / AA), and in fog games enemy
  bomb loads, gun jams, off-board schedules, and (for the Germans) the position of British
  aircraft out of sight and AA guns not revealed;
* aa_miniatures: the other side's standing orders; in fog games also the position of an enemy out of
  sight (anywhere in its zone during the sealed set-up) and its markers, what the other side last saw,
  and its aircraft off the map;
* sky_ww2: deck order, the cards in other seats' hands (hand size and malfunction count kept:
  those are public [L196]), the enemy's unrevealed ground objects and selection candidates;
* wing_leader: an enemy seat's standing orders (TACTIC, REACT, DOGFIGHT, CONSENT); the map, the
  Wing Displays and every roll are open [5.2], and allies see each other's standing orders; in fog games
  also where an enemy out of the side's sight flies (within its radar plot), enemy vectors, what the other
  side last saw, enemy arrivals.

The helpers use the rules' geometry to choose a change that stays out of sight; they never
call ``view`` (the function under test).  Helpers live here, not in rules/.
"""
from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import random
from typing import Any, Callable

Twin = tuple[str, Any]
Perturber = Callable[[Any, Any, str, random.Random], list[Twin]]


def _twin(ruleset, data: dict, original: dict, what: str) -> Twin | None:
    if json.dumps(data, sort_keys=True) == json.dumps(original, sort_keys=True):
        return None
    return what, ruleset.load(data)


# ---------------------------------------------------------------------------------------- duel
def perturb_duel(ruleset, state, seat, rnd):
    d = ruleset.dump(state)
    sides = [s.name for s in ruleset.seats(state)]
    foe = 1 - sides.index(seat)
    out = []
    gunner = d["gunners"][foe]
    e = copy.deepcopy(d)
    e["gunners"][foe]["post"] = rnd.choice([p for p in range(1, 6) if p != gunner["post"]])
    out.append(_twin(ruleset, e, d, "the other gunner's post"))
    e = copy.deepcopy(d)
    e["gunners"][foe]["dug"] = not gunner["dug"]
    out.append(_twin(ruleset, e, d, "whether the other gunner is dug in"))
    e = copy.deepcopy(d)  # the kit's standing-order store: rows of [seat, key, text]
    kept = [row for row in e["flow"]["standing"] if row[0] != sides[foe]]
    on_hit = next((row[2] for row in e["flow"]["standing"] if row[0] == sides[foe]), "")
    choice = rnd.choice([x for x in ("", "ON_HIT DIG", "ON_HIT RUN") if x != on_hit])
    e["flow"]["standing"] = kept + ([[sides[foe], "ON_HIT", choice]] if choice else [])
    out.append(_twin(ruleset, e, d, "the other gunner's standing ON_HIT order"))
    return [t for t in out if t]


# ------------------------------------------------------------------------------------ lew_morski
def _keep(doc: dict, seat: str, key: str, value: str) -> None:
    """Keep the standing order ``<key> <value>`` for ``seat`` in the kit's store (rows [seat, key, text])."""
    rows = [row for row in doc["flow"]["standing"] if not (row[0] == seat and row[1] == key)]
    doc["flow"]["standing"] = rows + [[seat, key, f"{key} {value}"]]


def perturb_lew_morski(ruleset, state, seat, rnd):
    from pbem.rules.lew_morski import board, combat

    d = ruleset.dump(state)
    side = seat.split("-")[0]
    fog = dict(d["options"])["visibility"] == "fog" if isinstance(d["options"], list) else \
        d["options"]["visibility"] == "fog"
    out: list[Twin | None] = []
    # other seats' standing orders (even an ally's are its own business: the view lists only yours)
    others = [a for a in d["aircraft"] if a["seat"] != seat and a["status"] != "destroyed"]
    guns = [g for g in d["guns"] if g["seat"] != seat and not g["destroyed"]]
    if others:
        a = rnd.choice(others)
        e = copy.deepcopy(d)
        key, value = rnd.choice([("REACT", v) for v in ("ALWAYS", "NEVER", "ASK", "IF BOMBER", "IF STRENGTH>=3")]
                                + [("RETURNFIRE", v) for v in ("YES", "NO")])
        _keep(e, a["seat"], f"{key} {a['id']}", value)
        out.append(_twin(ruleset, e, d, f"another seat's standing order {key} for {a['id']}"))
    if guns:
        g = rnd.choice(guns)
        e = copy.deepcopy(d)
        kept = {row[1]: row[2] for row in e["flow"]["standing"] if row[0] == g["seat"]}
        _keep(e, g["seat"], f"AA {g['id']}", rnd.choice([v for v in ("AUTO", "BOMBERS", "HOLD")
                                                         if f"AA {g['id']} {v}" != kept.get(f"AA {g['id']}")]))
        out.append(_twin(ruleset, e, d, f"another seat's AA standing order for {g['id']}"))
    if not fog:
        return [t for t in out if t]
    opts = dict(d["options"]) if isinstance(d["options"], list) else d["options"]
    enemies = [(i, a) for i, a in enumerate(d["aircraft"]) if a["side"] != side]
    on_board = [(i, a) for i, a in enemies if a["status"] == "board"]
    if on_board:
        i, a = rnd.choice(on_board)
        e = copy.deepcopy(d)
        e["aircraft"][i]["bombs"] = rnd.choice([b for b in (0, 1, 2) if b != a["bombs"]])
        out.append(_twin(ruleset, e, d, f"enemy {a['id']}'s bomb load"))
        e = copy.deepcopy(d)
        e["aircraft"][i]["jammed"] = not a["jammed"]
        out.append(_twin(ruleset, e, d, f"whether enemy {a['id']}'s guns are jammed"))
    off = [(i, a) for i, a in enemies if a["status"] == "off" and a["return_stage"] > d["flow"]["turn"]]
    if off:
        i, a = rnd.choice(off)
        e = copy.deepcopy(d)
        e["aircraft"][i]["return_stage"] = a["return_stage"] + rnd.randint(1, 3)
        out.append(_twin(ruleset, e, d, f"when off-board enemy {a['id']} comes back"))
    if side == "de":
        eyes = [tuple(a["hex"]) for a in d["aircraft"] if a["side"] == "de" and a["status"] == "board"]
        rng = int(opts["visual_range"])

        def unseen(h, alt):
            dist = min((board.distance(x, h) for x in eyes), default=99)
            return dist > rng or (combat.in_cloud(h, alt) == "full" and dist > 1)

        hidden = [(i, a) for i, a in on_board if unseen(tuple(a["hex"]), a["alt"])]
        if hidden:
            i, a = rnd.choice(hidden)
            taken = {(tuple(x["hex"]), x["alt"]) for x in d["aircraft"] if x["status"] == "board"}
            spots = [h for h in board.all_hexes() if unseen(h, a["alt"]) and (h, a["alt"]) not in taken
                     and not board.is_edge(h)]
            if spots:
                e = copy.deepcopy(d)
                e["aircraft"][i]["hex"] = list(rnd.choice(spots))
                out.append(_twin(ruleset, e, d, f"where British {a['id']} is, out of German sight"))
        near = lambda h: any(board.distance(h, x) <= 1 for x in eyes)  # noqa: E731
        unrevealed = [(i, g) for i, g in enumerate(d["guns"]) if not g["revealed"] and g["hex"] is not None
                      and not near(tuple(g["hex"]))]
        if unrevealed:
            i, g = rnd.choice(unrevealed)
            gun_hexes = {tuple(x["hex"]) for x in d["guns"] if x["hex"] is not None}
            spots = [h for h in board.all_hexes() if not near(h) and h not in gun_hexes and not board.is_edge(h)]
            if spots:
                e = copy.deepcopy(d)
                e["guns"][i]["hex"] = list(rnd.choice(spots))
                out.append(_twin(ruleset, e, d, f"where unrevealed AA gun {g['id']} stands"))
    return [t for t in out if t]


# ---------------------------------------------------------------------------------------- sky_ww2
def perturb_sky_ww2(ruleset, state, seat, rnd):
    from pbem.rules.sky_ww2 import tables

    d = ruleset.dump(state)
    doc = json.loads(d["doc"]) if isinstance(d["doc"], str) else d["doc"]

    def twin(new_doc, what):
        e = dict(d)
        e["doc"] = json.dumps(new_doc, sort_keys=True, separators=(",", ":")) if isinstance(d["doc"], str) \
            else new_doc
        return _twin(ruleset, e, d, what)

    me = next(s for s in doc["seats"] if s["name"] == seat)
    side = me["side"]
    enemy = "axis" if side == "coalition" else "coalition"
    exposed = bool(doc["options"].get("expose_top_back") and doc["options"].get("events"))
    first = 1 if exposed else 0  # the top card's back is public when exposed: keep the top card
    out: list[Twin | None] = []
    if len(doc["deck"]) - first >= 2:
        e = copy.deepcopy(doc)
        rest = e["deck"][first:]
        rnd.shuffle(rest)
        e["deck"][first:] = rest
        out.append(twin(e, "the order of the deck"))

    def plain(c):
        return tables.card(c).kind != "malfunction"

    hands = [a for a in doc["aircraft"].values() if a["seat"] != seat and any(plain(c) for c in a["hand"])]
    pool = [j for j in range(first, len(doc["deck"])) if plain(doc["deck"][j])]
    if hands and pool:
        a = rnd.choice(hands)
        k = rnd.choice([k for k, c in enumerate(a["hand"]) if plain(c)])
        choices = [j for j in pool if doc["deck"][j] != a["hand"][k]]
        if choices:
            j = rnd.choice(choices)
            e = copy.deepcopy(doc)
            ea = e["aircraft"][a["id"]]
            ea["hand"][k], e["deck"][j] = e["deck"][j], ea["hand"][k]
            out.append(twin(e, f"a card in {a['id']}'s hand (seat {a['seat']})"))
    if not doc["revealed"]:
        objs = doc["ground"][enemy]
        pairs = [(x, y) for x in range(len(objs)) for y in range(x + 1, len(objs))
                 if objs[x]["obj"] != objs[y]["obj"] and objs[x]["damage"] == objs[y]["damage"]
                 and objs[x]["destroyed"] == objs[y]["destroyed"]]
        if pairs:
            x, y = rnd.choice(pairs)
            e = copy.deepcopy(doc)
            g = e["ground"][enemy]
            g[x]["obj"], g[y]["obj"] = g[y]["obj"], g[x]["obj"]
            out.append(twin(e, "which enemy ground object stands where (before the reveal)"))
    sel = doc.get("selection", {}).get(enemy)
    if doc["round"] == 0 and sel and sel.get("candidates"):
        roster = sorted(tables.roster()[enemy])
        spare = [n for n in roster if n not in sel["candidates"]]
        if spare:
            e = copy.deepcopy(doc)
            cands = e["selection"][enemy]["candidates"]
            cands[rnd.randrange(len(cands))] = rnd.choice(spare)
            out.append(twin(e, "the enemy's selection candidates"))
    return [t for t in out if t]


# --------------------------------------------------------------------------------------- bismarck
def perturb_bismarck(ruleset, state, seat, rnd):
    d = ruleset.dump(state)
    foe = "allied" if seat == "german" else "german"
    out: list[Twin | None] = []

    def per_side(key, value):
        e = copy.deepcopy(d)
        rows = [r for r in e[key] if r[0] != foe] + [[foe, value]]
        e[key] = sorted(rows)
        return e

    e = copy.deepcopy(d)  # the kit's standing-order store: rows of [seat, key, text]
    e["flow"]["standing"] = [r for r in d["flow"]["standing"] if r[0] != foe] + [[foe, "PATROL", f"PATROL {rnd.randint(1, 99)}"]]
    out.append(_twin(ruleset, e, d, "the enemy's standing orders"))
    out.append(_twin(ruleset, per_side("searched", [rnd.choice(["A1", "K12", "T20"])]), d,
                     "where the enemy searched"))
    out.append(_twin(ruleset, per_side("reports", [f"secret report {rnd.random()}"]), d,
                     "the enemy's reports"))
    for bag in ("ee_bag", "damage_bag", "vp_bag"):  # drawn blind by both sides
        if len(set(map(str, d[bag]))) > 1:
            e = copy.deepcopy(d)
            rnd.shuffle(e[bag])
            out.append(_twin(ruleset, e, d, f"the order of the {bag.replace('_', ' ')}"))
    if seat == "allied" and not d["ended"]:  # the German VP from convoys and merchants is secret until the game ends [digest]
        e = copy.deepcopy(d)
        e["merchants"] = d["merchants"] + rnd.randint(1, 3)
        out.append(_twin(ruleset, e, d, "the German's secret merchant sinkings"))
        e = copy.deepcopy(d)
        e["convoy_vp"] = d["convoy_vp"] + [[rnd.choice([1, 2, 3]), rnd.random() < 0.5]]
        out.append(_twin(ruleset, e, d, "the German's secret convoy VP markers"))
    units: dict[str, list[int]] = {}
    for i, x in enumerate(d["ships"]):
        if x["side"] == foe and x["status"] == "sea" and x["hex"]:
            units.setdefault(x["tf"] or x["id"], []).append(i)
    if units:  # where an enemy unit really is (the seat knows only its contacts, which keep their own hex)
        from pbem.rules.bismarck.board import board

        uid = rnd.choice(sorted(units))
        here = d["ships"][units[uid][0]]["hex"]
        nearby = [h for h in board().sea_neighbours(here, foe) if h != here]
        if nearby:
            e = copy.deepcopy(d)
            there = rnd.choice(nearby)
            for i in units[uid]:
                e["ships"][i]["hex"] = there
            out.append(_twin(ruleset, e, d, f"where enemy unit {uid} is"))
    enemy_ships = [i for i, x in enumerate(d["ships"]) if x["side"] == foe and x["status"] == "sea" and x["hex"]]
    if enemy_ships:
        i = rnd.choice(enemy_ships)
        e = copy.deepcopy(d)
        e["ships"][i]["fuel"] = max(0, d["ships"][i]["fuel"] - rnd.randint(1, 3))
        out.append(_twin(ruleset, e, d, f"enemy {d['ships'][i]['id']}'s fuel"))
    return [t for t in out if t]


# ------------------------------------------------------------------------------- aa_miniatures
def perturb_aa_miniatures(ruleset, state, seat, rnd):
    """The other side's standing orders are private; in fog games also where an enemy out of the seat's
    sight stands (moved to another hex out of sight), what the other side last saw, and its aircraft
    off the map."""
    twins = _aa_standing(ruleset, state, seat, rnd)
    if state.fog:
        twins += _aa_fog(ruleset, state, seat, rnd)
    return twins


def _aa_fog(ruleset, state, seat, rnd):
    from pbem.rules.aa_miniatures.board import board
    from pbem.rules.aa_miniatures.los import clear
    from pbem.rules.aa_miniatures.parsers import zone

    d = ruleset.dump(state)
    m, strict = board(state.map), state.sight == "strict"
    eyes = [u.hex for u in state.units if u.side == seat]

    def unseen(h):
        return not any(clear(m, e, h, strict=strict) for e in eyes)

    out = []
    foe = next(s.name for s in ruleset.seats(state) if s.name != seat)
    hidden = [i for i, u in enumerate(state.units) if u.side != seat and u.stats.ground and unseen(u.hex)]
    free = [h for h in sorted(m.hexes) if unseen(h) and not any(u.hex == h for u in state.units)]
    if state.flow.step == "deploy":  # the sealed set-up: every enemy unit is hidden, anywhere in its zone
        hidden = [i for i, u in enumerate(state.units) if u.side == foe]
        free = [h for h in zone({"scenario": state.scenario, "map": state.map}, foe)
                if not any(u.hex == h for u in state.units)]
    if hidden:
        i = rnd.choice(hidden)
        e = copy.deepcopy(d)
        e["units"][i]["pending"] = [rnd.choice(["yellow", "red", "black"])]
        e["units"][i]["disrupted"] = not d["units"][i]["disrupted"]
        out.append(_twin(ruleset, e, d, f"the unseen {d['units'][i]['id']}'s markers"))
    if hidden and free:
        i = rnd.choice(hidden)
        e = copy.deepcopy(d)
        e["units"][i]["hex"] = list(rnd.choice(free))
        e["units"][i]["facing"] = rnd.randrange(6)
        out.append(_twin(ruleset, e, d, f"where the unseen {d['units'][i]['id']} stands"))
    e = copy.deepcopy(d)
    e["last_known"] = [g for g in d["last_known"] if g["side"] != foe] + \
        [{"side": foe, "id": u.id, "card": u.card, "hex": list(u.hex), "facing": u.facing, "turn": 1}
         for u in state.units if u.side == seat and rnd.random() < 0.5]
    out.append(_twin(ruleset, e, d, "what the other side last saw"))
    e = copy.deepcopy(d)
    e["reserve"] = [r for r in d["reserve"] if r["side"] != foe] + \
        ([] if any(r["side"] == foe for r in d["reserve"]) else
         [{"id": "fw190_x", "card": "fw190" if foe == "axis" else "p47", "side": foe, "hex": [0, 0], "facing": 0}])
    out.append(_twin(ruleset, e, d, "the other side's aircraft off the map"))
    return [t for t in out if t]


def _aa_standing(ruleset, state, seat, rnd):
    d = ruleset.dump(state)
    foe = next(s.name for s in ruleset.seats(state) if s.name != seat)
    kept = [row for row in d["flow"]["standing"] if row[0] != foe]
    mine = [row for row in d["flow"]["standing"] if row[0] == foe]
    choices = [[[foe, "DF ALL", "DF ALL NEVER"]], [[foe, "OW ALL", "OW ALL VEHICLES"], [foe, "AA ALL", "AA ALL NEVER"]],
               [[foe, "INITIATIVE", "INITIATIVE SECOND"], [foe, "OVERSTACK_PENALTY", "OVERSTACK_PENALTY LOWEST_COST"]],
               []]
    e = copy.deepcopy(d)
    e["flow"]["standing"] = kept + rnd.choice([c for c in choices if c != mine])
    return [t for t in [_twin(ruleset, e, d, "the other side's standing orders")] if t]


# --------------------------------------------------------------------------------- wing_leader
def perturb_wing_leader(ruleset, state, seat, rnd):
    d = ruleset.dump(state)
    mine = next(s.side for s in ruleset.seats(state) if s.name == seat)
    foe = next(s.name for s in ruleset.seats(state) if s.side != mine)   # an enemy's seat (allies see each other's)
    theirs = [q["id"] for q in d["squadrons"] if (q.get("seat") or q["side"]) == foe]
    rows = d["flow"]["standing"]
    out = []
    for key, texts in (("DOGFIGHT", ["DOGFIGHT SEEK", "DOGFIGHT ASK"]), ("CONSENT", ["CONSENT YES"]),
                       (f"TACTIC {rnd.choice(theirs)}", ["SPEED", "TURN", "ASK"]),
                       (f"REACT {rnd.choice(theirs)}", ["NO", "ASK"])):
        e = copy.deepcopy(d)
        now = next((r[2] for r in rows if r[0] == foe and r[1] == key), "")
        full = [t if t.startswith(key.split()[0]) else f"{key} {t}" for t in texts]
        choice = rnd.choice([t for t in ["", *full] if t != now])
        e["flow"]["standing"] = [r for r in rows if not (r[0] == foe and r[1] == key)] + \
            ([[foe, key, choice]] if choice else [])
        out.append(_twin(ruleset, e, d, f"the other side's standing {key}"))
    if dict(d["options"]).get("visibility") == "fog":
        out += _wing_leader_fog(ruleset, state, seat, rnd)
    return [t for t in out if t]


def _wing_leader_fog(ruleset, state, seat, rnd):
    """Under fog: where an enemy squadron out of the side's sight flies (another square out of sight, in the
    same radar plot: sector and band), an enemy's vector, what the other side last saw, and an enemy
    arrival not yet on the map."""
    from pbem.rules.wing_leader import fog
    from pbem.rules.wing_leader.tables import band

    d = ruleset.dump(state)
    side = seat.split("-")[0]
    foe = next(x for x in ("allies", "axis") if x != side)
    seen = fog.seen(state, side)
    out = []
    hidden = [i for i, q in enumerate(state.squadrons) if q.side == foe and q.on_map and q.id not in seen]
    if hidden:
        i = rnd.choice(hidden)
        q = state.squadrons[i]
        spots = [(c, a) for c in range(26) for a in range(20) if (c // fog.sector(), band(a)) == (q.at[0] // fog.sector(), band(q.at[1]))
                 and (c, a) != q.at and not any(o.at == (c, a) for o in state.squadrons if o.on_map)]
        rnd.shuffle(spots)
        for spot in spots[:20]:
            e = copy.deepcopy(d)
            e["squadrons"][i]["at"] = list(spot)
            e["squadrons"][i]["heading"] = rnd.randrange(8)
            twin = ruleset.load(e)
            if q.id not in fog.seen(twin, side) and not any(o.tally == q.id or q.tally == o.id for o in state.squadrons):
                out.append((f"where the unseen {q.id} flies", twin))
                break
    vectored = [i for i, q in enumerate(state.squadrons) if q.side == foe and q.on_map]
    if vectored:
        i = rnd.choice(vectored)
        e = copy.deepcopy(d)
        e["squadrons"][i]["vector"] = None if d["squadrons"][i]["vector"] else [rnd.randrange(26), rnd.randrange(20)]
        out.append(_twin(ruleset, e, d, f"{d['squadrons'][i]['id']}'s vector"))
    e = copy.deepcopy(d)
    e["last_known"] = [g for g in d["last_known"] if g["side"] != foe] + \
        [{"side": foe, "id": q.id, "model": q.model, "at": list(q.at), "heading": q.heading, "turn": 1, "lost": False}
         for q in state.squadrons if q.side == side and q.on_map and rnd.random() < 0.5]
    out.append(_twin(ruleset, e, d, "what the other side last saw"))
    waiting = [i for i, q in enumerate(state.squadrons) if q.side == foe and q.status == "waiting" and q.edge]
    if waiting:
        i = rnd.choice(waiting)
        e = copy.deepcopy(d)
        e["squadrons"][i]["model"] = rnd.choice([m for m in ("fw190a8", "bf109g6", "spitfire9", "p47d")
                                                 if m != d["squadrons"][i]["model"]])
        out.append(_twin(ruleset, e, d, f"the enemy arrival {d['squadrons'][i]['id']}'s aircraft"))
    return [t for t in out if t]


PERTURBERS: dict[str, Perturber] = {
    "aa_miniatures": perturb_aa_miniatures,
    "bismarck": perturb_bismarck,
    "duel": perturb_duel,
    "lew_morski": perturb_lew_morski,
    "sky_ww2": perturb_sky_ww2,
    "wing_leader": perturb_wing_leader,
}


def all_rulesets() -> dict[str, Any]:
    """Every ruleset: those registered in pbem.rules.RULESETS, any rules/<name> package exposing RULESET
    that is not registered yet, and the duel test fixture."""
    from pbem import rules
    from tests.fixtures.duel import RULESET as DUEL

    found: dict[str, Any] = {r.info.name: r for r in rules.RULESETS}
    for mod in pkgutil.iter_modules(rules.__path__):
        if not mod.ispkg or mod.name in found:
            continue
        try:
            module = importlib.import_module(f"pbem.rules.{mod.name}")
        except Exception:  # a ruleset still being written: not ready, not ours to judge
            continue
        r = getattr(module, "RULESET", None)
        if r is not None and getattr(r, "info", None) is not None:
            found.setdefault(r.info.name, r)
    found.setdefault("duel", DUEL)
    return found


#: Option sets under which each ruleset is played for the leak test (hidden information needs fog).
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "duel": [{}],
    "bismarck": [{}, {"tirpitz": True}],
    "lew_morski": [{"visibility": "fog"}, {"visibility": "fog", "players_per_side": 2}, {}],
    "aa_miniatures": [{"visibility": "fog"}, {"visibility": "fog", "cadence": "fast", "sight": "strict"}, {}],
    "sky_ww2": [{}, {"players": 4, "events": True}, {"selection": "free"}],
    "wing_leader": [{}, {"cadence": "single"}, {"visibility": "fog"},
                    {"visibility": "fog", "seats_per_side": 2, "cadence": "fast"}],
}
