"""Movement resolution: entering, flying each path hex by hex, leaving the board [R 4-4.3, 8.1, 9].

Functions of the :class:`~.world.World` being resolved.  Aircraft move one after another in the order
written; a German aircraft may meet AA fire (option aa_timing=movement) and drop bombs (option
bomb_timing=movement) on the way, which ``attacks`` resolves.
"""
from __future__ import annotations

from collections.abc import Sequence

from pbem.core.texts import t_
from pbem.core.work import EVERYONE

from . import attacks, board, movement, tables
from .board import Hex
from .movement import Occupied, Walk
from .orders import Bomb, Enter, Move, Order, Withdraw, of_type
from .setup import inward
from .state import Aircraft
from .words import CHANGE, alt_word, edge_word
from .world import World, ac_key


def movement_phase(world: World, side: str, orders: Sequence[Order]) -> None:
    """Phase 1 / 3: enter, then move every aircraft of the side in the order given [R 4, 4.3, 9]."""
    bring_in(world, side, {e.ac: e for e in of_type(orders, Enter)})
    withdraw = [w.ac for w in of_type(orders, Withdraw)]
    withdraw_parked(world, withdraw)
    written = of_type(orders, Move)
    moves = {m.ac: m for m in written}
    order = [m.ac for m in written] + [a.id for a in world.on_board(side) if a.id not in moves]
    bombs = bombs_on_the_way(world, orders)
    for ac_id in order:
        a = world.ac.get(ac_id)
        if a is None or a.status != "board" or a.path:
            continue
        m = moves.get(ac_id) or Move(ac_id, "F" * world.stats(a).min_speed)
        move_one(world, a, m, bombs.get(ac_id, []), ac_id in withdraw)


def bring_in(world: World, side: str, enters: dict[str, Enter]) -> None:
    """Reinforcements due and aircraft whose return stage has come enter first [R 4.3.1, 9]."""
    for a in sorted(world.ac.values(), key=lambda a: ac_key(a.id)):
        if a.side != side:
            continue
        if a.status == "due" and a.due_stage <= world.stage:
            enter(world, a, enters.get(a.id), reinforcement=True)
        elif a.status == "off" and 0 < a.return_stage <= world.stage:
            enter(world, a, enters.get(a.id), reinforcement=False)


def withdraw_parked(world: World, ids: list[str]) -> None:
    """WITHDRAW of an aircraft already parked after a south exit: it is gone for good [R 8.1]."""
    for ac_id in ids:
        a = world.ac[ac_id]
        if a.status == "off" and a.exit_edge == "south":
            world.set(a.id, status="withdrawn")
            world.w.say(t_("%(name)s has left by the south edge for good [R 8.1]", name=world.name(a)),
                        to=world.secret_to("de"), kind="withdrawn", ac=a.id)


def bombs_on_the_way(world: World, orders: Sequence[Order]) -> dict[str, list[Hex]]:
    """Option bomb_timing=movement (G-16): the hexes each aircraft bombs as it flies over them."""
    if world.opts["bomb_timing"] != "movement":
        return {}
    return {b.ac: [board.parse_hex(h) for h in b.hexes] for b in of_type(orders, Bomb)}  # type: ignore[misc]


def enter(world: World, a: Aircraft, e: Enter | None, reinforcement: bool) -> None:
    """Reinforcements at their listed hex at HIGH (G-21); returners on an edge hex within 5 of the exit
    hex [R 4.3.1] at the altitude they left (G-6)."""
    if reinforcement:
        alt, near, cands = "HIGH", a.due_hex, [a.due_hex]
    else:
        alt, near = a.left_alt, a.exit_hex
        if e and e.alt and world.opts["return_altitude"] == "owner":
            alt = e.alt
        radius = tables.dice_table()["return_radius"]
        cands = [h for h in board.all_hexes()
                 if board.is_edge(h) and board.distance(h, near) <= max(radius, 0)]  # type: ignore[arg-type]
    h = entry_hex(world, e.hex if e else None, alt, near, cands)  # type: ignore[arg-type]
    facing = e.facing if e and e.facing else inward(h)
    world.set(a.id, status="board", hex=h, alt=alt, facing=facing, return_stage=0, path=())
    what = (t_("%(name)s arrives as a reinforcement at %(hex)s facing %(facing)s, %(alt)s", name=world.name(a),
               hex=board.fmt(h), facing=facing, alt=alt_word(alt)) if reinforcement else
            t_("%(name)s returns to the board at %(hex)s facing %(facing)s, %(alt)s", name=world.name(a),
               hex=board.fmt(h), facing=facing, alt=alt_word(alt)))
    world.w.say(what,
                to=world.secret_to(a.side), kind="enter", ac=a.id)
    if not reinforcement and a.side == "de" and a.exit_edge != "south" and world.opts["offboard_roll"] == "return":
        offboard_roll(world, world.ac[a.id])


