"""The game's data, loaded once from the TOML files in ``data/`` [2.1-2.6, 6.9].

Every number here comes from a data file marked with its provenance, so a GM who
owns the printed game can replace the placeholder roster and deck without code.
"""
from __future__ import annotations

from dataclasses import dataclass

from pbem.core.data import data_cache, load_data
from pbem.core.errors import RulesetDefinitionError

PACKAGE = __name__.rsplit(".", 1)[0] + ".data"
SIDES = ("coalition", "axis")
ALTITUDES = ("low", "medium", "high")
KINDS = ("reaction", "manoeuvre", "attack", "countermove", "crit", "malfunction", "rescue")
EFFECTS = ("change_position", "neutral", "flank_swap", "self_climb", "self_descend",
           "enemy_climb", "enemy_descend")


@dataclass(frozen=True)
class Stats:
    """One side of an aircraft card [2.2]."""

    power: int
    firing: int
    ttx: int
    structure: int


@dataclass(frozen=True)
class AircraftType:
    """An aircraft card of the roster [2.2]."""

    side: str
    number: int
    model: str
    nation: str
    category: str
    swap: bool
    turret: bool
    intact: Stats
    damaged: Stats
    value: int

    @property
    def shturmovik(self) -> bool:
        return self.category.startswith("SH")


@dataclass(frozen=True)
class CardDef:
    """A combat-deck card kind [2.6]."""

    id: str
    name: str
    name_ru: str
    kind: str
    count: int
    keep: int
    event: bool = False
    cancels: tuple[str, ...] = ()
    remove: bool = False
    effect: str = ""
    cost: int = 0
    damage: int = 0
    extra_discard: int = 0
    burn: int = 0
    turns: int = 0
    firing_malus: int = 0
    malfunction: str = ""
    vp_factor: float = 1.0

    @property
    def reacts(self) -> bool:
        """Can be played as a reaction [L158, L184]."""
        return self.kind in ("reaction", "countermove")

    @property
    def manoeuvres(self) -> bool:
        """Can be played as a manoeuvre [L166, L184]."""
        return self.kind in ("manoeuvre", "countermove")


@dataclass(frozen=True)
class Board:
    """Field geometry [2.1]."""

    width: int
    height: int
    setup_columns: int
    edge_column: dict
    start_cell: dict
    start_colour: dict
    ground_slots: dict


@dataclass(frozen=True)
class GroundType:
    """A ground-object card [2.5]."""

    id: str
    name: str
    name_ru: str
    structure: int
    value: int


def _flat(table: dict) -> dict:
    """Merge a card table with its nested sub-tables (they only split provenance)."""
    out = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out.update(_flat(value))
        elif key not in ("provenance", "ref", "note"):
            out[key] = value
    return out


@data_cache  # one result per game data correction (pbem.core.data)
def cards() -> dict[str, CardDef]:
    """Every card kind by id."""
    raw = load_data(PACKAGE, "cards.toml")["cards"]
    out = {}
    for cid in sorted(raw):
        t = _flat(raw[cid])
        cancels = tuple(t.pop("cancels", ())) + tuple(t.pop("cancels_more", ()))
        if t["kind"] not in KINDS:
            raise RulesetDefinitionError(f"card {cid}: unknown kind {t['kind']!r}")
        if t.get("effect") and t["effect"] not in EFFECTS:
            raise RulesetDefinitionError(f"card {cid}: unknown effect {t['effect']!r}")
        out[cid] = CardDef(id=cid, cancels=cancels, **t)
    for c in out.values():
        for other in c.cancels:
            if other not in out:
                raise RulesetDefinitionError(f"card {c.id} cancels unknown card {other!r}")
    return out


@data_cache  # one result per game data correction (pbem.core.data)
def values() -> dict[str, int]:
    """Victory-point value by category key or ground-object id [6.9]."""
    raw = load_data(PACKAGE, "values.toml")
    out = {}
    for group in ("aircraft", "shturmovik", "ground"):
        out.update({k: v for k, v in raw[group].items() if k not in ("provenance", "ref")})
    return out


@data_cache  # one result per game data correction (pbem.core.data)
def roster() -> dict[str, dict[int, AircraftType]]:
    """The aircraft of each side by personal number [2.2]."""
    raw = load_data(PACKAGE, "aircraft.toml")
    vals = values()
    out: dict[str, dict[int, AircraftType]] = {}
    for side in SIDES:
        out[side] = {}
        for row in raw[side]:
            if row["category"] not in vals:
                raise RulesetDefinitionError(f"{side} {row['number']}: category {row['category']} has no value")
            out[side][row["number"]] = AircraftType(
                side=side, number=row["number"], model=row["model"], nation=row["nation"],
                category=row["category"], swap=row["swap"], turret=row["turret"],
                intact=Stats(**row["intact"]), damaged=Stats(**row["damaged"]),
                value=vals[row["category"]])
    return out


@data_cache  # one result per game data correction (pbem.core.data)
def board() -> Board:
    """The board geometry [2.1]."""
    raw = load_data(PACKAGE, "board.toml")
    s = raw["sides"]
    return Board(width=raw["width"], height=raw["height"], setup_columns=raw["setup_columns_from_edge"],
                 edge_column={k: s[k]["edge_column"] for k in SIDES},
                 start_cell={k: tuple(s[k]["start_cell"]) for k in SIDES},
                 start_colour={k: s[k]["start_colour"] for k in SIDES},
                 ground_slots={k: tuple(tuple(c) for c in s[k]["ground_slots"]) for k in SIDES})


@data_cache  # one result per game data correction (pbem.core.data)
def ground() -> dict[str, GroundType]:
    """Ground-object cards by id (cp, dp, aa) [2.5]."""
    raw = load_data(PACKAGE, "ground.toml")["objects"]
    vals = values()
    return {k: GroundType(k, v["name"], v["name_ru"], v["stats"]["structure"], vals[k]) for k, v in sorted(raw.items())}


def card(cid: str) -> CardDef:
    return cards()[cid]


def deck_cards(events: bool) -> tuple[str, ...]:
    """The deck's card ids with repeats, sorted, events excluded unless asked for."""
    out = []
    for cid, c in sorted(cards().items()):
        if c.event == events:
            out.extend([cid] * c.count)
    return tuple(out)


@data_cache  # one result per game data correction (pbem.core.data)
def number_cards() -> int:
    """Ground attacks draw one of the number cards 1..N [L303]."""
    return load_data(PACKAGE, "ground.toml")["ground_attack"]["number_cards"]


@data_cache  # one result per game data correction (pbem.core.data)
def scenarios() -> dict:
    """Scenario set-ups from scenarios.toml."""
    return load_data(PACKAGE, "scenarios.toml")["scenarios"]
