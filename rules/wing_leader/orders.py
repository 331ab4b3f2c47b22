"""Typed orders, one frozen value per verb, parsed and checked against the view at ingest.

Tally window [6.0 Tally Phase]: ``TALLY <sq> <enemy>`` and ``DROP <sq>``.  Movement window [6.0 Movement
Phase]: ``MOVE <sq> [DIVE] <steps>``, and the relative orders resolved at the squadron's turn in the
interleaved order: ``PURSUE <sq> [DIVE]``, ``RTB <sq>``, ``SWEEP <sq>``, ``CIRCLE <sq>``, ``JETTISON <sq>``, ``JOIN <sq>
<friend>``, ``RETURN <sq> <square>``; and for the
Administrative Phase ``VECTOR <sq> <square>`` (GCI, 9.2.4), ``ESCAPE <sq>`` (11.0), ``BREAK <sq>``
(a voluntary break after combat, 10.7.1) and ``ESCORT <sq>`` (a former escort escorts again, 9.2.2).  Any of them may
be conditional (``IF TALLYING A THEN PURSUE A ELSE RTB A``); a later order for the same squadron stands in
when the earlier cannot be carried out.  Standing orders: ``TACTIC <sq> SPEED|TURN|BEST|ASK`` [10.5],
``REACT <escort> YES|NO|SPLIT|ASK`` [10.4, 10.4.2], ``DOGFIGHT SEEK|DECLINE|ASK`` [10.8], ``LEADS <sq>...|ASK`` [10.2],
``HITS <enemy>...|ASK`` [10.2.2] and ``RETALLY <enemy>...|ASK`` [10.8.1]; before the first turn, a wing
player's ``WINGS <sq>...`` [9.5]; a dogfight stack's move if the die gives
it to this side: ``STACK <sq> STAY|<square>`` [10.8.2].  Set-up by the players (option ``setup = players``):
``VETERAN|GREEN|EXPERTE <sq>...`` [5.2.1], ``PLACE <sq> <square>`` [5.3 steps 5-6], ``VECTOR`` [5.3 step 4, 5.3.1].
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from pbem.core.scripts import Condition, If
from pbem.core.verbs import Order


@dataclass(frozen=True)
class Tally:
    sq: str
    target: str

    def text(self) -> str:
        return f"TALLY {self.sq} {self.target}"


@dataclass(frozen=True)
class Command:
    """A Wing Leader's order: the recipient tallies the target without a roll [9.5.4, 7.2.4]; with
    ``wing``, every Available squadron of ``sq``'s wing formation does (``ORDER WING``, 9.5.4.1)."""

    sq: str
    target: str
    wing: bool = False

    def text(self) -> str:
        return f"ORDER {'WING ' if self.wing else ''}{self.sq} {self.target}"


@dataclass(frozen=True)
class Split:
    """Split a squadron into two flights in the Tally Phase [9.3], with the owner's choices [9.3.1]: the losses
    of the first flight (None: shared evenly, the first the larger share), and which flight (1 or 2) takes the
    straggler, the Experte, the tally and the Wing Leader marker."""

    sq: str
    losses: int | None = None
    straggler: int = 1
    experte: int = 1
    tally: int = 1
    leader: int = 1   # the flight taking the Wing Leader marker [9.3.1]

    def text(self) -> str:
        chosen = [("LOSSES", self.losses, None), ("STRAGGLER", self.straggler, 1), ("EXPERTE", self.experte, 1),
                  ("TALLY", self.tally, 1), ("LEADER", self.leader, 1)]
        return " ".join([f"SPLIT {self.sq}"] + [f"{k} {v}" for k, v, default in chosen if v != default])


@dataclass(frozen=True)
class Drop:
    sq: str

    def text(self) -> str:
        return f"DROP {self.sq}"


@dataclass(frozen=True)
class Move:
    sq: str
    steps: tuple[str, ...]
    dive: bool = False

    def text(self) -> str:
        return " ".join(["MOVE", self.sq] + (["DIVE"] if self.dive else []) + list(self.steps))


@dataclass(frozen=True)
class Pursue:
    sq: str
    dive: bool = False

    def text(self) -> str:
        return f"PURSUE {self.sq}" + (" DIVE" if self.dive else "")


