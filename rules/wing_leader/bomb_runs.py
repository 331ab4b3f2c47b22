"""Bombing in play [15.2.1, 15.3.1, 15.4]: bombers fly to their target's column, bomb it level as they come
over it, and the strike is resolved in the Combat Phase after flak and before air combat.

A scenario gives a bombing squadron its surface ``target``.  With rule 15.2.1 it flies toward that column
instead of the enemy edge (two level squares a turn); over the target it releases (15.3.1: as soon as it is
over it), aimed when the squares before were straight and level for its bombsight, and returns to base.  In the
Combat Phase each release is rolled on the Bombing Table and the hits go on the target [15.4, 14.1.1].
"""
from __future__ import annotations

from dataclasses import replace

from pbem.core.errors import IllegalOrderError
from pbem.core.work import Work

from . import approaches, bombing, movement
from .air import Air
from .fog import dice_seen_by, tell
from .model import DESTROYED, Squadron, State
from .sky import distance, name
from .tables import card

RUN_KEPT = 6   # squares of the run remembered: more than the longest aim (G, 4)


def flying_to_target(air: Air, sq: Squadron) -> bool:
    """A bomber under rule 15.2.1 still carrying its load to a target."""
    return bool(air.state.uses("15.2.1") and sq.mission == "bombing" and sq.bombs and sq.target)


ATTACKS = ("", "dive")   # level (the default) and dive bombing are played so far


def attack_problem(sq: Squadron) -> str:
    """Why a scenario may not give ``sq`` its ``attack`` ("" if it may) [15.3]."""
    if sq.attack not in ATTACKS:
        return f"15.3: the {sq.attack!r} attack is not built yet (level, dive)"
    if sq.attack == "dive" and "dive_brakes" not in card(sq.model)["abilities"]:
        return "15.3.2: only aircraft with a Dive Brake may dive-bomb"
    return ""


def choose_attack(sq: Squadron, kind: str) -> Squadron:
    """The squadron after ``ATTACK <sq> LEVEL|DIVE`` [15.3]: a changed attack starts its run afresh (an approach
    begun need not be completed, 15.3)."""
    attack = "" if kind == "level" else kind
    return sq if attack == sq.attack else sq.move(attack=attack, run=())


def _diving(air: Air, sq: Squadron) -> bool:
    """A dive bomber whose dive has begun, or may begin now: over the target at altitude 2-10 [15.3.2]."""
    column = air.state.surface(sq.target).column
    return (sq.attack == "dive" and air.state.uses("15.3.2")
            and (bool(sq.run) or (sq.at[0] == column and 2 <= sq.at[1] <= 10)))


def plan(air: Air, sq: Squadron) -> list[str]:
    """Its own move: toward the target's column [15.2.1]; a dive bomber over it, straight down toward
    altitude 0 as far as its movement points go [15.3.2] (above altitude 10, one level a turn first)."""
    column = air.state.surface(sq.target).column
    if sq.attack == "dive" and sq.at[0] == column:
        if not _diving(air, sq):
            return [name((column, sq.at[1] - 1))] if sq.at[1] > 10 else []
        mp = movement.allowance(sq)
        tokens: list[str] = []
        for alt in range(sq.at[1] - 1, -1, -1):
            try:
                movement.walk(sq, tokens + [name((column, alt))], mp)
            except IllegalOrderError:
                break
            tokens.append(name((column, alt)))
        return tokens
    return approaches.toward_column(sq, column, movement.allowance(sq))


def escort_plan(air: Air, sq: Squadron) -> list[str] | None:
    """An escort's own move under 15.2.2: it keeps its place by the nearest bomber of its side flying to a
    target, climbing or diving as many levels as that bomber does this turn (escorts move first, so the
    bomber's own move is foreseen); None when no bomber of its side is flying to a target."""
    if not (air.state.uses("15.2.2") and sq.mission == "escort"):
        return None
    bombers = [b for b in air.squadrons.values() if b.side == sq.side and b.on_map and flying_to_target(air, b)]
    if not bombers:
        return None
    bomber = min(bombers, key=lambda b: (distance(b.at, sq.at), b.id))
    walk = movement.walk(bomber, plan(air, bomber), movement.allowance(bomber))
    goal = (sq.at[0] + walk.at[0] - bomber.at[0], min(max(sq.at[1] + walk.at[1] - bomber.at[1], 0), 19))
    return [] if goal == sq.at else movement.approach(sq, goal, movement.allowance(sq))


def after_move(w: Work[Air], before: Squadron, path: list[tuple[int, int]]) -> None:
    """Keep the run; a level bomber releases as soon as it is over the target [15.3.1], a dive bomber when
    its dive reaches altitude 0 over it [15.3.2]."""
    air = w.data
    sq = air.squadron(before.id)
    if sq.dived:   # last turn's dive is over
        sq = sq.move(dived=0)
        air.put(sq)
    if not (air.state.uses("15.3.1") and sq.mission == "bombing" and sq.bombs and sq.target):
        return
    if sq.attack == "dive" and _diving(air, before):
        _dive(w, before, sq, path)
        return
    if sq.attack == "dive":   # still on its way: the run begins with the dive
        return
    run = (tuple(before.run) or (before.at,)) + tuple(path)
    target = air.state.surface(sq.target)
    result = approaches.level(run, target.column, card(sq.model).get("bombsight", "T"))
    if not result.released:
        air.put(sq.move(run=run[-RUN_KEPT:]))
        return
    air.put(sq.move(run=(), released="level", aimed=result.aimed, bombs=False, mission="rtb"))
    tell(w, f"{sq.id} releases its bombs over {sq.target} from {name(sq.at)}, level, "
         f"{'aimed' if result.aimed else 'not aimed'} (15.3.1)", [sq.id], kind="bombing")


