"""Phase 8, Administration [12]: reinforcements, RESTRICTED markers, air refit, markers, fuel, turn track."""
from __future__ import annotations

from pbem.core.texts import t_

from dataclasses import replace

from .work import Work

RESTRICTED = ("escort", "restricted")  # off the map under a RESTRICTED marker


def administration(w: Work) -> None:
    nxt = w.s.turn + 1
    _reinforcements(w, nxt)
    _lifts(w, nxt)
    _air(w)
    _ships(w, nxt)
    w.dissolve_small_tfs()
    w.retarget_contacts()
    if not w.s.ended and w.s.turn >= w.s.last:
        w.s = replace(w.s, ended="turn-track")


def release(w: Work, ships: list[str]) -> None:
    """RELEASE orders of this turn take effect now [12]."""
    for sid in ships:
        rel = next((r for r in w.s.releases if r[0] == sid), None)
        if rel and w.ships[sid].status in RESTRICTED:
            w.set(sid, status="sea", hex=rel[2], markers=(), fuel=w.ships[sid].fuel_max)
            w.tell("allied", t_('%(sid)s is released from escort duty and placed in %(v)s', sid=sid, v=rel[2]))


def _reinforcements(w: Work, nxt: int) -> None:
    for sid, turn, h in w.s.reinforcements:
        if turn == nxt and w.ships[sid].status == "pending":
            w.set(sid, status="sea", hex=h, fuel=w.ships[sid].fuel_max)
            w.tell("allied", t_('reinforcement: %(sid)s arrives in %(h)s', sid=sid, h=h))


def _lifts(w: Work, nxt: int) -> None:
    """RESTRICTED markers that come off by the turn, or once Bismarck is located [12]."""
    located = any(c.holder == "allied" and "bismarck" in [x.id for x in w.unit_ships(c.unit)] for c in w.contacts)
    for sid, turn, event, h in w.s.lifts:
        if w.ships[sid].status not in RESTRICTED:
            continue
        why = ("its time has come" if 0 <= turn <= nxt else
               "Bismarck has been located" if event == "bismarck-located" and located else "")
        if why:
            w.set(sid, status="sea", hex=h, markers=(), fuel=w.ships[sid].fuel_max)
            w.tell("allied", t_('%(sid)s: RESTRICTED marker removed (%(why)s); placed in %(h)s [12]', sid=sid, why=why, h=h))


def _air(w: Work) -> None:
    """Refit -> ready, landing -> refit; aircraft of a lost carrier are lost."""
    for a in sorted(w.air.values(), key=lambda a: a.id):
        if a.status == "refit":
            w.air[a.id] = replace(a, status="ready", hex=None)
        elif a.status == "landing":
            w.air[a.id] = replace(a, status="refit", hex=None)
        if a.base in w.ships and not w.ships[a.base].afloat and w.air[a.id].status != "aloft":
            w.air[a.id] = replace(w.air[a.id], status="lost")


def _ships(w: Work, nxt: int) -> None:
    """One-turn markers come off, NO MVT counts down, emergency fuel runs out [7.7.2]."""
    for x in w.afloat():
        markers = tuple(m for m in x.markers if m not in ("patrol", "patrol-tf", "repair", "port", "refuel",
                                                          "evasion"))
        w.set(x.id, markers=markers, no_mvt=max(0, x.no_mvt - 1))
        if x.emergency >= 0 and nxt >= x.emergency:
            w.set(x.id, status="removed", hex=None, tf=None)
            # fuel is kept behind the owner's screen; only Bismarck's loss, which ends the game, is public [4]
            if x.id == "bismarck":
                w.say(t_("bismarck ran out of emergency fuel and is lost"), "end")
            else:
                w.say(t_('%(id)s ran out of emergency fuel and is lost', id=x.id), "fuel", to=x.side)
            if x.id == "bismarck":
                w.s = replace(w.s, ended="emergency-fuel")