@dataclass(frozen=True)
class Plain:
    """RTB, SWEEP, CIRCLE or JETTISON: a relative order with no arguments but the squadron."""

    verb: str
    sq: str
    dive: bool = False   # RTB <sq> DIVE: the dive bonus, declared before it moves [8.2, 9.2.6]

    def text(self) -> str:
        return f"{self.verb} {self.sq}" + (" DIVE" if self.dive else "")


@dataclass(frozen=True)
class Vector:
    """Ask ground control to place or move an Intercept's vector, rolled in the Administrative Phase."""

    sq: str
    square: str

    def text(self) -> str:
        return f"VECTOR {self.sq} {self.square}"


@dataclass(frozen=True)
class Place:
    """Set an escort up on a square of its owner's choosing before the first turn [5.3 step 5, 9.2.2]."""

    sq: str
    square: str

    def text(self) -> str:
        return f"PLACE {self.sq} {self.square}"


@dataclass(frozen=True)
class Markers:
    """``VETERAN|GREEN|EXPERTE <sq>...``: where a player places his markers of that kind in the set-up [5.2.1]."""

    kind: str   # VETERAN, GREEN or EXPERTE
    squadrons: tuple[str, ...]

    def text(self) -> str:
        return " ".join((self.kind,) + self.squadrons)


@dataclass(frozen=True)
class Lead:
    """``LEADER <sq>``: the squadron of its wing that carries the Wing Leader marker, chosen in the set-up [5.2.1]."""

    wing: str
    sq: str

    def text(self) -> str:
        return f"LEADER {self.sq}"


@dataclass(frozen=True)
class Escape:
    """A broken squadron tries to escape in the Administrative Phase [11.0]."""

    sq: str

    def text(self) -> str:
        return f"ESCAPE {self.sq}"


@dataclass(frozen=True)
class End:
    """This side agrees to end the game after this turn; it ends when both sides send it [12.0]."""

    side: str

    def text(self) -> str:
        return "END"


@dataclass(frozen=True)
class Rejoin:
    """Mark a former escort Escort again in the Administrative Phase [9.2.2]."""

    sq: str

    def text(self) -> str:
        return f"ESCORT {self.sq}"


@dataclass(frozen=True)
class Break:
    """A player breaks his own squadron after combat [10.7.1]."""

    sq: str

    def text(self) -> str:
        return f"BREAK {self.sq}"


@dataclass(frozen=True)
class PlaceBarrage:
    """The flak owner puts flak unit ``unit``'s Barrage marker on a point (``where``: the square above and to
    the right of it), or takes it off (``OFF``), in the Administrative Phase [14.2.2]."""

    unit: str
    where: str

    def text(self) -> str:
        return f"BARRAGE {self.unit} {self.where}"


@dataclass(frozen=True)
class FlakFire:
    """Standing order of the flak's side: how flak unit ``unit`` fires directly in the Combat Phase: AUTO (the
    automatic choice, the default), HOLD (not at all), AT the squadrons named, in order, or ASK (an interrupt
    window at the start of the Combat Phase) [14.2.4]."""

    unit: str
    choice: str
    targets: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join(("FLAK", self.unit, self.choice, *self.targets))

    def standing_change(self) -> tuple[str, str | None]:
        return f"FLAK {self.unit}", None if self.choice == "AUTO" else self.text()


@dataclass(frozen=True)
class Fire:
    """Standing order: how this squadron attacks bombers when it may at long range [13.5.2, 13.5.3]: ROCKETS
    (its air-to-air rockets, the default while it has them), LONG (its Heavy Guns at long range) or CLOSE
    (an ordinary attack, the default otherwise)."""

    sq: str
    choice: str

    def text(self) -> str:
        return f"FIRE {self.sq} {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"FIRE {self.sq}", self.text()


@dataclass(frozen=True)
class Evade:
    """Standing order: whether this squadron, leading a defence, evades when it may: YES, NO (the default)
    or ASK (an interrupt window when it comes to it) [13.4.2]."""

    sq: str
    choice: str

    def text(self) -> str:
        return f"EVADE {self.sq} {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"EVADE {self.sq}", None if self.choice == "NO" else self.text()


@dataclass(frozen=True)
class Takeoff:
    """A squadron on an airfield or carrier takes off this turn, facing E or W [13.7]."""

    sq: str
    facing: str

    def text(self) -> str:
        return f"TAKEOFF {self.sq} {self.facing}"


