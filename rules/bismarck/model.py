"""The game state: frozen dataclasses of tuples, with a JSON codec for dump/load.

The codec caches each type's fields and hints: loading a state touches thousands of objects, and
``pbem.core.defaults.from_json`` (which resolves the hints on every object) is about 8x slower here.
"""
from __future__ import annotations

from pbem.core import texts
from pbem.core.texts import Text

import dataclasses
import functools
import types
import typing
from dataclasses import dataclass

from pbem.core.flow import Flow


@dataclass(frozen=True)
class Ship:
    """One ship: its counter, its fuel and markers, and its Ship Card values [2.3]."""

    id: str
    side: str
    cls: str
    er: int  # printed Evasion Rating
    speed: str
    fuel_max: int
    hex: str | None = None
    status: str = "sea"  # sea | escort | restricted | pending | sunk | removed
    tf: str | None = None
    fuel: int = 0
    moved_last: int = 0
    ee: tuple[int, ...] = ()
    rudder: bool = False
    hull: int = 0
    bow: int = 0
    stern: int = 0
    sec: int = 0
    torps: int = -1  # -1: card not yet used, torpedo markers not yet placed [10]
    fire_control: bool = False
    radar: int = 0
    radar_lost: bool = False
    in_play: bool = False  # its card has come into play and is public [2.3]
    hits: int = 0  # hits taken, for damage VP [4]
    markers: tuple[str, ...] = ()  # patrol repair port refuel evasion rtb restricted
    no_mvt: int = 0
    emergency: int = -1  # turn by which it must refuel or reach port; -1 none [7.7.2]
    engaged: tuple[int, ...] = ()  # turns it was attacked (crew exhaustion [13.2])

    @property
    def er_now(self) -> int:
        return 0 if self.rudder else max(0, self.er + sum(self.ee))

    @property
    def afloat(self) -> bool:
        return self.status == "sea"


@dataclass(frozen=True)
class Air:
    """An air unit [2.3.2]: ready at base, aloft (range 2, out for a phase), landing or refit."""

    id: str
    side: str
    type: str
    speed: int
    range: int
    base: str
    status: str = "ready"
    hex: str | None = None


@dataclass(frozen=True)
class Contact:
    """A Sighted/Shadowed marker one side holds on an enemy naval unit [2.3.3, 5].

    ``unit`` (the enemy's TF or ship id) never reaches the holder's view; only the reported
    classes, count and TF flag do.
    """

    cid: str
    holder: str
    unit: str
    hex: str
    status: str  # sighted | shadowed
    classes: tuple[tuple[str, int], ...]
    tf: bool
    source: str
    turn: int


@dataclass(frozen=True)
class Battle:
    """A public record of one naval combat [10] (for sitreps)."""

    turn: int
    hex: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class State:
    """The whole game; ``flow`` is the kit's part (step, game turn, pending interrupt, standing orders)."""

    scenario: str
    options: tuple[tuple[str, str], ...]
    turn: int  # absolute turn index on the calendar (day 22 night = 0); flow.turn counts game turns
    start: int
    last: int
    weather: int
    fog: bool
    vis: int
    ships: tuple[Ship, ...]
    flow: Flow
    air: tuple[Air, ...] = ()
    contacts: tuple[Contact, ...] = ()
    next_id: tuple[tuple[str, int], ...] = ()
    ee_bag: tuple[int, ...] = ()
    damage_bag: tuple[str, ...] = ()
    vp_bag: tuple[int, ...] = ()
    convoy_vp: tuple[tuple[int, bool], ...] = ()  # German secret: (marker value, halved)
    merchants: int = 0  # German secret: single merchants sunk (0.5 VP each)
    located: tuple[str, ...] = ()  # convoys already located [11.3]
    reinforcements: tuple[tuple[str, int, str], ...] = ()  # (ship, turn, hex)
    releases: tuple[tuple[str, int, str], ...] = ()  # (ship, from turn, hex): RELEASE allowed [12]
    lifts: tuple[tuple[str, int, str, str], ...] = ()  # (ship, lift turn or -1, lift event or "", hex) [12]
    optional_vp: int = 0
    revealed_optional: tuple[str, ...] = ()
    searched: tuple[tuple[str, tuple[str, ...]], ...] = ()
    reports: tuple[tuple[str, tuple[str, ...]], ...] = ()  # per side: what it learned last
    shadowers: tuple[str, ...] = ()  # ships that tried to shadow this turn: no search [6]
    shadowed_now: tuple[str, ...] = ()  # German units shadowed in this Shadow Phase (no hunting)
    moved: tuple[str, ...] = ()  # ships that moved in 3A this turn
    battles: tuple[Battle, ...] = ()
    ended: str = ""  # reason the game ended, "" while running
    capital_kills: tuple[str, ...] = ()  # Allied capital ships sunk by Bismarck [4]

    @property
    def step(self) -> str:
        return self.flow.step


# --- codec ---------------------------------------------------------------------
@functools.cache
def _names(tp: type) -> tuple[str, ...] | None:
    return tuple(f.name for f in dataclasses.fields(tp)) if dataclasses.is_dataclass(tp) else None


def to_json(obj: typing.Any) -> typing.Any:
    if isinstance(obj, Flow):
        return obj.dump()
    if isinstance(obj, Text):  # a report or battle line keeps its message, to be read in any language
        return obj.msg
    names = _names(type(obj))  # per-type cache: dumping a state touches thousands of objects
    if names is not None:
        return {n: to_json(getattr(obj, n)) for n in names}
    if isinstance(obj, (tuple, list)):
        return [to_json(v) for v in obj]
    return obj


@functools.cache
def _fields(tp: type) -> tuple[tuple[str, typing.Any], ...]:
    # get_type_hints evaluates every annotation string: by far the slowest part of loading a state
    hints = typing.get_type_hints(tp)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(tp))


def from_json(tp: typing.Any, data: typing.Any) -> typing.Any:
    if tp is Flow:
        return Flow.load(data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return tp(**{name: from_json(hint, data[name]) for name, hint in _fields(tp) if name in data})
    origin = typing.get_origin(tp)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in data)
        return tuple(from_json(a, v) for a, v in zip(args, data, strict=False))
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return from_json(args[0], data)
    if tp is float:
        return float(data)
    if tp is str and isinstance(data, dict):
        return texts.from_json(data)
    return data


def get(pairs: tuple, key: str, default=None):
    for k, v in pairs:
        if k == key:
            return v
    return default


def put(pairs: tuple, key: str, value) -> tuple:
    return tuple(sorted([(k, v) for k, v in pairs if k != key] + [(key, value)]))
