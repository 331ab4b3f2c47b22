"""The game's tables [5]-[13], read from ``data/tables.toml``, with lookups named after them."""
from __future__ import annotations

from pbem.core.texts import t_

from .words import word

import math

from pbem.core.data import data_cache, load_data

from .board import PACKAGE

X = 10  # visibility "X" [5]
HEAVY = ("BB", "BC", "CA")
CAPITAL = ("BB", "BC", "CV")
BIG = ("BB", "BC", "CV", "CA")


@data_cache  # one result per game data correction (pbem.core.data)
def tables() -> dict:
    return load_data(PACKAGE, "data/tables.toml")


@data_cache  # one result per game data correction (pbem.core.data)
def units() -> dict:
    return load_data(PACKAGE, "data/units.toml")


@data_cache  # one result per game data correction (pbem.core.data)
def scenarios() -> dict:
    return load_data(PACKAGE, "data/scenarios.toml")


@data_cache  # one result per game data correction (pbem.core.data)
def schedule() -> dict:
    """Reinforcements and RESTRICTED markers per scenario [3, 12]."""
    return load_data(PACKAGE, "data/schedule.toml")


def escorts() -> dict[str, str]:
    """Ship -> the convoy it escorts, from the Convoy Identification Table [11.3]."""
    return {s: c["name"] for c in tables()["convoys"] for s in c["escort"]}


def clamp(v: int) -> int:
    return max(0, min(9, v))


def d10(dice, why: str, seen_by) -> int:
    """A ten-sided die read 0..9: a 0 is zero, not ten [2.8].  The dice give 1..10; 1..9 are read as
    they are and 10 is the die's 0; the roll's reason says so, so every roll a sitrep lists reads as its
    events do ("d10=10 weather change (10 reads 0)")."""
    return dice.roll(10, why=t_("%(why)s (10 reads 0)", why=why), seen_by=seen_by) % 10


#: What every listed d10 roll says of its face 10 [2.8].
D10_ZERO = "10 reads 0"


# calendar -------------------------------------------------------------------
def turn_index(spec: str) -> int:
    """'25-day' -> absolute turn index (day 22 night = 0)."""
    cal = tables()["calendar"]
    day, slot = spec.split("-")
    return (int(day) - cal["first_day"]) * cal["turns_per_day"] + cal["slots"].index(slot)


def slot(turn: int) -> str:
    cal = tables()["calendar"]
    return cal["slots"][turn % cal["turns_per_day"]]


