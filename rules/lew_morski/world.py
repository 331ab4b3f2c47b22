"""Resolution: the game's working data for one resolve call [R 3-8; digest 4.2].

``World`` is opened by the kit's step table from a frozen :class:`State` and the kit's
:class:`~pbem.core.work.Work` (events, dice, stage, standing orders), changed while a phase is
resolved, and frozen again (``freeze``); nothing outside the call ever sees it.  It holds what every
part of a resolution shares -- the counters, losses and VP, standing orders, the setup placement, the
stage and the end of the game; ``flight`` resolves movement and ``attacks`` combat, as functions of it.
Every event goes through ``Work.say``; :meth:`World.secret_to` is the fog rule for reports of one
side's own doings.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from pbem.core.texts import t_
from pbem.core.work import EVERYONE, Audience, Work

from . import board, combat, tables
from .combat import plane
from .movement import Occupied
from .orders import Order, Place, PlaceGun, kept_policy, of_type
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
        return replace(self.s, aircraft=tuple(self.ac[k] for k in sorted(self.ac, key=ac_key)),
                       guns=tuple(self.guns[k] for k in sorted(self.guns, key=ac_key)),
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

    def hidden_from(self, a: Aircraft, side: str) -> bool:
        """True when ``side`` may not see aircraft ``a``: a fog game, German eyes out of visual range or into
        cloud (the British see all by radar).  The one rule views, targets and events use."""
        if not self.fog or side == "gb" or a.side == side:
            return False
        eyes = [x.hex for x in self.on_board(side)]
        return not combat.seen(a.hex, a.alt, eyes, int(self.opts["visual_range"]))

    def set(self, ac_id: str, **kw: Any) -> Aircraft:
        self.ac[ac_id] = replace(self.ac[ac_id], **kw)
        return self.ac[ac_id]

    def on_board(self, side: str | None = None) -> list[Aircraft]:
        return [a for a in sorted(self.ac.values(), key=lambda a: ac_key(a.id))
                if a.status == "board" and (side is None or a.side == side)]

    def planes(self) -> list[combat.Plane]:
        return [plane(a) for a in self.on_board()]

    def stats(self, a: Aircraft) -> tables.Stats:
        return tables.stats(a.type, a.damaged, a.commander, a.bombs)

    def occupied(self, mover: str) -> Occupied:
        taken = {(a.hex, a.alt) for a in self.on_board() if a.id != mover}
        return lambda h, alt: (h, alt) in taken

    def name(self, a: Aircraft) -> str:
        return t_("%(id)s (%(name)s)", id=a.id, name=tables.type_info(a.type)["name"])

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
        vp = t_("VP now DE %(de)s, GB %(gb)s", de=self.vp["de"], gb=self.vp["gb"])
        other = "de" if a.side == "gb" else "gb"
        if self.hidden_from(a, other):  # the score is public, the aircraft is not (fog)
            self.w.say(t_("%(name)s is destroyed (%(how)s); %(vp)s", name=self.name(a), how=how, vp=vp), to=a.side,
                       kind="destroyed", ac=a.id)
            self.w.say(t_("an unseen aircraft is destroyed (%(how)s); %(vp)s", how=how, vp=vp), to=other,
                       kind="destroyed")
            return
        self.w.say(t_("%(name)s is destroyed (%(how)s); %(vp)s", name=self.name(a), how=how, vp=vp), kind="destroyed",
                   ac=a.id)

    def hit(self, a: Aircraft, how: str) -> None:
        """A hit damages (flips) an intact aircraft and destroys a damaged one [R 5.2, 6.1]."""
        a = self.ac[a.id]
        if a.status != "board":
            return
        if a.damaged:
            self.destroy(a, how)
        else:
            self.set(a.id, damaged=True)
            self.w.say(t_("%(name)s is damaged (%(how)s) and flies on its reverse side", name=self.name(a), how=how),
                       kind="damaged", ac=a.id)

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
                self.w.say(t_("%(id)s: %(hex)s is already taken, it keeps %(old)s", id=a.id, hex=board.fmt(h),
                              old=board.fmt(a.hex)),  # type: ignore[arg-type]
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
                self.w.say(t_("%(id)s: %(hex)s already holds a gun, it stays at %(old)s", id=g.id, hex=board.fmt(h),
                              old=board.fmt(g.hex)),  # type: ignore[arg-type]
                           to=self.secret_to("gb"))
                continue
            gun_hexes.discard(g.hex)
            gun_hexes.add(h)
            self.guns[g.id] = replace(g, hex=h)

    @property
    def end_only(self) -> bool:
        return self.opts["occupancy"] == "end_hex"

    # ------------------------------------------------------------------- stage
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
            return REASONS[0]
        if not de:
            return REASONS[1]
        if not gb:
            return REASONS[2]
        lim = int(self.opts["stage_limit"])
        if after_gb_phase and lim and self.stage >= lim:
            return stage_limit_reached(lim)
        return ""


REASONS = (t_("no units of either side remain on the board"), t_("only British units remain on the board [R 8.1]"),
           t_("only German units remain on the board [R 8.1]"))


def stage_limit_reached(lim: int) -> str:
    return t_("the stage limit (%(n)s) is reached (option stage_limit)", n=lim)


def reason_text(reason: str) -> str:
    """The end of the game as a message again: the state keeps only its English (so reloads keep their bytes)."""
    known = {str(r): r for r in REASONS}
    m = re.fullmatch(r"the stage limit \((\d+)\) is reached \(option stage_limit\)", reason)
    return stage_limit_reached(int(m.group(1))) if m else known.get(reason, reason)


def ac_key(ac_id: str) -> tuple[str, int]:
    """Sort key: "Spit-10" after "Spit-9"."""
    head, _, tail = ac_id.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (ac_id, 0)
