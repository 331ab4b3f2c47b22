"""A campaign definition: a TOML file of scenario slots, edges by outcome level, and the carry-over rules.

Campaign definitions are game data like every table: they live in a ruleset's package under
``rules/<ruleset>/data/campaigns/<name>.toml`` (``pbem campaign new lew_morski/raid``), or in any file
(``pbem campaign new my-campaign.toml``), and every value carries a provenance (``rulebook``, ``example`` or
``placeholder``, inherited from the table above it, see :mod:`pbem.core.data`).

The format (every key below is required unless marked optional)::

    provenance = "placeholder"        # or per table; a value without one is refused
    [campaign]
    name = "raid"                     # [a-z0-9-]+, unique within the ruleset
    title = "The course of a raid"
    ruleset = "lew_morski"            # must give a Carryover (pbem.core.ruleset)
    doc = "..."                       # optional: one paragraph for the GM and the players
    reference_side = "de"             # edges are keyed by this side's outcome level
    start = "approach"                # the first slot
    vp_to_win = 10                    # optional: a side at this many campaign VP ends the campaign (0: never)
    options = { setup = "auto" }      # optional: ruleset options for every game

    [levels.major_victory]            # all five levels, from the point of view of the side concerned:
    vp = 3                            #   campaign VP the side earns
    recovery = 0.75                   #   share of its units out of action it may RECOVER afterwards [C3]
    replacements = 2                  #   replacement points it gets [C4]
    # ... minor_victory, draw, minor_defeat, major_defeat

    [promotion]                       # optional [C5]
    xp = 2                            #   experience one promotion costs
    ranks = ["veteran", "ace"]        #   ranks in order; a unit is promoted to the next one

    [slots.approach]                  # one table per slot (a game of the campaign)
    scenario = "w1"                   # a scenario of the ruleset
    title = "First wave"
    options = { ... }                 # optional: laid over the campaign's options
    cap = { gb = 3 }                  # optional: the most units a side may CHOOSE for this game [C6]
    [slots.approach.next]             # optional (none: the slot is terminal [C7])
    major_victory = "deep-strike"     # the reference side's level -> the next slot, or "end"
    any = "second-wave"               # for every level not named

The campaign rules the engine applies (cited as ``campaign §C<n>`` in refusals, since the rulebooks have no
campaign chapter): C1 the roster (named units and their status), C2 outcome levels, C3 recovery, C4
replacements, C5 promotion, C6 choosing forces, C7 campaign VP and the end.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from pbem.core.data import PROVENANCES, packaged_file, walk_provenance
from pbem.core.errors import PbemError

LEVELS = ("major_victory", "minor_victory", "draw", "minor_defeat", "major_defeat")
END = "end"
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


class CampaignDefinitionError(PbemError):
    """A campaign definition that cannot be played; the message lists every problem."""


@dataclass(frozen=True)
class Level:
    """What an outcome level is worth to the side that reached it."""

    vp: int
    recovery: float
    replacements: int


@dataclass(frozen=True)
class Slot:
    """One game of the campaign: a scenario, its options, its caps and where each outcome leads."""

    name: str
    scenario: str
    title: str
    options: Mapping[str, Any]
    cap: Mapping[str, int]
    next: Mapping[str, str]

    @property
    def terminal(self) -> bool:
        return not self.next

    def after(self, level: str) -> str:
        """The next slot's name when the reference side reached ``level``, or END."""
        return self.next.get(level, self.next.get("any", END)) if self.next else END


@dataclass(frozen=True)
class Definition:
    name: str
    title: str
    ruleset: str
    reference_side: str
    start: str
    slots: Mapping[str, Slot]
    levels: Mapping[str, Level]
    vp_to_win: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    promotion_xp: int = 0
    ranks: tuple[str, ...] = ()
    doc: str = ""
    provenance: Mapping[str, int] = field(default_factory=dict)
    source: str = ""  # where it was read from: "lew_morski/raid" or a file name
    data: Mapping[str, Any] = field(default_factory=dict)  # the document as read, stored with the campaign

    def slot(self, name: str) -> Slot:
        return self.slots[name]

    def options_for(self, slot: Slot) -> dict[str, Any]:
        return {**self.options, **slot.options}


def load(spec: str) -> Definition:
    """A definition from ``<ruleset>/<name>`` (packaged) or a path to a TOML file.

    :raises CampaignDefinitionError: unreadable, without provenance, or inconsistent (every problem listed).
    """
    path = Path(spec)
    if spec.endswith(".toml") and path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise CampaignDefinitionError(f"{spec}: {exc}") from None
        return parse(data, spec)
    ruleset, _, name = spec.partition("/")
    if not name or not NAME.match(name) or not ruleset.replace("_", "").isalnum():
        raise CampaignDefinitionError(f"{spec!r} is neither a TOML file nor <ruleset>/<campaign> "
                                      "(e.g. lew_morski/raid)")
    try:
        data = packaged_file(f"pbem.rules.{ruleset}.data", f"campaigns/{name}.toml")
    except (PbemError, ModuleNotFoundError) as exc:
        known = ", ".join(packaged(ruleset)) or "none"
        raise CampaignDefinitionError(f"no campaign {spec!r} ({exc}); campaigns of {ruleset}: {known}") from None
    return parse(data, spec)