def turn_name(turn: int) -> str:
    cal = tables()["calendar"]
    return t_("%(slot)s turn, %(day)s %(month)s", slot=word(slot(turn)),
              day=cal["first_day"] + turn // cal["turns_per_day"], month=word(cal["month"]))


def is_night(turn: int) -> bool:
    return slot(turn) == "night"


def submarine_turn(turn: int) -> bool:
    s = tables()["submarine_turns"]
    return turn % s["every"] == s["remainder"]


# weather and visibility [5] -----------------------------------------------------
def weather_drm(box: int) -> int:
    w = tables()["weather"]
    return {**w["box_drm"], **w["box_drm_example"]}.get(str(box), 0)


def weather_shift(modified: int) -> int:
    return tables()["weather"]["change"][str(clamp(modified))]


def visibility(weather: int, turn: int) -> int:
    v = weather + tables()["time_of_day"][slot(turn)]
    return X if v >= tables()["weather"]["x_from"] else max(1, v)


def vis_text(v: int) -> str:
    return "X" if v >= X else str(v)


# shadow [6] -----------------------------------------------------------------
def shadow_drm(er_diff: int, radar: int, vis: int, evasion: bool, fast_part: bool) -> int | None:
    """The Shadow Table DRM, or None when shadowing is impossible (NP)."""
    t = tables()["shadow"]
    if er_diff <= -2 or vis >= X:
        return None
    drm = {1: t["er_diff_1"], 0: t["er_diff_0"], -1: t["er_diff_minus_1"]}.get(er_diff, t["er_diff_2_or_more"])
    if radar >= 2:
        drm += t["radar_II"]
    elif radar == 1:
        drm += t["radar_I"]
    if 4 <= vis <= 6:
        drm += t["vis_4_6"]
    elif 7 <= vis <= 9:
        drm += t["vis_7_9"]
    if evasion:
        drm += t["evasion"]
    if fast_part:
        drm += t["diversion_fast"]
    return drm


# repair [7.3] -----------------------------------------------------------------
def repair_result(roll: int, weather: int) -> int:
    """ER points restored (0 = failure); a modified 0 may repair the rudder instead."""
    t = tables()["repair"]
    m = roll + (t["weather_7_9"] if weather >= 7 else t["weather_4_6"] if weather >= 4 else 0)
    res = t["results"]
    return res[m] if 0 <= m < len(res) else 0


# hits [9] -------------------------------------------------------------------
def hits(natural: int, drm: int) -> int:
    """Torpedo & Air Strike Hit Table: a natural 0 always gives at least 1 hit."""
    n = tables()["hit_table"]["hits"][clamp(natural + drm)]
    return max(n, 1) if natural == 0 else n


def hit_vis_drm(vis: int) -> int:
    t, ex, lost = tables()["hit_drm"], tables()["hit_drm_example"], tables()["hit_drm_lost"]
    if vis <= 1:
        return lost["vis_1"]
    if vis <= 3:
        return t["vis_2_3"]
    if vis <= 5:
        return t["vis_4_5"]
    if vis == 6:
        return ex["vis_6"]
    if vis <= 8:
        return t["vis_7_8"]
    return t["vis_9"]


def hit_drm(*, vis: int, target_er: int, kind: str, night: bool = False, channel: bool = False,
            rudder_or_refuel: bool = False, in_port: bool = False, position: str = "",
            medium: bool = False) -> int:
    """Hit DRMs [9]: ``kind`` is 'air', 'torpedo' or 'sub'. At visibility 9 the ER<25 row is ignored."""
    t, ex, lost = tables()["hit_drm"], tables()["hit_drm_example"], tables()["hit_drm_lost"]
    drm = hit_vis_drm(vis)
    if target_er < 25 and vis < 9:
        drm += t["target_er_below_25"]
    if kind == "sub":
        drm += t["submarine"]
    if kind == "air":
        drm += ex["air_night"] if night else 0
        drm += t["channel_air"] if channel else 0
        drm += lost["air_rudder_or_refuel_at_sea"] if rudder_or_refuel else 0
        drm += lost["air_in_port"] if in_port else 0
    if kind == "torpedo":
        drm += {"opening": ex["torpedo_target_opening"], "closing": ex["torpedo_target_closing"],
                "breaking": lost["torpedo_target_breaking_off"]}.get(position, 0)
        drm += lost["torpedo_medium_range"] if medium else 0
    return drm


# naval combat [10] ------------------------------------------------------------
def range_band(between: int) -> str:
    if between <= 1:
        return "short"
    if between <= 3:
        return "medium"
    if between <= 6:
        return "long"
    return "extreme"


def dice_count(factors: int, band: str) -> int:
    mult = tables()["naval_combat"]["dice_multiplier"][band]
    return math.ceil(round(factors * mult, 6))


def combat_result(band: str, modified: int) -> str:
    return tables()["naval_combat"][band][clamp(modified)]


def naval_drm(*, firer_cls: str, target_cls: str, radar: bool, acquired: bool, firer_pos: str,
              target_pos: str, fire_control: bool, vis: int, exhausted: bool = False) -> int:
    t = tables()["naval_drm"]
    drm = t["target_acquired"] if acquired else 0
    drm += t["radar"] if radar else 0
    drm += t["firer_closing_or_breaking"] if firer_pos in ("closing", "breaking") else 0
    drm += t["target_closing_or_breaking"] if target_pos in ("closing", "breaking") else 0
    drm += t["fire_control_damaged"] if fire_control else 0
    if firer_cls == "CA" and target_cls in ("BB", "BC"):
        drm += t["ca_vs_heavy"]
    if firer_cls in ("CL", "DD"):
        drm += {"CA": t["light_vs_ca"], "BC": t["light_vs_bc"], "BB": t["light_vs_bb"]}.get(target_cls, 0)
    if 4 <= vis <= 6:
        drm += t["vis_4_6"]
    elif 7 <= vis <= 9:
        drm += t["vis_7_9"]
    drm += t["crew_exhaustion"] if exhausted else 0
    return drm


def special_damage(roll: int) -> str:
    t = tables()["special_damage"]
    if roll <= t["subtable_max"]:
        return "subtable"
    if roll <= t["fuel_loss_max"]:
        return "fuel"
    if roll <= t["fire_control_max"]:
        return "fire_control"
    return "radar"


def tactical_limit(er: int) -> int:
    for top, mz in tables()["tactical_movement"]["limits"]:
        if er <= top:
            return mz
    return 4


def abort_drm(diff: int) -> int:
    t = tables()["abort_drm"]
    if diff >= 2:
        return t["diff_2_or_more"]
    if diff <= -2:
        return t["diff_minus_2_or_less"]
    return {1: t["diff_1"], 0: t["diff_0"], -1: t["diff_minus_1"]}[diff]


def start_mz(vis: int) -> int:
    return tables()["tactical"]["start_mz"][min(vis, 9)]


# random events [11] -------------------------------------------------------------
def sub_class(roll: int) -> tuple[str, ...]:
    t = tables()["submarine"]
    if roll <= t["class_capital_max"]:
        return ("BB", "BC", "CV")
    if roll <= t["class_cruiser_max"]:
        return ("CL", "CA")
    return ("DD",)


def sighting_value(column: str, vis: int) -> int:
    if vis >= 7:
        return 0
    return tables()["random_sighting"][column][max(vis, 1) - 1]


def hunt_drm(*, tf: bool, central: bool, night: bool) -> int:
    t = tables()["convoy_hunt"]
    return (t["tf"] if tf else 0) + (t["central"] if central else 0) + (t["night"] if night else 0)


def convoy_for(roll: int, line: str) -> dict | None:
    for c in tables()["convoys"]:
        if c["roll"] == roll and c["line"] == line:
            return c
    return None


def bag(name: str) -> tuple:
    """The full contents of a bag as a sorted tuple (values are ints for EE/VP, names for damage)."""
    raw = tables()["bags"][name]
    out = []
    for k, n in raw.items():
        if k in ("provenance", "ref", "note"):
            continue
        out += [int(k) if name != "damage" else k] * int(n)
    return tuple(sorted(out))
