"""The game's state as frozen values: squadrons with their Wing Display markers, and the whole position.

Everything here is public [5.2]: the map, every marker and both Wing Displays (option ``visibility=fog``
hides what a side does not see: fog.py).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from pbem.core.defaults import to_json
from pbem.core.flow import Flow

from . import advanced
from .sky import Sky, Square, sky_of
from .surface import Balloon, Barrage, Surface
from .tables import band_value, card, scenario

SIDES = ("allies", "axis")
FIGHTER_MISSIONS = ("sweep", "escort", "intercept", "cap", "rtb")
BOMBER_MISSIONS = ("bombing",)
#: Where a squadron is: on the map, or out of play for a reason that victory points read [12.1].
ON, EXITED, ESCAPED, DESTROYED = "on", "exited", "escaped", "destroyed"
#: Later arrivals [5.3.1]: not yet in play, then beyond an edge waiting to fly in [8.4.1].
WAITING, ENTERING = "waiting", "entering"
#: The altitude marker of 8.5 and 8.5.1.
NONE, DIVE, CLIMB, SLOW_CLIMB = "", "dive", "climb", "slow_climb"


@dataclass(frozen=True)
class Squadron:
    """One counter and its Wing Display box [2.1, 5.2]."""

    id: str
    side: str
    model: str
    mission: str
    at: Square
    heading: int
    alert: bool = False
    tally: str = ""            # the enemy it tallies [7.2], or ""
    vector: Square | None = None  # an Intercept's vector square [9.2.4]
    flight: bool = False       # a flight rather than a squadron [3.1]
    quality: str = "trained"   # green, trained or veteran [5.2.1]
    bombs: bool = False        # carries its bomb load [9.2.1]
    marker: str = NONE         # dive, climb or slow climb [8.5]
    losses: int = 0
    straggler: bool = False
    disruption: int = 0
    broken: bool = False
    ammo: int = 0              # 0 none, 1 Low Ammo, 2 Depleted [10.7.2]
    status: str = ON
    exit_edge: str = ""        # "W" or "E" once it has left the map [8.4.1]
    entered_from: Square | None = None  # the square it last entered its present one from (head-on, 10.3)
    dogfight: bool = False     # locked in the dogfight of its square [10.8]
    experte: bool = False      # an Experte (ace) in the squadron [5.2.1]
    former_escort: bool = False  # an escort turned Sweep, which may return to escort [9.2.2]
    arrives: int = 0           # the turn a later arrival is set up [5.3.1]
    edge: str = ""             # the edge it enters by ("W"/"E"), or "" when placed on a square
    altitudes: tuple[int, ...] = ()  # the altitudes it may enter at
    trail: str = ""            # its group entering in trail [8.4.1]
    left_wing: bool = False    # it has left its wing formation, for good [9.5.2]
    seat: str = ""             # the player who commands its wing, "" = its side's only seat (see ``owner``)
    target: str = ""           # the surface unit its bombing mission attacks (rule 15, bomb_runs.py)
    attack: str = ""           # the approach it makes there: "" level [15.3.1], else a kind of bomb_runs.RULES
    load: str = ""             # its load when ``bombs``: "" ordinary bombs, "torpedo", "atgr", "parafrag" [15.1]
    run: tuple[Square, ...] = ()  # the squares of its bomb run so far [15.3]
    released: str = ""         # the attack it released this turn, for the Combat Phase [15.3, 15.4]
    aimed: bool = False        # whether that attack was aimed [15.3]
    long_range: bool = False   # that attack came from the next column (torpedo, rockets) [15.3.5, 15.3.6]
    dived: int = 0             # levels dived this turn on a dive-bombing approach (2+: out of air combat, 15.3.2)
    drop_tanks: bool = False   # carries drop tanks [13.2]
    group: str = ""            # its USAAF heavy bomber group [13.5.5], or ""
    single: bool = False       # a single aircraft by the scenario [13.6]
    rockets: int = 0           # air-to-air rockets: 0 none, 1 fitted, 2 expended (the marker stays) [13.5.3]
    gyro: bool = False         # gyro gunsights, where the scenario says so [13.5.4]
    evading: bool = False      # evaded in the combat being fought: it declines the dogfight after it [13.4.2]
    balloon: str = ""          # the barrage balloon it pursues [14.3], or ""
    wing_leader: bool = False  # a second flight that took its wing's Wing Leader marker in a split [9.3.1]
    gun_pod: str = ""          # "gun" or "at": a Gun Pod or AT Pod fitted before the game [13.5.6]
    fuel: int = 0              # an Me 163 flight's fuel points left [13.8.2]
    power: str = ""            # an Me 163 flight's power this turn: "full", "half" or "minimum" [13.8.2]
    lufbery: bool = False      # the Lufbery marker: it circles in a Lufbery circle [13.4.3]
    base: str = ""             # the airfield or carrier it waits on to take off [13.7]
    slow: bool = False         # the Slow marker of a squadron that took off this turn [13.7, 3.3.2]

    @property
    def on_map(self) -> bool:
        return self.status == ON

    @property
    def fighter(self) -> bool:
        """A fighter by mission, not by class [3.2.1]."""
        return self.mission in FIGHTER_MISSIONS

    @property
    def jet(self) -> bool:
        return "jet" in card(self.model)["abilities"]

    @property
    def armed(self) -> bool:
        return self.firepower is not None

    @property
    def firepower(self) -> int | None:
        """Firepower as a fighter, or as a bomber; None when unarmed ("U") [3.3, 10.5.3]."""
        value = card(self.model)["firepower"][0 if self.fighter else 1]
        return None if value == "U" else int(value)

    def basic(self) -> tuple[int, int]:
        """Basic Speed and Turn [3.3.2]: the card's band values, -1 both with a load (Low Drag keeps
        the speed; drop tanks or air-to-air rockets too, not twice [13.2, 13.5.3]), +1 speed diving, -1 speed climbing or slow-climbing,
        never below 0."""
        if self.power == "minimum" or self.slow:   # Slow: an Me 163 at minimum power, a squadron that just took
            return 0, 0                             # off: speed and turn 0 [13.8.2, 13.7, 3.3.2]
        speed, turn = _printed(self)
        rockets = bool(self.rockets) and "rockets_free" not in card(self.model)["abilities"]   # not the Me 262 [13.5.3]
        worn = self.drop_tanks or rockets or bool(self.gun_pod)   # drop tanks, rockets, gun pods [13.2, 13.5.3, 13.5.6]
        if self.bombs or worn:
            turn -= 1
            speed -= 0 if "low_drag" in card(self.model)["abilities"] and not worn else 1
        if self.marker == DIVE:
            speed += 1
        elif self.marker in (CLIMB, SLOW_CLIMB):
            speed -= 1
        return max(0, speed), max(0, turn)

    def move(self, **changes: Any) -> Squadron:
        return replace(self, **changes)

    def unescort(self) -> Squadron:
        """An escort that tallies or fights becomes a Sweep [9.2.2 a]."""
        return self.move(mission="sweep", former_escort=True) if self.mission == "escort" else self


def _printed(sq: Squadron) -> tuple[int, int]:
    """The card's speed and turn at the squadron's altitude; an Me 163 at half power reads the values after
    the slash (the card's ``half``) [13.8.2]."""
    if sq.power == "half":
        half = card(sq.model)["half"]
        return int(half["speed"]), int(half["turn"])
    return band_value(sq.model, sq.at[1], "speed"), band_value(sq.model, sq.at[1], "turn")


#: Squadron fields of the advanced rules (13-15): views leave them out while at their defaults
#: (``shown_json``), so the basic game's views and goldens stay as they were.
ADVANCED_FIELDS = frozenset({"target", "attack", "load", "run", "released", "aimed", "long_range", "dived",
                             "drop_tanks", "group", "single", "rockets", "gyro", "evading", "balloon",
                             "gun_pod", "fuel", "power", "lufbery", "base", "slow"})
#: Basic-game fields added later, shown likewise only when set, so the goldens before them stay as they were.
LATER_FIELDS = frozenset({"wing_leader"})


def shown_json(sq: Squadron) -> dict[str, Any]:
    """A squadron's JSON for a view, its advanced-rule fields only when they are not at their defaults."""
    defaults = {f.name: f.default for f in fields(Squadron)}
    quiet = ADVANCED_FIELDS | LATER_FIELDS
    return {k: v for k, v in to_json(sq).items() if k not in quiet or v not in (defaults[k], [])}


@dataclass(frozen=True)
class Glimpse:
    """Under fog (option ``visibility``), what ``side`` last saw of enemy squadron ``id``: its aircraft, square
    and heading, the turn, and whether it saw it destroyed (``lost``)."""

    side: str
    id: str
    model: str
    at: Square
    heading: int
    turn: int
    lost: bool = False


@dataclass(frozen=True)
class State:
    scenario: str
    squadrons: tuple[Squadron, ...]
    flow: Flow
    moved_last: tuple[str, ...] = ()   # the last Movement Phase's order of moves (mutual attack, 10.1.2)
    options: tuple[tuple[str, Any], ...] = ()
    seat_names: tuple[str, ...] = ()   # one seat per wing (``<side>-<n>``); () = one seat a side, named by it
    last_known: tuple[Glimpse, ...] = ()  # under fog, what each side last saw of each enemy it has seen
    surfaces: tuple[Surface, ...] = ()   # surface and ground units, advanced rule 14 (surface.py)
    barrages: tuple[Barrage, ...] = ()   # Barrage markers on the map [14.2.2] (flak.py)
    balloons: tuple[Balloon, ...] = ()   # barrage balloons [14.3] (flak.py)
    leaders: tuple[tuple[str, str], ...] = ()   # (wing, squadron): the Wing Leader marker placed in the set-up [5.2.1]
    fought_last: tuple[str, ...] = ()   # who fought in the last Combat Phase (9.4.2 under ``jam_reading = combats``)

    @property
    def turn(self) -> int:
        return self.flow.turn

    @property
    def sky(self) -> Sky:
        return sky_of(scenario(self.scenario), rain_reading=self.option("rain_reading", "below"),
                      rain_sight=self.option("rain_sight", "broken"))

    @property
    def raider(self) -> str:
        return str(scenario(self.scenario)["raider"])

    @property
    def defender(self) -> str:
        return str(scenario(self.scenario)["defender"])

    def option(self, key: str, default: Any = None) -> Any:
        return dict(self.options).get(key, default)

    def uses(self, rule: str) -> bool:
        """Whether this game's scenario switches on advanced rule ``rule`` (13–15) [13.0]; the basic game uses none."""
        return advanced.uses(scenario(self.scenario).get("advanced", ()), rule)

    def squadron(self, sid: str) -> Squadron:
        found = self.find(sid)
        if found is None:
            raise KeyError(sid)
        return found

    def find(self, sid: str) -> Squadron | None:
        """The squadron, or None (a squadron split into flights is gone, 9.3)."""
        return next((s for s in self.squadrons if s.id == sid), None)

    def surface(self, uid: str) -> Surface:
        """A surface or ground unit by its ID [14.0].  :raises KeyError: no such unit."""
        found = next((u for u in self.surfaces if u.id == uid), None)
        if found is None:
            raise KeyError(uid)
        return found

    def of_side(self, side: str) -> tuple[Squadron, ...]:
        return tuple(s for s in self.squadrons if s.side == side)

    def of_seat(self, seat: str) -> tuple[Squadron, ...]:
        """The squadrons a seat commands: its wings' (one seat a side: the whole side's)."""
        return tuple(s for s in self.squadrons if owner(s) == seat)

    def seats(self) -> tuple[str, ...]:
        return self.seat_names or SIDES

    def seats_of(self, side: str) -> tuple[str, ...]:
        return tuple(seat for seat in self.seats() if side_of(seat) == side)


def owner(sq: Squadron) -> str:
    """The seat that commands ``sq``: its wing's player, or its side's only seat."""
    return sq.seat or sq.side


def side_of(seat: str) -> str:
    """A seat's side: the seat itself, or ``allies`` of ``allies-2``."""
    return seat.split("-")[0]


def max_losses(scenario_name: str, sq: Squadron) -> int:
    """The scenario's Max Losses for a squadron or a flight [5.1, 10.6]."""
    limits = scenario(scenario_name)["max_losses"]
    return 1 if sq.single else int(limits["flight" if sq.flight else "squadron"])   # a single aircraft [13.6]


def enemy_of(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]
