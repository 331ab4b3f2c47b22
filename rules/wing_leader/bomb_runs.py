"""Bombing in play [15.2.1, 15.3, 15.4, 15.5]: bombers fly to their target's column, make their approach, and
the strike is resolved in the Combat Phase after flak and before air combat.

A scenario gives a bombing squadron its surface ``target``, its ``attack`` (level by default) and its
``load`` (ordinary bombs by default, 15.1).  With rule 15.2.1 it flies toward the target instead of the enemy
edge (``attack_moves``); after each move its run is judged by ``approaches.check`` and, once the approach is
complete, it releases and returns to base.  In the Combat Phase each release is rolled on the Bombing Table
and the hits go on the target [15.4, 14.1.1].  Each attack needs its own section of rule 15 in the scenario's
``advanced`` list (``RULES``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pbem.core.work import Work

from . import approaches, attack_moves, bombing, loads, movement, weapons
from .air import Air
from .fog import dice_seen_by, tell
from .model import DESTROYED, Squadron, State, max_losses
from .sky import distance, name
from .surface import Surface
from .tables import card, scenario

RUN_KEPT = 6   # squares of a rolling run remembered: more than the longest aim (G, 4)

#: Each attack and the section of rule 15 that makes it [15.3.1–15.3.7, 15.5.2–15.5.4].
RULES = {"level": "15.3.1", "dive": "15.3.2", "steep": "15.3.3", "glide": "15.3.4", "torpedo": "15.3.5",
         "rocket": "15.3.6", "strafing": "15.3.7", "parafrag": "15.5.2", "kamikaze": "15.5.3", "skip": "15.5.4"}
ATTACKS = tuple(RULES)
BEGUN = ("dive", "steep", "glide")   # approaches that begin at a point; the others are judged on a rolling run
LOW = ("rocket", "strafing")         # judged on this turn's squares alone


def kind_of(sq: Squadron) -> str:
    return sq.attack or "level"


def load_of(sq: Squadron) -> str:
    """The load it carries [15.1]: "" (none) once dropped."""
    return (sq.load or loads.BOMBS) if sq.bombs else loads.NO_LOAD


def fighter_bomber(sq: Squadron) -> bool:
    """A fighter carrying a bomb load [15.2.4, 3.2.1]."""
    return sq.bombs and card(sq.model)["class"] == "fighter"


def flying_to_target(air: Air | State, sq: Squadron) -> bool:
    """A bomber under rule 15.2.1 still on its way to a target: with its load, or a strafer [15.3.7]."""
    state = air.state if isinstance(air, Air) else air
    return bool(state.uses("15.2.1") and sq.mission == "bombing" and sq.target
                and (sq.bombs or sq.attack == "strafing"))


def attack_problem(sq: Squadron, target: Surface | None, uses: Callable[[str], bool], *,
                   skip_allowed: bool = False, designated_kamikaze: bool = False) -> str:
    """Why ``sq`` may not make its ``attack`` on ``target`` ("" if it may), with the rule [15.1, 15.3, 15.5]."""
    kind = kind_of(sq)
    if kind not in RULES:
        return f"15.3: {kind!r} is not an attack ({', '.join(ATTACKS)})"
    rule = RULES[kind]
    if not uses(rule):
        return f"{rule}: this scenario does not use {kind} attacks"
    if designated_kamikaze != (kind == "kamikaze"):
        return ("15.5.3: a kamikaze squadron makes only kamikaze attacks" if designated_kamikaze
                else "15.5.3: only squadrons the scenario makes kamikaze attack so")
    problem = loads.approach_problem(load_of(sq) if kind != "strafing" else loads.NO_LOAD, kind)
    if problem:
        return problem
    c = card(sq.model)
    abilities, ship = c["abilities"], bool(target and target.ship)
    needs = {
        "dive": ("dive_brakes" in abilities, "only aircraft with a Dive Brake may dive-bomb"),
        "steep": (fighter_bomber(sq) or c["class"] == "dive_bomber" or "dive_brakes" in abilities
                  or "speed_brakes" in abilities,
                  "only fighter-bombers, dive bombers and aircraft with Speed Brakes make steep-angle attacks"),
        "glide": (c["class"] != "heavy_bomber", "heavy bombers may not glide-bomb"),
        "torpedo": ("torpedo" in abilities and ship,
                    "a torpedo attack needs torpedo-equipped aircraft and a ship for its target"),
        "rocket": ("atgr" in abilities, "only aircraft equipped with ATGR make rocket attacks"),
        "strafing": (sq.armed and sq.ammo < 2 and not sq.bombs,
                     "strafing needs firepower, ammunition not expended and no load still carried (15.2.1.1)"),
        "skip": (skip_allowed and ship, "skip bombing is made only against ships, where the scenario allows it"),
    }
    ok, why = needs.get(kind, (True, ""))
    return "" if ok else f"{rule}: {why}"


def problem_in(state: State, sq: Squadron, *, kamikaze: bool | None = None) -> str:
    """``attack_problem`` read from the game's scenario; a squadron is kamikaze when the scenario gave it that
    attack (``kamikaze``: the squadron's designation before an ``ATTACK`` order changes it)."""
    target = next((u for u in state.surfaces if u.id == sq.target), None)
    return attack_problem(sq, target, state.uses,
                          skip_allowed=bool(scenario(state.scenario).get("skip_bombing", False)),
                          designated_kamikaze=sq.attack == "kamikaze" if kamikaze is None else kamikaze)


def choose_attack(sq: Squadron, kind: str) -> Squadron:
    """The squadron after ``ATTACK <sq> <kind>`` [15.3]: a changed attack starts its run afresh (an approach
    begun need not be completed, 15.3)."""
    attack = "" if kind == "level" else kind
    return sq if attack == sq.attack else sq.move(attack=attack, run=())


def movement_points(air: Air, sq: Squadron, dive: bool) -> int:
    """A bomber's movement points: a fighter-bomber starting within three squares of an enemy surface unit
    has 3 [15.2.4]; on an approach that comes down, the descent bonus [15.3, 8.2]; a slow torpedo aiming 1
    [15.3.5.1]."""
    mp = movement.allowance(sq, dive)
    if not flying_to_target(air, sq):
        return mp
    if air.state.uses("15.2.4") and fighter_bomber(sq):
        enemy = [u.at for u in air.state.surfaces if u.side != sq.side]
        mp = max(mp, bombing.fighter_bomber_allowance(sq, enemy))
    kind, target = kind_of(sq), air.state.surface(sq.target)
    descending = (kind in BEGUN and bool(sq.run)) or (kind in attack_moves.VERTICAL_RELEASE
                                                      and attack_moves.may_begin_vertical(sq, target.column)) \
        or (kind == "glide" and attack_moves.may_begin_glide(sq, target.column))
    aiming = kind == "torpedo" and sq.at[1] == 0
    return bombing.approach_allowance(sq, mp, kind=kind, aiming=aiming, descending=descending)


def plan(air: Air, sq: Squadron) -> list[str]:
    """Its own move toward and onto its target (``attack_moves``) [15.2.1, 15.3]."""
    target = air.state.surface(sq.target)
    mp = movement_points(air, sq, False)
    slow = "slow_torpedo" in card(sq.model)["abilities"]
    return attack_moves.own_move(sq, kind_of(sq), target.at, mp, slow_torpedo=slow)


def escort_plan(air: Air, sq: Squadron) -> list[str] | None:
    """An escort's own move under 15.2.2: it keeps its place by the nearest bomber of its side flying to a
    target, climbing or diving as many levels as that bomber does this turn (an escort moving first foresees
    the bomber's own move; one moving after it follows the move made); None when no bomber of its side is flying to a target."""
    if not (air.state.uses("15.2.2") and sq.mission == "escort"):
        return None
    bombers = [b for b in air.squadrons.values() if b.side == sq.side and b.on_map and flying_to_target(air, b)]
    if not bombers:
        return None
    bomber = min(bombers, key=lambda b: (distance(b.at, sq.at), b.id))
    if bomber.id in air.moved:   # it moved first (6.1.1): the escort follows the move made
        start = next((s.at for s in air.state.squadrons if s.id == bomber.id), bomber.at)
        end = bomber.at
    else:
        start, end = bomber.at, movement.walk(bomber, plan(air, bomber), movement_points(air, bomber, False)).at
    goal = (sq.at[0] + end[0] - start[0], min(max(sq.at[1] + end[1] - start[1], 0), 19))
    return [] if goal == sq.at else movement.approach(sq, goal, movement.allowance(sq, goal[1] < sq.at[1]))


def _begins(air: Air, sq: Squadron, column: int) -> bool:
    kind = kind_of(sq)
    if kind == "glide":
        return attack_moves.may_begin_glide(sq, column)
    return attack_moves.may_begin_vertical(sq, column)


def _too_low(sq: Squadron, kind: str, column: int) -> str:
    """Why a bomber where its approach begins is too low to begin it ("" if it is not there or not too low)."""
    if kind == "glide" and abs(sq.at[0] - column) == 2 and sq.at[1] < 2:
        return "15.3.4: a glide comes down two levels, so it begins at altitude 2 or more"
    if kind in attack_moves.VERTICAL_RELEASE and sq.at[0] == column and sq.at[1] < 2:
        return f"{RULES[kind]}: the approach begins at altitude 2 to 10, not {sq.at[1]}"
    return ""


def after_move(w: Work[Air], before: Squadron, path: list[tuple[int, int]]) -> None:
    """Keep the run; release when the approach is complete [15.3], or say why it could not be made."""
    air = w.data
    sq = air.squadron(before.id)
    if sq.dived:   # last turn's dive is over
        sq = sq.move(dived=0)
        air.put(sq)
    kind = kind_of(sq)
    if not (air.state.uses(RULES.get(kind, "15.3")) and sq.status != DESTROYED and flying_to_target(air, sq)):
        return
    target = air.state.surface(sq.target)
    if kind == "kamikaze":
        _kamikaze(w, sq, target)
        return
    if kind in BEGUN and not before.run and not _begins(air, before, target.column):
        too_low = _too_low(before, kind, target.column)
        if too_low:
            _cannot(w, before, sq, kind, too_low, path)
        return   # else still on its way: the run begins with the dive or glide
    turn_start = 0
    if kind in LOW:
        run = (before.at, *path)
    elif kind in BEGUN:
        run = (tuple(before.run) or (before.at,)) + tuple(path)
        turn_start = max(len(before.run) - 1, 0)
    else:
        run = (tuple(before.run) or (before.at,)) + tuple(path)
    sight = not air.state.sky.sight(run[0], target.at).blocked
    result = approaches.check(sq, kind, run, target, load=load_of(sq), sight=sight,
                              release_alt=attack_moves.VERTICAL_RELEASE.get(kind), turn_start=turn_start,
                              skip_allowed=bool(scenario(air.state.scenario).get("skip_bombing", False)),
                              fighter_bomber=fighter_bomber(sq))
    dived = before.at[1] - sq.at[1] if kind == "dive" else 0
    if result.problem:
        _cannot(w, before, sq, kind, result.problem, path)
        return
    if dived >= 2:
        tell(w, f"{sq.id} dives {dived} levels this turn: it neither attacks nor is attacked in air combat (15.3.2)",
             [sq.id], kind="bombing")
    if not result.released:
        air.put(sq.move(run=run if kind in BEGUN else run[-RUN_KEPT:], dived=dived))
        return
    _release(w, sq, kind, result, run, dived)


def _cannot(w: Work[Air], before: Squadron, sq: Squadron, kind: str, problem: str, path: list[tuple[int, int]]) -> None:
    """An approach that may not be made: with ordinary bombs a bomber bombs level instead; otherwise it
    starts its run again (15.2.5: it may fly past and turn back)."""
    air = w.data
    if load_of(sq) == loads.BOMBS and kind != "level" and air.state.uses("15.3.1"):
        air.put(sq.move(attack="", run=()))
        tell(w, f"{sq.id} cannot make its {kind} attack on {sq.target}: {problem}; it bombs level", [sq.id],
             kind="bombing")
        after_move(w, before.move(attack="", run=()), path)
        return
    air.put(sq.move(run=()))
    tell(w, f"{sq.id} cannot complete its {kind} attack on {sq.target}: {problem}; it tries again", [sq.id],
         kind="bombing")


def _release(w: Work[Air], sq: Squadron, kind: str, result: approaches.Run, run: tuple, dived: int) -> None:
    air = w.data
    aim = "aimed" if result.aimed else "not aimed"
    rng = ", from the next column (long range)" if result.long_range else ""
    where = name(result.release) if result.release else name(sq.at)
    if kind == "strafing":   # no load spent; Low Ammo after it, then home [15.3.7, 15.2.1.1 reading]
        air.put(sq.move(run=(), released=kind, aimed=True, long_range=False, ammo=min(sq.ammo + 1, 2),
                        mission="rtb", dived=dived))
        tell(w, f"{sq.id} strafes {sq.target} at {where} (15.3.7)", [sq.id], kind="bombing")
        return
    air.put(sq.move(run=(), released=kind, aimed=result.aimed, long_range=result.long_range, bombs=False,
                    mission="rtb", dived=dived))
    if kind == "dive":
        tell(w, f"{sq.id} dives on {sq.target} from altitude {run[0][1]} and releases at {where}, {aim} (15.3.2)",
             [sq.id], kind="bombing")
    elif kind == "level":
        tell(w, f"{sq.id} releases its bombs over {sq.target} from {where}, level, {aim} (15.3.1)", [sq.id],
             kind="bombing")
    else:
        what = {"torpedo": "drops its torpedoes", "rocket": "fires its rockets"}.get(kind, "releases its bombs")
        tell(w, f"{sq.id} {what} at {sq.target} from {where}, {kind} attack, {aim}{rng} ({RULES[kind]})",
             [sq.id], kind="bombing")


def _kamikaze(w: Work[Air], sq: Squadron, target: Surface) -> None:
    """In the target's square the kamikaze strikes; the last MP spent was its aim [15.5.3]."""
    if sq.at != target.at:
        return
    w.data.put(sq.move(run=(), released="kamikaze", aimed=True, bombs=False))
    tell(w, f"{sq.id} dives into {target.id} at {name(sq.at)}: a kamikaze attack (15.5.3)", [sq.id], kind="bombing")


def in_air_combat(air: Air) -> list[Squadron]:
    """The squadrons that may fight this Combat Phase: not a dive bomber that dived 2 levels or more this turn
    on its approach [15.3.2], nor a kamikaze that struck [15.5.3]."""
    return [s for s in air.squadrons.values() if not (air.state.uses("15.3.2") and s.dived >= 2)
            and s.released != "kamikaze"]


def from_sun(state: State, sq: Squadron, target: Surface) -> bool:
    """A release that counts as from the sun for a ship's defence [14.1.3]: the squadron is in the ship's sun
    sector when it releases (where it is in the Combat Phase: it released on this turn's move, our reading),
    or it releases in the ship's square having come in from the sun's side (4.6.2, as the bounce reads it)."""
    if not (state.uses("14.1.3") and target.ship):
        return False
    if state.sky.up_sun(target.at, sq.at):
        return True
    came = sq.entered_from
    return sq.at == target.at and came is not None and state.sky.up_sun(target.at, came)


def pod_bonus(state: State, sq: Squadron, kind: str, target: Surface) -> int:
    """A gun pod's or AT pod's added strafing firepower [13.5.6, 15.3.7]; a ship counts as a ship, a unit type
    naming a tank, truck or train as that (our reading of the unit types, none of which is in a scenario yet)."""
    if kind != "strafing" or not state.uses("13.5.6"):
        return 0
    name = target.type.lower()
    target_kind = "ship" if target.ship else next((k for k in ("tank", "truck", "train") if k in name), name)
    return weapons.pod_strafing(sq, target_kind)


def strikes(w: Work[Air]) -> None:
    """The Combat Phase, after flak and before air combat: each release rolled on the Bombing Table [15.4];
    two torpedo attacks or more on one ship this turn each get the Anvil [15.5.1]."""
    air = w.data
    released = [s for s in air.squadrons.values() if s.released]
    anvil = bombing.anvils([s.target for s in released if s.released == "torpedo"]) \
        if air.state.uses("15.5.1") else set()
    for sq in released:
        target = air.state.surface(sq.target)
        if sq.status == DESTROYED:   # shot down by flak before its bombs fell: they count for nothing
            air.put(sq.move(released="", aimed=False, long_range=False))
            tell(w, f"{sq.id} was destroyed before its attack on {target.id} came down (15.3)", [sq.id], kind="bombing")
            continue
        kamikaze = sq.released == "kamikaze"
        run = approaches.Run("level" if kamikaze else sq.released, released=True, release=sq.at, aimed=sq.aimed,
                             long_range=sq.long_range)
        strike = bombing.strike_of(sq, run, target, flak=air.flak_bomb.get(sq.id, 0), turn=air.state.turn,
                                   anvil=target.id in anvil, kamikaze=kamikaze, from_sun=from_sun(air.state, sq, target),
                                   max_losses=max_losses(air.state.scenario, sq))
        strike = replace(strike, firepower=strike.firepower + pod_bonus(air.state, sq, strike.kind, target))
        seen = dice_seen_by(w, [sq.id])
        roll = (w.roll(6, f"{sq.id} bombs {target.id}", seen_by=seen)
                + w.roll(6, f"{sq.id} bombs {target.id}", seen_by=seen))
        result = bombing.resolve(strike, target, roll)
        hit = target.hit(result.hits)
        air.state = replace(air.state, surfaces=tuple(hit if u.id == hit.id else u for u in air.state.surfaces))
        after = sq.move(released="", aimed=False, long_range=False)
        air.put(after.move(status=DESTROYED) if kamikaze else after)   # a kamikaze is gone [15.5.3]
        level = f", now {hit.level} damage" if hit.level else ""
        sun = " (from the sun: the ship's defence one nearer zero, 14.1.3)" \
            if strike.from_sun and strike.kind in ("dive", "steep") else ""
        tell(w, bombing.describe(sq.id, target.id, strike, result) + sun + f"; {target.id} has {hit.hits} hits{level}",
             [sq.id], kind="bombing", target=target.id, hits=result.hits)