def in_air_combat(air: Air) -> list[Squadron]:
    """The squadrons that may fight this Combat Phase: not a dive bomber that dived 2 levels or more this turn
    on its approach [15.3.2]."""
    return [s for s in air.squadrons.values() if not (air.state.uses("15.3.2") and s.dived >= 2)]


def strikes(w: Work[Air]) -> None:
    """The Combat Phase, after flak and before air combat: each release rolled on the Bombing Table [15.4]."""
    air = w.data
    for sq in [s for s in air.squadrons.values() if s.released]:
        target = air.state.surface(sq.target)
        if sq.status == DESTROYED:   # shot down by flak before its bombs fell: they count for nothing
            air.put(sq.move(released="", aimed=False))
            tell(w, f"{sq.id} was destroyed before its attack on {target.id} came down (15.3)", [sq.id], kind="bombing")
            continue
        run = approaches.Run(sq.released, released=True, release=sq.at, aimed=sq.aimed)
        strike = bombing.strike_of(sq, run, target, flak=air.flak_bomb.get(sq.id, 0), turn=air.state.turn)
        seen = dice_seen_by(w, [sq.id])
        roll = (w.roll(6, f"{sq.id} bombs {target.id}", seen_by=seen)
                + w.roll(6, f"{sq.id} bombs {target.id}", seen_by=seen))
        result = bombing.resolve(strike, target, roll)
        hit = target.hit(result.hits)
        air.state = replace(air.state, surfaces=tuple(hit if u.id == hit.id else u for u in air.state.surfaces))
        air.put(sq.move(released="", aimed=False))
        level = f", now {hit.level} damage" if hit.level else ""
        tell(w, bombing.describe(sq.id, target.id, strike, result) + f"; {target.id} has {hit.hits} hits{level}",
             [sq.id], kind="bombing", target=target.id, hits=result.hits)


def _dive(w: Work[Air], before: Squadron, sq: Squadron, path: list[tuple[int, int]]) -> None:
    air = w.data
    target = air.state.surface(sq.target)
    run = (tuple(before.run) or (before.at,)) + tuple(path)
    sight = not air.state.sky.sight(run[0], target.at).blocked
    result = approaches.dive(run, target.column, abilities=card(sq.model)["abilities"], sight=sight,
                             release_alt=0, turn_start=max(len(before.run) - 1, 0))
    if result.problem:   # it cannot dive: it bombs level over the target instead
        air.put(sq.move(attack="", run=()))
        tell(w, f"{sq.id} cannot dive on {sq.target}: {result.problem}; it bombs level", [sq.id], kind="bombing")
        after_move(w, before.move(attack="", run=()), path)
        return
    dived = before.at[1] - sq.at[1]
    if dived >= 2:
        tell(w, f"{sq.id} dives {dived} levels this turn: it neither attacks nor is attacked in air combat (15.3.2)",
             [sq.id], kind="bombing")
    if not result.released:
        air.put(sq.move(run=run, dived=dived))
        return
    air.put(sq.move(run=(), released="dive", aimed=result.aimed, bombs=False, mission="rtb", dived=dived))
    tell(w, f"{sq.id} dives on {sq.target} from altitude {run[0][1]} and releases at {name(sq.at)}, "
         f"{'aimed' if result.aimed else 'not aimed'} (15.3.2)", [sq.id], kind="bombing")


def form_lines(state: State, sq: Squadron) -> list[str]:
    """The order form's lines for a bomber on its way: its target, how it will attack, and the strike's chances
    if it goes as planned (aimed, no flak) [15.2.1, 15.3, 15.4]."""
    if not (state.uses("15.2.1") and sq.mission == "bombing" and sq.bombs and sq.target):
        return []
    target = state.surface(sq.target)
    c = card(sq.model)
    if sq.attack == "dive":
        how = (f"dives from altitude 2-10 over column {name(target.at)[0]} straight down to 0, aimed after 4 levels "
               f"(15.3.2){'; diving now' if sq.run else ''}")
        release = (target.column, 0)
    else:
        need = approaches.BOMBSIGHT_CELLS.get(c.get("bombsight", "T"), 1)
        how = (f"bombs level as soon as it is over column {name(target.at)[0]}, aimed after {need} square"
               f"{'s' if need != 1 else ''} straight and level (bombsight {c.get('bombsight', 'T')}, 15.3.1)")
        release = (target.column, sq.at[1])
    run = approaches.Run(sq.attack or "level", released=True, release=release, aimed=True)
    chances = bombing.preview(bombing.strike_of(sq, run, target, turn=state.turn), target, target.id)
    other = "LEVEL" if sq.attack == "dive" else "DIVE"
    change = ([f"#   ATTACK {sq.id} {other} to attack {other.lower()} instead (15.3)"]
              if attack_problem(sq.move(attack="" if other == "LEVEL" else "dive")) == "" else [])
    return [f"#   flies to {target.id} ({target.type}) and {how}", f"#   if aimed, without flak: {chances}", *change]