def packaged(ruleset: str) -> list[str]:
    """The names of the campaigns a ruleset package ships."""
    from importlib import resources
    try:
        folder = resources.files(f"pbem.rules.{ruleset}.data").joinpath("campaigns")
        return sorted(c.name[:-5] for c in folder.iterdir() if c.name.endswith(".toml"))
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        return []


def parse(data: Mapping[str, Any], source: str = "") -> Definition:
    """Check a definition document and build the :class:`Definition`; every problem is reported at once."""
    problems: list[str] = []
    counts = dict.fromkeys(PROVENANCES, 0)
    for where, _, prov in walk_provenance(dict(data)):
        if prov not in PROVENANCES:
            problems.append(f"{where} has no provenance (one of {', '.join(PROVENANCES)})")
        else:
            counts[prov] += 1
    head = _table(data, "campaign", problems)
    levels = _levels(_table(data, "levels", problems), problems)
    slots = {name: _slot(name, raw, problems) for name, raw in _table(data, "slots", problems).items()
             if isinstance(raw, dict)}
    name = str(head.get("name", ""))
    if not NAME.match(name):
        problems.append(f"campaign.name {name!r} must be lower-case letters, digits and '-'")
    for key in ("title", "ruleset", "reference_side", "start"):
        if not head.get(key):
            problems.append(f"campaign.{key} is missing")
    if not slots:
        problems.append("no [slots.<name>] table: a campaign needs at least one game")
    elif head.get("start") and head["start"] not in slots:
        problems.append(f"campaign.start {head['start']!r} is not a slot ({', '.join(slots)})")
    for slot in slots.values():
        for level, target in slot.next.items():
            if level != "any" and level not in LEVELS:
                problems.append(f"slots.{slot.name}.next: {level!r} is not a level ({', '.join(LEVELS)}, any)")
            if target != END and target not in slots:
                problems.append(f"slots.{slot.name}.next.{level}: no slot {target!r} (or \"end\")")
    promotion = data.get("promotion", {})
    if problems:
        raise CampaignDefinitionError(f"campaign {source or name}: " + "; ".join(problems))
    return Definition(
        name=name, title=str(head["title"]), ruleset=str(head["ruleset"]), reference_side=str(head["reference_side"]),
        start=str(head["start"]), slots=slots, levels=levels, vp_to_win=int(head.get("vp_to_win", 0)),
        options=dict(head.get("options", {})), promotion_xp=int(promotion.get("xp", 0)),
        ranks=tuple(promotion.get("ranks", ())), doc=str(head.get("doc", "")), provenance=counts,
        source=source or name, data=dict(data))


def _table(data: Mapping[str, Any], key: str, problems: list[str]) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        problems.append(f"[{key}] is missing")
        return {}
    return value


def _levels(raw: Mapping[str, Any], problems: list[str]) -> dict[str, Level]:
    out = {}
    for level in LEVELS:
        row = raw.get(level)
        if not isinstance(row, dict):
            if raw:
                problems.append(f"[levels.{level}] is missing (vp, recovery, replacements)")
            continue
        try:
            out[level] = Level(int(row["vp"]), float(row["recovery"]), int(row["replacements"]))
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"levels.{level}: {exc} (needs vp, recovery, replacements)")
            continue
        if not 0.0 <= out[level].recovery <= 1.0:
            problems.append(f"levels.{level}.recovery must be a share from 0 to 1")
    return out


def _slot(name: str, raw: Mapping[str, Any], problems: list[str]) -> Slot:
    if not NAME.match(name):
        problems.append(f"slot name {name!r} must be lower-case letters, digits and '-'")
    if not raw.get("scenario"):
        problems.append(f"slots.{name}.scenario is missing")
    meta = ("provenance", "ref", "note")
    return Slot(name=name, scenario=str(raw.get("scenario", "")), title=str(raw.get("title", name)),
                options={k: v for k, v in dict(raw.get("options", {})).items() if k not in meta},
                cap={k: int(v) for k, v in dict(raw.get("cap", {})).items() if k not in meta},
                next={k: str(v) for k, v in dict(raw.get("next", {})).items() if k not in meta})


def check_against(defn: Definition, ruleset: Any) -> None:
    """The definition fits its ruleset: it can carry over, and its sides, scenarios and options exist.

    :raises CampaignDefinitionError: listing every misfit.
    """
    from pbem.core.ruleset import carryover_of
    info = ruleset.info
    problems = []
    if carryover_of(ruleset) is None:
        problems.append(f"ruleset {info.name} cannot be played in a campaign: it gives no Carryover "
                        "(see 'Campaigns' in pbem/core/ruleset.py)")
    if defn.reference_side not in info.sides:
        problems.append(f"reference_side {defn.reference_side!r} is not a side of {info.name} "
                        f"({', '.join(info.sides)})")
    for slot in defn.slots.values():
        if slot.scenario not in {s.name for s in info.scenarios}:
            problems.append(f"slots.{slot.name}: {info.name} has no scenario {slot.scenario!r}")
        try:
            info.resolve_options(defn.options_for(slot))
        except PbemError as exc:
            problems.append(f"slots.{slot.name}: {exc}")
        problems += [f"slots.{slot.name}.cap: {side!r} is not a side" for side in slot.cap if side not in info.sides]
    if problems:
        raise CampaignDefinitionError(f"campaign {defn.source}: " + "; ".join(problems))