def entry_hex(world: World, want: Hex | None, alt: str, near: Hex, cands: list[Hex]) -> Hex:
    """The hex asked for if it is a free candidate, else the free candidate nearest ``near``, else the
    nearest free edge hex [G-21]."""
    taken = {(x.hex, x.alt) for x in world.on_board()}
    if want is not None and want in cands and (want, alt) not in taken:
        return want
    free = [c for c in cands if (c, alt) not in taken]
    if not free:
        free = sorted((x for x in board.all_hexes() if board.is_edge(x) and (x, alt) not in taken),
                      key=lambda x: (board.distance(x, near), x))[:1]
    return min(free, key=lambda x: (board.distance(x, near), x))


def move_one(world: World, a: Aircraft, m: Move, bomb_hexes: list[Hex], withdraw: bool) -> None:
    """Fly one aircraft's move hex by hex [R 4-4.2.6]: an order the counter no longer allows becomes
    straight at minimum speed; a blocked path gives way to the nearest free one, or forced stacking."""
    st = world.stats(a)
    occ = world.occupied(a.id)
    change, path, at = m.change, m.path, m.at
    if movement.altitude_problem(st, a.alt, change) or \
            movement.shape_problem(path, st, change, a.hex, a.facing):  # type: ignore[arg-type]
        change, path = "none", "F" * st.min_speed  # an order made illegal by damage: fly straight at minimum
        world.w.say(t_("%(ac)s: its order no longer fits its damaged counter; it flies %(path)s", ac=a.id, path=path),
                    to=world.secret_to(a.side))
    w = movement.walk(a.hex, a.facing, path)
    collide = False
    if movement.first_block(w, movement.new_alt(a.alt, change), occ, world.end_only, a.alt, at) is not None:
        at = 0
        change, path, w, collide = unblock(world, a, m, change, path, w, occ)
    alt2 = movement.new_alt(a.alt, change)
    entered = fly(world, a, w, alt2, at, occ if collide else None, bomb_hexes)
    if entered is None:
        return
    a = world.set(a.id, facing=w.facing, alt=alt2, path=entered)
    if w.exited:
        leave(world, a, w.off_hex, withdraw)  # type: ignore[arg-type]
    else:
        world.w.say(t_("%(ac)s flies %(path)s to %(hex)s facing %(facing)s, %(alt)s", ac=a.id,
                       path=_path_text(change, path), hex=board.fmt(a.hex), facing=a.facing,  # type: ignore[arg-type]
                       alt=alt_word(a.alt)), to=world.secret_to(a.side), kind="move", ac=a.id)


def unblock(world: World, a: Aircraft, m: Move, change: str, path: str, w: Walk,
            occ: Occupied) -> tuple[str, str, Walk, bool]:
    """A path blocked at the aircraft's altitude [R 4.1.1]: the free move nearest the one ordered; if
    every path is blocked, forced stacking [R 4.2.6].  Returns (change, path, walk, collision risk)."""
    st = world.stats(a)
    alts = movement.options(st, a.hex, a.facing, a.alt, occ, world.end_only)  # type: ignore[arg-type]
    if alts:
        ordered_end = w.end or a.hex
        change, path, w = min(alts, key=lambda o: (o[0] != change, board.distance(o[2].end or a.hex, ordered_end),  # type: ignore[arg-type]
                                                   abs(len(o[1]) - len(path)), o[1]))
        world.w.say(t_("%(ac)s: its path was blocked by an aircraft at the same altitude [R 4.1.1]; it flies "
                       "%(path)s instead", ac=a.id, path=_path_text(change, path)), to=world.secret_to(a.side))
        return change, path, w, False
    # forced stacking [R 4.2.6]: change altitude if that frees the path, else risk a collision
    for c in (["dive", "climb"] if m.forced != "climb" else ["climb", "dive"]):
        fits = movement.altitude_problem(st, a.alt, c) is None and \
            movement.shape_problem(path, st, c, a.hex, a.facing) is None  # type: ignore[arg-type]
        if fits and movement.first_block(w, movement.new_alt(a.alt, c), occ, world.end_only) is None:
            world.w.say(t_("%(ac)s: forced into an occupied hex, it changes altitude (%(change)s) [R 4.2.6]", ac=a.id,
                           change=CHANGE[c]),
                        to=world.secret_to(a.side))
            return c, path, w, False
    return change, path, w, True