@dataclass(frozen=True)
class Lufbery:
    """Standing order: whether this fighter squadron is to be in a Lufbery circle, YES, NO (the default) or ASK
    (its commander is asked at its turn to move) [13.4.3]."""

    sq: str
    choice: str

    def text(self) -> str:
        return f"LUFBERY {self.sq} {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"LUFBERY {self.sq}", None if self.choice == "NO" else self.text()


@dataclass(frozen=True)
class Power:
    """Standing order: an Me 163 flight's power setting each turn, FULL (the default), HALF or MINIMUM
    [13.8.2]."""

    sq: str
    choice: str

    def text(self) -> str:
        return f"POWER {self.sq} {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"POWER {self.sq}", None if self.choice == "FULL" else self.text()


@dataclass(frozen=True)
class Tactic:
    """Standing order: the rating this squadron's attacks use: SPEED (hit-and-run), TURN, BEST (the better
    column, the default) or ASK (an interrupt window when it comes to it) [10.5]."""

    sq: str
    choice: str

    def text(self) -> str:
        return f"TACTIC {self.sq} {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"TACTIC {self.sq}", None if self.choice == "BEST" else self.text()


@dataclass(frozen=True)
class React:
    """Standing order: whether an escort reacts to enemies entering its bombers' squares [10.4]."""

    sq: str
    choice: str

    def text(self) -> str:
        return f"REACT {self.sq} {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"REACT {self.sq}", None if self.choice == "YES" else self.text()


@dataclass(frozen=True)
class Priority:
    """Standing order of a side: ``LEADS`` (which squadrons lead its combats, in order, 10.2), ``HITS``
    (which enemy squadrons take its hits first, 10.2.2) or ``RETALLY`` (which enemy a dogfighter tallies
    when its target is not in the dogfight, 10.8.1); ``ASK`` alone asks when it comes to it."""

    verb: str
    squadrons: tuple[str, ...]

    def text(self) -> str:
        return " ".join((self.verb,) + self.squadrons)

    def standing_change(self) -> tuple[str, str | None]:
        return self.verb, self.text() if self.squadrons else None


@dataclass(frozen=True)
class Arrive:
    """Standing order: the altitude a later arrival enters at, one its scenario allows [5.3.1]."""

    sq: str
    altitude: int

    def text(self) -> str:
        return f"ARRIVE {self.sq} {self.altitude}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"ARRIVE {self.sq}", self.text()


@dataclass(frozen=True)
class Consent:
    """Standing order: whether this side lets enemy squadrons leave the battle when asked [11.0]."""

    choice: str

    def text(self) -> str:
        return f"CONSENT {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return "CONSENT", None if self.choice == "NO" else self.text()


@dataclass(frozen=True)
class Misvector:
    """Standing order (side-wide): how this side moves an enemy vector after an altitude error, AWAY (the
    default), DOWN or UP, or NO (it does not roll) [13.1]."""

    choice: str

    def text(self) -> str:
        return f"ERROR {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return "ERROR", None if self.choice == "AWAY" else self.text()


@dataclass(frozen=True)
class Keep:
    """Standing order: which flight keeps this side's tallies on an enemy squadron that splits, its FIRST
    (the default) or its SECOND [9.3.1]: the tallying side's choice, made after the owner's."""

    choice: str

    def text(self) -> str:
        return f"KEEP {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return "KEEP", None if self.choice == "FIRST" else self.text()


@dataclass(frozen=True)
class Seek:
    """Standing order: whether this side wants a dogfight after an air combat, SEEK or DECLINE [10.8]."""

    choice: str

    def text(self) -> str:
        return f"DOGFIGHT {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return "DOGFIGHT", None if self.choice == "DECLINE" else self.text()


@dataclass(frozen=True)
class Stack:
    """Where this side moves a dogfight stack if the die gives it the move: STAY or a square [10.8.2]."""

    sq: str
    square: str

    def text(self) -> str:
        return f"STACK {self.sq} {self.square}"


@dataclass(frozen=True)
class Join:
    """Alert Sweep option b: fly the shortest path toward a friendly squadron on the same net that
    tallies an enemy [9.2.3]."""

    sq: str
    friend: str
    dive: bool = False   # the dive bonus, taken when the friend is lower [8.2, 9.2.5]

    def text(self) -> str:
        return f"JOIN {self.sq} {self.friend}" + (" DIVE" if self.dive else "")


