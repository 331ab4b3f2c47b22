"""Fighter-bombers [3.2.1, 9.2.1.1]: fighters given the Bombing mission.  While they carry their bomb load they
count as bombers; once rid of it they are fighters again, on Sweep [3.2.1].  They must jettison the load as soon
as they tally an enemy, in the Tally Phase or after an air combat [9.2.1.1].

The basic game gives a loaded fighter-bomber no way of its own to tally (it counts as a bomber, and bombers do
not roll, 7.2).  Advanced rule 15.2.4 gives it the roll (``tally.fighter_bomber_rolls``) and lets a defending
fighter-bomber decline the tally an air combat gives it, keeping its load (``decline_after_combat``).
"""
from __future__ import annotations

from pbem.core.work import Work

from .air import Air
from .fog import tell
from .model import Squadron
from .tables import card


def is_fighter_bomber(sq: Squadron) -> bool:
    """A fighter-class aircraft on the Bombing mission still carrying its load [3.2.1]."""
    return sq.mission == "bombing" and sq.bombs and card(sq.model)["class"] == "fighter"


def without_load(sq: Squadron) -> Squadron:
    """A squadron that jettisons its bomb load [9.2.1.1]: a bomber returns to base [9.2.6]; a fighter-bomber
    is a fighter again, on Sweep [3.2.1]."""
    if is_fighter_bomber(sq):
        return sq.move(bombs=False, mission="sweep")
    return sq.move(bombs=False, mission="rtb")


def jettison_on_tally(w: Work[Air], when: str) -> None:
    """Every loaded fighter-bomber that tallies an enemy jettisons its load now [9.2.1.1]; tallying, it is
    Alert [7.1].  ``when`` says at which point (the Tally Phase, after an air combat) for the players."""
    air = w.data
    for sq in list(air.squadrons.values()):
        if sq.on_map and sq.tally and is_fighter_bomber(sq):
            air.put(without_load(sq).move(alert=True))
            tell(w, f"{sq.id} tallies {sq.tally} {when} and must jettison its bomb load: a fighter again, on Sweep "
                 f"(9.2.1.1, 3.2.1)", [sq.id], kind="tally")


def decline_after_combat(w: Work[Air], defenders: list[str]) -> None:
    """At the end of an air combat a defending fighter-bomber may decline the tally it was given (7.2.2) to keep
    its bomb load and go on with its mission [15.2.4]; only fighter-bombers may.  Declining is the default here,
    the choice the rule exists for: the mission goes on (a pursuing fighter-bomber would jettison, 9.2.1.1)."""
    air = w.data
    if not air.state.uses("15.2.4"):
        return
    for sid in defenders:
        sq = air.squadron(sid)
        if sq.on_map and sq.tally and not sq.dogfight and is_fighter_bomber(sq):
            air.put(sq.move(tally=""))
            tell(w, f"{sq.id} declines to pursue {sq.tally} after the air combat and keeps its bomb load (15.2.4)",
                 [sq.id], kind="tally")