def fly(world: World, a: Aircraft, w: Walk, alt2: str, at: int, collide: Occupied | None,
        bomb_hexes: list[Hex]) -> tuple[Hex, ...] | None:
    """Enter the walk's hexes one by one (AA on movement, bombs on the way); the hexes entered, or None
    if the aircraft did not survive.  ``collide``: forced stacking, roll in every occupied hex."""
    entered: list[Hex] = []
    old_alt = a.alt
    for i, (h, f) in enumerate(w.cells):
        alt_here = old_alt if i < at else alt2
        if collide is not None and collide(h, alt_here) and collision(world, a, h, f, alt_here, entered):
            return None
        entered.append(h)
        world.set(a.id, hex=h, facing=f, alt=alt_here, path=tuple(entered))
        if world.opts["aa_timing"] == "movement" and a.side == "de":
            attacks.aa_on_movement(world, world.ac[a.id])
            if world.ac[a.id].status != "board":
                return None
        if h in bomb_hexes:
            attacks.drop(world, world.ac[a.id], h)
    return tuple(entered)


def collision(world: World, a: Aircraft, h: Hex, f: str, alt: str, entered: list[Hex]) -> bool:
    """Forced into an occupied hex: a 6 is a collision destroying both [R 4.2.6, G-25]; True if so."""
    other = next(x for x in world.on_board() if x.hex == h and x.alt == alt and x.id != a.id)
    # fog: two British aircraft out of German sight collide (or not) for the British only; a German in the
    # hex sees the other aircraft there, so otherwise both sides see it
    who = "gb" if any(world.hidden_from(x, "de") for x in (a, other)) else EVERYONE
    v = world.w.roll(6, t_("collision check %(ac)s with %(other)s at %(hex)s (6 = collision) [R 4.2.6]", ac=a.id,
                           other=other.id, hex=board.fmt(h)),
                     seen_by=who)
    if v not in tables.dice_table()["collision"]:
        world.w.say(t_("%(ac)s squeezes in beside %(other)s at %(hex)s without a collision [R 4.2.6]", ac=a.id,
                       other=other.id, hex=board.fmt(h)), to=who)
        return False
    award = world.opts["collision_vp"] == "award"
    world.set(a.id, hex=h, alt=alt, facing=f, path=tuple(entered + [h]))
    world.w.say(t_("%(ac)s and %(other)s collide at %(hex)s", ac=a.id, other=other.id, hex=board.fmt(h)), to=who,
                kind="collision")
    world.destroy(world.ac[a.id], t_("collision"), shot_down=award)
    world.destroy(other, t_("collision"), shot_down=award)
    return True


def leave(world: World, a: Aircraft, off: Hex, withdraw: bool) -> None:
    """Leaving the board [R 4.3, 4.3.1, 4.3.2, 8.1]."""
    edge = board.edge_of(off)
    last = a.path[-1] if a.path else a.hex
    ret = world.stage + tables.dice_table()["offboard_return_after"]
    a = world.set(a.id, status="off", exit_hex=last, exit_edge=edge, left_alt=a.alt, return_stage=ret, path=a.path)
    if a.side == "de" and edge == "south" and withdraw:
        world.set(a.id, status="withdrawn", return_stage=0)
        # fog: the British only see it leave, not the declaration (digest 5.7)
        world.w.say(t_("%(name)s leaves by the south edge and withdraws for good [R 8.1]", name=world.name(a)),
                    to=world.secret_to("de"), kind="withdrawn", ac=a.id)
        if world.fog:
            world.w.say(t_("%(name)s leaves the board by the south edge", name=world.name(a)), to="gb", kind="leave")
        return
    text = t_("%(name)s leaves the board by the %(edge)s edge at %(hex)s", name=world.name(a), edge=edge_word(edge),
              hex=board.fmt(last))  # type: ignore[arg-type]
    if a.side == "gb":
        world.w.say(text, to=world.secret_to("gb"), kind="leave", ac=a.id)
    else:
        world.w.say(text, kind="leave", ac=a.id)
    world.w.say(t_("%(ac)s may return in stage %(n)s on an edge hex within 5 of %(hex)s [R 4.3.1]", ac=a.id, n=ret,
                   hex=board.fmt(last)),  # type: ignore[arg-type]
                to=world.secret_to(a.side))
    if a.side == "de" and edge != "south" and world.opts["offboard_roll"] == "exit":
        offboard_roll(world, a)


def offboard_roll(world: World, a: Aircraft) -> None:
    """German aircraft leaving other than south: 1 shot down, 2 damaged, 3-6 unchanged [R 4.3.2]."""
    d = tables.dice_table()
    v = world.w.roll(6, t_("%(ac)s off the board (1 shot down, 2 damaged, 3-6 safe) [R 4.3.2]", ac=a.id),
                     seen_by=EVERYONE)
    if v in d["offboard_destroyed"] or (v in d["offboard_damaged"] and a.damaged):
        world.destroy(a, t_("shot down off the board [R 4.3.2]"))
    elif v in d["offboard_damaged"]:
        world.set(a.id, damaged=True)
        world.w.say(t_("%(name)s is damaged off the board [R 4.3.2]", name=world.name(a)), kind="damaged", ac=a.id)


def _path_text(change: str, path: str) -> str:
    return path if change == "none" else t_("%(change)s %(path)s", change=CHANGE[change], path=path)