@dataclass(frozen=True)
class Return:
    """A former escort flies the shortest path toward a square where it would escort again [9.2.2, 9.2.3 e]."""

    sq: str
    square: str
    dive: bool = False   # the dive bonus, taken when the square is lower [8.2, 9.2.5]

    def text(self) -> str:
        return f"RETURN {self.sq} {self.square}" + (" DIVE" if self.dive else "")


@dataclass(frozen=True)
class Wings:
    """The formations a wing player asks to command, each named by one of its squadrons [9.5]."""

    squadrons: tuple[str, ...]

    def text(self) -> str:
        return " ".join(("WINGS",) + self.squadrons)


@dataclass(frozen=True)
class Attack:
    """``ATTACK <sq> <attack>``: how a bomber flying to its target attacks it, from this move on [15.3, 15.5]."""

    sq: str
    kind: str   # an attack of bomb_runs.ATTACKS: "level", "dive", "torpedo"...

    def text(self) -> str:
        return f"ATTACK {self.sq} {self.kind.upper()}"


@dataclass(frozen=True)
class AttackBalloon:
    """``BALLOON <sq> <balloon>``: a sweep within three squares pursues a barrage balloon, no roll [14.3]."""

    sq: str
    balloon: str

    def text(self) -> str:
        return f"BALLOON {self.sq} {self.balloon}"


@dataclass(frozen=True)
class Dive:
    """``DIVE <sq>``: an Intercept flying to a lower vector declares a dive before it moves, for one more MP
    [8.2, 9.2.4, 9.2.5]."""

    sq: str

    def text(self) -> str:
        return f"DIVE {self.sq}"


MOVEMENT = (Move, Pursue, Plain, Join, Return, Attack, AttackBalloon, Dive)


def subject(order: Order) -> str:
    """The squadron an order (or a conditional one) is about."""
    if isinstance(order, If):
        return subject(order.then)
    return str(getattr(order, "sq", ""))


@dataclass(frozen=True)
class Answer:
    """The answer in an interrupt window: SPEED, TURN or BEST to a rating question [10.5], SEEK or DECLINE
    to a dogfight question [10.8], YES or NO to a reaction question [10.4]; ``LEAD <sq>`` [10.2],
    ``HITS <enemy>...`` [10.2.2] and ``TALLY <sq> <enemy>`` [10.8.1] answer the question their ``about``
    names (an ask key, or the kind before its dash)."""

    choice: str
    about: str = ""
    verb: str = ""

    def text(self) -> str:
        if self.verb == "FLAK":   # FLAK <unit> AUTO|HOLD|<enemy>... [14.2.4]
            return f"FLAK {self.about.removeprefix('flak-')} {self.choice}"
        return f"{self.verb} {self.choice}".strip() if self.verb != "TALLY" else \
            f"TALLY {self.about.removeprefix('tally-')} {self.choice}"

    def answer_to(self, ask: Any) -> str | None:
        if self.about and self.about not in (ask.key, ask.key.split("-")[0]):
            return None
        if not self.about and ask.key.split("-")[0] in ("lead", "hits", "tally"):
            return None
        return self.choice if all(c in ask.choices for c in self.choice.split()) else None



def dump_order(order: Any) -> Any:
    """An order as JSON, kept across an interrupt (it was checked when written; it is not checked again)."""
    if isinstance(order, tuple):
        return list(order)
    if not hasattr(order, "__dataclass_fields__"):
        return order
    return {"type": type(order).__name__, **{f.name: dump_order(getattr(order, f.name)) for f in fields(order)}}


def load_order(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(data)
    if not isinstance(data, dict):
        return data
    kind = _KINDS[data["type"]]
    return kind(**{k: load_order(v) for k, v in data.items() if k != "type"})


_KINDS: dict[str, Any] = {k.__name__: k for k in (
    Tally, Command, Split, Drop, Move, Pursue, Plain, Vector, Escape, End, Rejoin, Break, Tactic, React, Priority,
    Arrive, Consent, Seek, Stack, Join, Return, Answer, Wings, If, Condition, Keep, PlaceBarrage, FlakFire, Attack,
    Place, Markers, Lead, AttackBalloon, Dive, Evade, Fire, Power, Misvector, Lufbery, Takeoff)}
