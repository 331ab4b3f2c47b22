"""Resolution: the game's working data for one resolve call [R 3-8; digest 4.2].

``World`` is opened by the kit's step table from a frozen :class:`State` and the kit's
:class:`~pbem.core.work.Work` (events, dice, stage, standing orders), changed while a phase is
resolved, and frozen again (``freeze``); nothing outside the call ever sees it.  Every event goes
through ``Work.say``; :meth:`World.secret_to` is the fog rule for reports of one side's own doings.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pbem.core.work import EVERYONE, Audience, Work

from . import board, combat, movement, tables
from .board import Hex
from .combat import plane
from .movement import Occupied, Walk
from .orders import (AaFire, Action, Bomb, Enter, Fire, Move, Order, Place, PlaceGun, Unjam, Withdraw, kept_policy,
                     of_type)
from .setup import inward, scenario_data, targets
from .state import Aircraft, Gun, State

OTHER = {"de": "gb", "gb": "de"}


class World:
    def __init__(self, state: State, work: Work[World]) -> None:
        self.s = state
        self.w = work
        self.opts = state.opts
        self.ac: dict[str, Aircraft] = {a.id: a for a in state.aircraft}
        self.guns: dict[str, Gun] = {g.id: g for g in state.guns}
        self.vp = {"de": state.vp_de, "gb": state.vp_gb}
        self.bombed = set(state.bombed)
        self.bonus_done = state.bonus_done
        self.end_reason = state.end_reason
        self.fog = self.opts["visibility"] == "fog"

    # ----------------------------------------------------------------- helpers
    def freeze(self) -> State:
        """The state as changed (the kit puts its new Flow in)."""
        return replace(self.s, aircraft=tuple(self.ac[k] for k in sorted(self.ac, key=_ac_key)),
                       guns=tuple(self.guns[k] for k in sorted(self.guns, key=_ac_key)),
                       vp_de=self.vp["de"], vp_gb=self.vp["gb"], bombed=tuple(sorted(self.bombed)),
                       bonus_done=self.bonus_done, end_reason=self.end_reason)

    @property
    def stage(self) -> int:
        """The stage marker [R 3]: the kit's turn."""
        return self.w.turn

    @stage.setter
    def stage(self, value: int) -> None:
        self.w.turn = value

    def secret_to(self, side: str) -> Audience:
        """Who learns of one side's own doings: that side in fog games, everybody in open games."""
        return side if self.fog else EVERYONE

    def set(self, ac_id: str, **kw: Any) -> Aircraft:
        self.ac[ac_id] = replace(self.ac[ac_id], **kw)
        return self.ac[ac_id]

    def on_board(self, side: str | None = None) -> list[Aircraft]:
        return [a for a in sorted(self.ac.values(), key=lambda a: _ac_key(a.id))
                if a.status == "board" and (side is None or a.side == side)]

    def planes(self) -> list[combat.Plane]:
        return [plane(a) for a in self.on_board()]

    def stats(self, a: Aircraft) -> tables.Stats:
        return tables.stats(a.type, a.damaged, a.commander, a.bombs)

    def occupied(self, mover: str) -> Occupied:
        taken = {(a.hex, a.alt) for a in self.on_board() if a.id != mover}
        return lambda h, alt: (h, alt) in taken

    def name(self, a: Aircraft) -> str:
        return f"{a.id} ({tables.type_info(a.type)['name']})"

    # ------------------------------------------------------------------ losses
    def destroy(self, a: Aircraft, how: str, shot_down: bool = True) -> None:
        """Remove an aircraft and score VP [Table 1, 7.0.9, G-25]."""
        self.set(a.id, status="destroyed", bombs=0)
        v = tables.vp()
        cls = tables.type_info(a.type)["vp_class"]
        if a.side == "gb":
            self.vp["gb"] += v["gb_per_own_fighter_lost"]
            if shot_down:
                self.vp["de"] += v["de_per_gb_fighter_shot_down"]
        else:
            self.vp["de"] += v["de_per_own_bomber_lost"] if cls == "bomber" else v["de_per_own_fighter_lost"]
            if shot_down:
                self.vp["gb"] += v["gb_per_de_bomber_shot_down"] if cls == "bomber" else v["gb_per_de_fighter_shot_down"]
        self.w.say(f"{self.name(a)} is destroyed ({how}); VP now DE {self.vp['de']}, GB {self.vp['gb']}",
                   kind="destroyed", ac=a.id)

    def hit(self, a: Aircraft, how: str) -> None:
        """A hit damages (flips) an intact aircraft and destroys a damaged one [R 5.2, 6.1]."""
        a = self.ac[a.id]
        if a.status != "board":
            return
        if a.damaged:
            self.destroy(a, how)
        else:
            self.set(a.id, damaged=True)
            self.w.say(f"{self.name(a)} is damaged ({how}) and flies on its reverse side", kind="damaged", ac=a.id)

    # ---------------------------------------------------------------- policies
    def policy(self, unit: str, kind: str, default: str) -> str:
        """The unit's standing order of ``kind`` as its owner keeps it in the kit's store."""
        seat = self.ac[unit].seat if unit in self.ac else self.guns[unit].seat
        return kept_policy(self.w.standing, seat, unit, kind, default)

    # ------------------------------------------------------------------ setup
    def apply_setup(self, orders: tuple[Order, ...]) -> None:
        """Place aircraft and AA guns as ordered [R 9.3, 6.0]; clashes keep the default placement."""
        used = {(a.hex, a.alt) for a in self.ac.values() if a.status == "board"}
        for p in of_type(orders, Place):
            a = self.ac[p.ac]
            h = p.hex
            if h != a.hex and (h, "HIGH") in used:
                self.w.say(f"{a.id}: {board.fmt(h)} is already taken, it keeps {board.fmt(a.hex)}",  # type: ignore[arg-type]
                           to=self.secret_to(a.side))
                continue
            used.discard((a.hex, "HIGH"))
            used.add((h, "HIGH"))
            self.set(a.id, hex=h, facing=p.facing)
        gun_hexes = {g.hex for g in self.guns.values()}
        for pg in of_type(orders, PlaceGun):
            g = self.guns[pg.gun]
            h = pg.hex
            if h != g.hex and h in gun_hexes:
                self.w.say(f"{g.id}: {board.fmt(h)} already holds a gun, it stays at {board.fmt(g.hex)}",  # type: ignore[arg-type]
                           to=self.secret_to("gb"))
                continue
            gun_hexes.discard(g.hex)
            gun_hexes.add(h)
            self.guns[g.id] = replace(g, hex=h)

    # --------------------------------------------------------------- movement
    def movement(self, side: str, orders: Sequence[Order]) -> None:
        """Phase 1 / 3: enter, then move every aircraft of the side in the order given [R 4, 4.3, 9]."""
        self.bring_in(side, {e.ac: e for e in of_type(orders, Enter)})
        withdraw = [w.ac for w in of_type(orders, Withdraw)]
        self.withdraw_parked(withdraw)
        written = of_type(orders, Move)
        moves = {m.ac: m for m in written}
        order = [m.ac for m in written] + [a.id for a in self.on_board(side) if a.id not in moves]
        bombs = self.bombs_on_the_way(orders)
        for ac_id in order:
            a = self.ac.get(ac_id)
            if a is None or a.status != "board" or a.path:
                continue
            m = moves.get(ac_id) or Move(ac_id, "F" * self.stats(a).min_speed)
            self.move_one(a, m, bombs.get(ac_id, []), ac_id in withdraw)

    def bring_in(self, side: str, enters: dict[str, Enter]) -> None:
        """Reinforcements due and aircraft whose return stage has come enter first [R 4.3.1, 9]."""
        for a in sorted(self.ac.values(), key=lambda a: _ac_key(a.id)):
            if a.side != side:
                continue
            if a.status == "due" and a.due_stage <= self.stage:
                self.enter(a, enters.get(a.id), reinforcement=True)
            elif a.status == "off" and 0 < a.return_stage <= self.stage:
                self.enter(a, enters.get(a.id), reinforcement=False)

    def withdraw_parked(self, ids: list[str]) -> None:
        """WITHDRAW of an aircraft already parked after a south exit: it is gone for good [R 8.1]."""
        for ac_id in ids:
            a = self.ac[ac_id]
            if a.status == "off" and a.exit_edge == "south":
                self.set(a.id, status="withdrawn")
                self.w.say(f"{self.name(a)} has left by the south edge for good [R 8.1]",
                           to=self.secret_to("de"), kind="withdrawn", ac=a.id)

    def bombs_on_the_way(self, orders: Sequence[Order]) -> dict[str, list[Hex]]:
        """Option bomb_timing=movement (G-16): the hexes each aircraft bombs as it flies over them."""
        if self.opts["bomb_timing"] != "movement":
            return {}
        return {b.ac: [board.parse_hex(h) for h in b.hexes] for b in of_type(orders, Bomb)}  # type: ignore[misc]

    def enter(self, a: Aircraft, e: Enter | None, reinforcement: bool) -> None:
        """Reinforcements at their listed hex at HIGH (G-21); returners on an edge hex within 5 of the exit
        hex [R 4.3.1] at the altitude they left (G-6)."""
        if reinforcement:
            alt, near, cands = "HIGH", a.due_hex, [a.due_hex]
        else:
            alt, near = a.left_alt, a.exit_hex
            if e and e.alt and self.opts["return_altitude"] == "owner":
                alt = e.alt
            radius = tables.dice_table()["return_radius"]
            cands = [h for h in board.all_hexes()
                     if board.is_edge(h) and board.distance(h, near) <= max(radius, 0)]  # type: ignore[arg-type]
        h = self.entry_hex(e.hex if e else None, alt, near, cands)  # type: ignore[arg-type]
        facing = e.facing if e and e.facing else inward(h)
        self.set(a.id, status="board", hex=h, alt=alt, facing=facing, return_stage=0, path=())
        what = "arrives as a reinforcement" if reinforcement else "returns to the board"
        self.w.say(f"{self.name(a)} {what} at {board.fmt(h)} facing {facing}, {alt.lower()}",
                   to=self.secret_to(a.side), kind="enter", ac=a.id)
        if not reinforcement and a.side == "de" and a.exit_edge != "south" and self.opts["offboard_roll"] == "return":
            self.offboard_roll(self.ac[a.id])

    def entry_hex(self, want: Hex | None, alt: str, near: Hex, cands: list[Hex]) -> Hex:
        """The hex asked for if it is a free candidate, else the free candidate nearest ``near``, else the
        nearest free edge hex [G-21]."""
        taken = {(x.hex, x.alt) for x in self.on_board()}
        if want is not None and want in cands and (want, alt) not in taken:
            return want
        free = [c for c in cands if (c, alt) not in taken]
        if not free:
            free = sorted((x for x in board.all_hexes() if board.is_edge(x) and (x, alt) not in taken),
                          key=lambda x: (board.distance(x, near), x))[:1]
        return min(free, key=lambda x: (board.distance(x, near), x))

    def move_one(self, a: Aircraft, m: Move, bomb_hexes: list[Hex], withdraw: bool) -> None:
        """Fly one aircraft's move hex by hex [R 4-4.2.6]: an order the counter no longer allows becomes
        straight at minimum speed; a blocked path gives way to the nearest free one, or forced stacking."""
        st = self.stats(a)
        occ = self.occupied(a.id)
        change, path, at = m.change, m.path, m.at
        if movement.altitude_problem(st, a.alt, change) or \
                movement.shape_problem(path, st, change, a.hex, a.facing):  # type: ignore[arg-type]
            change, path = "none", "F" * st.min_speed  # an order made illegal by damage: fly straight at minimum
            self.w.say(f"{a.id}: its order no longer fits its damaged counter; it flies {path}",
                       to=self.secret_to(a.side))
        w = movement.walk(a.hex, a.facing, path)
        collide = False
        if movement.first_block(w, movement.new_alt(a.alt, change), occ, self.end_only, a.alt, at) is not None:
            at = 0
            change, path, w, collide = self.unblock(a, m, change, path, w, occ)
        alt2 = movement.new_alt(a.alt, change)
        entered = self.fly(a, w, alt2, at, occ if collide else None, bomb_hexes)
        if entered is None:
            return
        a = self.set(a.id, facing=w.facing, alt=alt2, path=entered)
        if w.exited:
            self.leave(a, w.off_hex, withdraw)  # type: ignore[arg-type]
        else:
            self.w.say(f"{a.id} flies {_path_text(change, path)} to {board.fmt(a.hex)} facing {a.facing}, "  # type: ignore[arg-type]
                          f"{a.alt.lower()}", to=self.secret_to(a.side), kind="move", ac=a.id)

    @property
    def end_only(self) -> bool:
        return self.opts["occupancy"] == "end_hex"

    def unblock(self, a: Aircraft, m: Move, change: str, path: str, w: Walk,
                occ: Occupied) -> tuple[str, str, Walk, bool]:
        """A path blocked at the aircraft's altitude [R 4.1.1]: the free move nearest the one ordered; if
        every path is blocked, forced stacking [R 4.2.6].  Returns (change, path, walk, collision risk)."""
        st = self.stats(a)
        alts = movement.options(st, a.hex, a.facing, a.alt, occ, self.end_only)  # type: ignore[arg-type]
        if alts:
            ordered_end = w.end or a.hex
            change, path, w = min(alts, key=lambda o: (o[0] != change, board.distance(o[2].end or a.hex, ordered_end),  # type: ignore[arg-type]
                                                       abs(len(o[1]) - len(path)), o[1]))
            self.w.say(f"{a.id}: its path was blocked by an aircraft at the same altitude "
                          f"[R 4.1.1]; it flies {_path_text(change, path)} instead", to=self.secret_to(a.side))
            return change, path, w, False
        # forced stacking [R 4.2.6]: change altitude if that frees the path, else risk a collision
        for c in (["dive", "climb"] if m.forced != "climb" else ["climb", "dive"]):
            fits = movement.altitude_problem(st, a.alt, c) is None and \
                movement.shape_problem(path, st, c, a.hex, a.facing) is None  # type: ignore[arg-type]
            if fits and movement.first_block(w, movement.new_alt(a.alt, c), occ, self.end_only) is None:
                self.w.say(f"{a.id}: forced into an occupied hex, it changes altitude ({c}) [R 4.2.6]",
                           to=self.secret_to(a.side))
                return c, path, w, False
        return change, path, w, True

    def fly(self, a: Aircraft, w: Walk, alt2: str, at: int, collide: Occupied | None,
            bomb_hexes: list[Hex]) -> tuple[Hex, ...] | None:
        """Enter the walk's hexes one by one (AA on movement, bombs on the way); the hexes entered, or None
        if the aircraft did not survive.  ``collide``: forced stacking, roll in every occupied hex."""
        entered: list[Hex] = []
        old_alt = a.alt
        for i, (h, f) in enumerate(w.cells):
            alt_here = old_alt if i < at else alt2
            if collide is not None and collide(h, alt_here) and self.collision(a, h, f, alt_here, entered):
                return None
            entered.append(h)
            self.set(a.id, hex=h, facing=f, alt=alt_here, path=tuple(entered))
            if self.opts["aa_timing"] == "movement" and a.side == "de":
                self.aa_on_movement(self.ac[a.id])
                if self.ac[a.id].status != "board":
                    return None
            if h in bomb_hexes:
                self.drop(self.ac[a.id], h)
        return tuple(entered)

    def collision(self, a: Aircraft, h: Hex, f: str, alt: str, entered: list[Hex]) -> bool:
        """Forced into an occupied hex: a 6 is a collision destroying both [R 4.2.6, G-25]; True if so."""
        other = next(x for x in self.on_board() if x.hex == h and x.alt == alt and x.id != a.id)
        v = self.w.roll(6, f"collision check {a.id} with {other.id} at {board.fmt(h)} (6 = collision) [R 4.2.6]",
                        seen_by=EVERYONE)
        if v not in tables.dice_table()["collision"]:
            self.w.say(f"{a.id} squeezes in beside {other.id} at {board.fmt(h)} without a collision [R 4.2.6]")
            return False
        award = self.opts["collision_vp"] == "award"
        self.set(a.id, hex=h, alt=alt, facing=f, path=tuple(entered + [h]))
        self.w.say(f"{a.id} and {other.id} collide at {board.fmt(h)}", kind="collision")
        self.destroy(self.ac[a.id], "collision", shot_down=award)
        self.destroy(other, "collision", shot_down=award)
        return True

    def leave(self, a: Aircraft, off: Hex, withdraw: bool) -> None:
        """Leaving the board [R 4.3, 4.3.1, 4.3.2, 8.1]."""
        edge = board.edge_of(off)
        last = a.path[-1] if a.path else a.hex
        ret = self.stage + tables.dice_table()["offboard_return_after"]
        a = self.set(a.id, status="off", exit_hex=last, exit_edge=edge, left_alt=a.alt, return_stage=ret, path=a.path)
        if a.side == "de" and edge == "south" and withdraw:
            self.set(a.id, status="withdrawn", return_stage=0)
            # fog: the British only see it leave, not the declaration (digest 5.7)
            self.w.say(f"{self.name(a)} leaves by the south edge and withdraws for good [R 8.1]",
                       to=self.secret_to("de"), kind="withdrawn", ac=a.id)
            if self.fog:
                self.w.say(f"{self.name(a)} leaves the board by the south edge", to="gb", kind="leave")
            return
        text = f"{self.name(a)} leaves the board by the {edge} edge at {board.fmt(last)}"  # type: ignore[arg-type]
        if a.side == "gb":
            self.w.say(text, to=self.secret_to("gb"), kind="leave", ac=a.id)
        else:
            self.w.say(text, kind="leave", ac=a.id)
        self.w.say(f"{a.id} may return in stage {ret} on an edge hex within 5 of {board.fmt(last)} [R 4.3.1]",  # type: ignore[arg-type]
                   to=self.secret_to(a.side))
        if a.side == "de" and edge != "south" and self.opts["offboard_roll"] == "exit":
            self.offboard_roll(a)

    def offboard_roll(self, a: Aircraft) -> None:
        """German aircraft leaving other than south: 1 shot down, 2 damaged, 3-6 unchanged [R 4.3.2]."""
        d = tables.dice_table()
        v = self.w.roll(6, f"{a.id} off the board (1 shot down, 2 damaged, 3-6 safe) [R 4.3.2]", seen_by=EVERYONE)
        if v in d["offboard_destroyed"] or (v in d["offboard_damaged"] and a.damaged):
            self.destroy(a, "shot down off the board [R 4.3.2]")
        elif v in d["offboard_damaged"]:
            self.set(a.id, damaged=True)
            self.w.say(f"{self.name(a)} is damaged off the board [R 4.3.2]", kind="damaged", ac=a.id)

    # ------------------------------------------------------------------ combat
    def can_fire(self, a: Aircraft, target: str = "") -> bool:
        if a.status != "board" or a.jammed:
            return False
        if a.fired_stage == self.stage:
            return self.opts["one_shot"] == "target" and target != "" and a.fired_target == target
        return True

    def unseen_by(self, a: Aircraft, side: str) -> bool:
        """True when ``side`` may not see aircraft ``a`` (fog games; the British see all by radar)."""
        if not self.fog or side == "gb" or a.side == side:
            return False
        eyes = [x.hex for x in self.on_board(side)]
        return not combat.seen(a.hex, a.alt, eyes, int(self.opts["visual_range"]))

    def label(self, a: Aircraft, for_side: str) -> str:
        """How ``for_side`` may call aircraft ``a`` in a report everyone reads."""
        return "an unseen aircraft" if self.unseen_by(a, for_side) else a.id

    def say_shot(self, shooter: Aircraft, target: Aircraft, text: str, kind: str) -> None:
        """A shot's report; the target's side learns only that an unseen aircraft fired if it cannot see
        the shooter [digest 5], so a fog game never names a hidden aircraft."""
        if not self.unseen_by(shooter, target.side):
            self.w.say(text.format(shooter=shooter.id), kind=kind)
            return
        self.w.say(text.format(shooter=shooter.id), to=shooter.side, kind=kind)
        self.w.say(text.format(shooter="an unseen aircraft"), to=target.side, kind=kind)

    def shot(self, shooter: Aircraft, target: Aircraft, dist: int, strength: int, notes: list[str]) -> bool:
        """Roll one attack; returns True on a hit (the caller applies it) [R 5.2, 5.3.4, Table 2]."""
        self.set(shooter.id, fired_stage=self.stage, fired_target=target.id)
        mods = f" ({'; '.join(notes)})" if notes else ""
        rng = tables.hit_range(strength, dist)
        if rng is None and self.opts["zero_strength"] == "no_roll":
            self.say_shot(shooter, target, f"{{shooter}} fires at {target.id} at distance {dist} with strength "
                          f"{strength}{mods}: no hit possible, no roll [G-14]", "fire")
            return False
        who = "an unseen aircraft" if self.unseen_by(shooter, target.side) else shooter.id
        s = self.w.roll(6, f"{who} fires at {target.id}, first die", seen_by=EVERYONE) + \
            self.w.roll(6, f"{who} fires at {target.id}, second die", seen_by=EVERYONE)
        if s in tables.jam_sums():
            self.set(shooter.id, jammed=True)
            self.say_shot(shooter, target, f"{{shooter}} fires at {target.id} (distance {dist}, strength "
                          f"{strength}{mods}): rolls {s}, guns jammed [R 5.3.4]", "jam")
            return False
        hit = rng is not None and rng[0] <= s <= rng[1]
        need = f"needs {rng[0]}-{rng[1]}" if rng else "cannot hit"
        self.say_shot(shooter, target, f"{{shooter}} fires at {target.id} (distance {dist}, strength {strength}"
                      f"{mods}, {need}): rolls {s}, {'hit' if hit else 'miss'}", "fire")
        return hit

    def target(self, a: Aircraft) -> tuple[Aircraft, int] | None:
        t = combat.target_of(plane(a), self.planes(), self.opts)
        return (self.ac[t[0].id], t[1]) if t else None

    def fire(self, shooter: Aircraft, expect: str = "") -> None:
        """An attack by the phasing side, results applied at once [R 5.3.7, 5.3.8, G-32]."""
        shooter = self.ac[shooter.id]
        tg = self.target(shooter) if shooter.status == "board" else None
        if shooter.status != "board":
            return
        if tg is None:
            self.w.say(f"{shooter.id} has no enemy as the nearest aircraft on its line of fire; "
                          "it holds fire", to=self.secret_to(shooter.side))
            return
        t, d = tg
        if expect and t.id.lower() != expect.lower():
            self.w.say(f"{shooter.id} holds fire: the nearest target is not {expect}", to=self.secret_to(shooter.side))
            return
        if not self.can_fire(shooter, t.id):
            why = "its guns are jammed" if shooter.jammed else "it has already fired this stage [R 5.3.1]"
            self.w.say(f"{shooter.id} cannot fire: {why}", to=self.secret_to(shooter.side))
            return
        st, notes = combat.strength(plane(shooter), plane(t), self.s.sun, self.opts)
        if self.shot(shooter, t, d, st, notes):
            self.hit(t, f"hit by {self.label(shooter, t.side)}")

    def reactive_candidates(self, phasing: str) -> list[tuple[Aircraft, Aircraft, int]]:
        out = []
        for b in self.on_board(OTHER[phasing]):
            tg = self.target(b)
            if tg and self.can_fire(b, tg[0].id):
                out.append((b, tg[0], tg[1]))
        return out

    def wants_react(self, b: Aircraft, t: Aircraft, decisions: dict[str, str]) -> str:
        """FIRE, HOLD or ASK for aircraft b whose nearest target is t [R 5.4, G-31]."""
        if b.id in decisions:
            return decisions[b.id]
        pol = self.policy(b.id, "react", self.opts["react_default"].upper())
        if pol == "ALWAYS":
            return "FIRE"
        if pol == "NEVER":
            return "HOLD"
        if pol == "ASK":
            return "ASK"
        if pol == "BOMBER":
            return "FIRE" if tables.type_info(t.type)["vp_class"] == "bomber" else "HOLD"
        if pol.startswith("STRENGTH:"):
            st, _ = combat.strength(plane(b), plane(t), self.s.sun, self.opts)
            return "FIRE" if st >= int(pol.split(":")[1]) else "HOLD"
        return "FIRE"

    def reactive_fire(self, phasing: str, decisions: dict[str, str]) -> None:
        """Non-phasing aircraft fire first at phasing aircraft on their line [R 3 Faza 2/4, 5.4]; a target
        that has the reacting aircraft as its own target may return fire simultaneously."""
        for b in self.on_board(OTHER[phasing]):
            b = self.ac[b.id]
            if b.status != "board":
                continue
            tg = self.target(b)
            if not tg or not self.can_fire(b, tg[0].id):
                continue
            t, d = tg
            if self.wants_react(b, t, decisions) != "FIRE":
                continue
            back = self.target(t)
            mutual = back is not None and back[0].id == b.id and self.can_fire(t, b.id) and \
                self.policy(t.id, "return", "YES") == "YES"
            sb, nb = combat.strength(plane(b), plane(t), self.s.sun, self.opts)
            if mutual:
                st_, nt = combat.strength(plane(t), plane(b), self.s.sun, self.opts)
                self.w.say(f"{b.id} and {t.id} fire at each other simultaneously [R 5.4]", kind="mutual")
                h1 = self.shot(b, t, d, sb, nb)
                h2 = self.shot(t, b, d, st_, nt)
                if h1:
                    self.hit(t, f"hit by {self.label(b, t.side)}")
                if h2:
                    self.hit(b, f"hit by {self.label(t, b.side)}")
            else:
                self.say_shot(b, t, f"{{shooter}} fires reactively at {t.id} [R 5.4]", "react")
                if self.shot(b, t, d, sb, nb):
                    self.hit(t, f"hit by {self.label(b, t.side)}")

    def ask_list(self, phasing: str) -> list[dict[str, Any]]:
        """Reactive decisions no standing order covers (policy ASK) [digest 4.3 IP-2/IP-5]."""
        out = []
        for b, t, d in self.reactive_candidates(phasing):
            if self.wants_react(b, t, {}) == "ASK":
                st, notes = combat.strength(plane(b), plane(t), self.s.sun, self.opts)
                out.append({"ac": b.id, "seat": b.seat, "target": t.id, "dist": d, "strength": st,
                            "range": list(tables.hit_range(st, d) or [])})
        return out

    def drop(self, a: Aircraft, h: Hex) -> None:
        """One bomb series on a hex [R 7.0-7.0.10, Table 1, 9.2]."""
        a = self.ac[a.id]
        if a.status != "board" or a.bombs <= 0 or h in a.bombed:
            return
        if a.jammed and self.opts["jammed_bombing"] == "no":
            self.w.say(f"{a.id} has jammed guns and may not bomb (option jammed_bombing=no)", to=self.secret_to(a.side))
            return
        a = self.set(a.id, bombs=a.bombs - 1, bombed=a.bombed + (h,))
        ter = board.terrain()
        oid = ter.object_at(h)
        text = f"{a.id} drops a bomb series on {board.fmt(h)}"
        if oid:
            self.bombed.add(oid)
            if oid in targets(self.s.scenario):
                self.vp["de"] += int(self.opts["vp_per_series"])
                text += f", strategic object {oid} (a scenario target): DE +{self.opts['vp_per_series']}"
            else:
                text += f", strategic object {oid} (not a target of this scenario, no VP)"
        self.w.say(text, kind="bomb", hex=board.fmt(h))
        for g in sorted(self.guns.values(), key=lambda g: _ac_key(g.id)):
            if g.hex == h and not g.destroyed:
                v = self.w.roll(6, f"bombs on AA gun {g.id} at {board.fmt(h)} (4-6 destroyed) [R 7.0.6]",
                                seen_by=EVERYONE)
                if v in tables.dice_table()["bomb_destroys_gun"]:
                    self.guns[g.id] = replace(g, destroyed=True, revealed=True)
                    self.w.say(f"AA gun {g.id} at {board.fmt(h)} is destroyed by the bombs", kind="gun")
                else:
                    self.guns[g.id] = replace(g, revealed=True)
                    self.w.say(f"AA gun {g.id} at {board.fmt(h)} survives the bombs", kind="gun")
        tg = targets(self.s.scenario)
        bonus = scenario_data(self.s.scenario)["all_targets_bonus"]
        if bonus and not self.bonus_done and all(t in self.bombed for t in tg):
            self.bonus_done = True
            self.vp["de"] += bonus
            self.w.say(f"every target of the scenario has been bombed: DE +{bonus} [R 9.2]", kind="bonus")

    def bomb(self, a: Aircraft, hexes: list[Hex]) -> None:
        a = self.ac[a.id]
        for h in hexes:
            if h not in a.path:
                self.w.say(f"{a.id} did not fly over {board.fmt(h)} this stage: no bombs there [R 7.0.2]",
                           to=self.secret_to(a.side))
                continue
            self.drop(a, h)

    def unjam(self, a: Aircraft) -> None:
        """One unjam try: 6 clears the jam from the next stage [R 5.3.4]."""
        a = self.ac[a.id]
        if a.status != "board" or not a.jammed or a.unjam_stage:
            return
        v = self.w.roll(6, f"{a.id} tries to clear its guns (6 succeeds) [R 5.3.4]", seen_by=self.secret_to(a.side))
        if v in tables.dice_table()["unjam_success"]:
            self.set(a.id, unjam_stage=self.stage)
            self.w.say(f"{a.id} clears its guns; it may fire again from the next stage",
                       to=self.secret_to(a.side), kind="unjam")
        else:
            self.w.say(f"{a.id} fails to clear its guns", to=self.secret_to(a.side), kind="unjam")

    def aa_fire(self, g: Gun, t: Aircraft) -> None:
        """One AA shot [R 6.1, 6.2, Table 4]."""
        g, t = self.guns[g.id], self.ac[t.id]
        if g.destroyed or g.fired_stage == self.stage or t.status != "board" or t.side != "de":
            return
        rng, why = combat.aa_can_hit(g.hex, plane(t), self.s.sun, self.opts)  # type: ignore[arg-type]
        if why == "out of range":
            self.w.say(f"{g.id}: {t.id} is not within 1 hex of the gun [R 6.1]", to=self.secret_to("gb"))
            return
        self.guns[g.id] = replace(g, fired_stage=self.stage, revealed=True)
        if rng is None:
            self.w.say(f"AA gun {g.id} fires at {t.id}: {why} [R 6.2.5, Table 4]", kind="aa")
            return
        v = self.w.roll(6, f"AA gun {g.id} fires at {t.id} (hits on {rng[0]}-{rng[1]}) [Table 4]", seen_by=EVERYONE)
        ok = rng[0] <= v <= rng[1]
        self.w.say(f"AA gun {g.id} at {board.fmt(g.hex)} fires at {t.id}: rolls {v}, {'hit' if ok else 'miss'}",  # type: ignore[arg-type]
                   kind="aa")
        if ok:
            self.hit(t, f"AA gun {g.id}")

    def best_aa_target(self, g: Gun, only_bombers: bool) -> Aircraft | None:
        best = None
        for t in self.on_board("de"):
            if only_bombers and tables.type_info(t.type)["vp_class"] != "bomber":
                continue
            rng, _ = combat.aa_can_hit(g.hex, plane(t), self.s.sun, self.opts)  # type: ignore[arg-type]
            if rng is None:
                continue
            key = (-(rng[1] - rng[0]), tables.type_info(t.type)["vp_class"] != "bomber", not t.damaged, _ac_key(t.id))
            if best is None or key < best[0]:
                best = (key, t)
        return best[1] if best else None

    def aa_auto(self) -> None:
        for g in sorted(self.guns.values(), key=lambda g: _ac_key(g.id)):
            if g.destroyed or g.fired_stage == self.stage:
                continue
            pol = self.policy(g.id, "aa", "AUTO")
            if pol == "HOLD":
                continue
            t = self.best_aa_target(g, pol == "BOMBERS")
            if t is not None:
                self.aa_fire(g, t)

    def aa_on_movement(self, a: Aircraft) -> None:
        """Option aa_timing=movement (G-15): guns fire by standing order as a German aircraft comes near."""
        for g in sorted(self.guns.values(), key=lambda g: _ac_key(g.id)):
            a = self.ac[a.id]
            if a.status != "board" or g.destroyed or g.fired_stage == self.stage:
                continue
            if board.distance(g.hex, a.hex) > 1:  # type: ignore[arg-type]
                continue
            pol = self.policy(g.id, "aa", "AUTO")
            if pol == "HOLD" or (pol == "BOMBERS" and tables.type_info(a.type)["vp_class"] != "bomber"):
                continue
            rng, _ = combat.aa_can_hit(g.hex, plane(a), self.s.sun, self.opts)  # type: ignore[arg-type]
            if rng is not None:
                self.aa_fire(g, a)

    def actions(self, acts: Sequence[Action]) -> None:
        """The phasing side's attacks, bombs, unjam tries and AA shots in the order written [R 3.0, 5.3.8]."""
        for act in acts:
            if isinstance(act, Fire):
                a = self.ac.get(act.ac)
                if a is not None and a.status == "board":
                    self.fire(a, act.at)
            elif isinstance(act, Bomb) and self.opts["bomb_timing"] == "combat":
                self.bomb(self.ac[act.ac], [board.parse_hex(h) for h in act.hexes])  # type: ignore[misc]
            elif isinstance(act, Unjam):
                self.unjam(self.ac[act.ac])
            elif isinstance(act, AaFire) and self.opts["aa_timing"] == "combat":
                self.aa_fire(self.guns[act.gun], self.ac[act.at])

    # ------------------------------------------------------------------- stage
    def combat_phase(self, phasing: str, actions: Sequence[Action], decisions: dict[str, str]) -> None:
        self.reactive_fire(phasing, decisions)
        self.actions(actions)
        if phasing == "gb" and self.opts["aa_timing"] == "combat":
            self.aa_auto()

    def new_stage(self) -> None:
        """Advance the stage marker and clear per-stage marks [R 3, 2.0]."""
        self.w.new_turn()
        for a in list(self.ac.values()):
            kw: dict[str, Any] = {"path": (), "bombed": ()}
            if a.jammed and a.unjam_stage and a.unjam_stage < self.stage:
                kw.update(jammed=False, unjam_stage=0)
            self.set(a.id, **kw)

    def present(self, side: str) -> bool:
        """Does the side still have units in play (on the board, parked to return, or due)? [R 8.1, G-26]"""
        if any(a.side == side and a.status in ("board", "off", "due") for a in self.ac.values()):
            return True
        return side == "gb" and any(not g.destroyed for g in self.guns.values())

    def end_reason_now(self, after_gb_phase: bool) -> str:
        de, gb = self.present("de"), self.present("gb")
        if not de and not gb:
            return "no units of either side remain on the board"
        if not de:
            return "only British units remain on the board [R 8.1]"
        if not gb:
            return "only German units remain on the board [R 8.1]"
        lim = int(self.opts["stage_limit"])
        if after_gb_phase and lim and self.stage >= lim:
            return f"the stage limit ({lim}) is reached (option stage_limit, G-26)"
        return ""


def _path_text(change: str, path: str) -> str:
    return path if change == "none" else f"{change} {path}"


def _ac_key(ac_id: str) -> tuple[str, int]:
    head, _, tail = ac_id.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (ac_id, 0)
