"""Flak: fire modes, flak zones and Barrage markers, barrage attacks, direct fire and their resolution [14.2].

Each flak rating of a surface unit is a flak unit of its own [14.1.3], named by the unit's ID (``T1``), or by the
ID, ``/`` and the rating's place when it has several (``T1/2``).  A suppressed unit fires no more [14.1.2].

- **Modes** [14.2.1]: a unit fires one way a turn.  Small arms only barrage: their zone is their own square
  [14.2.2].  Light and heavy flak either keep a Barrage marker on the map or fire directly in the Combat Phase;
  a unit with a marker out does not fire directly.
- **Barrage markers** [14.2.2] are placed and removed in the Administrative Phase (order ``BARRAGE <unit>
  <square>|OFF``; a scenario may set them at the start).  A marker sits on a point where four squares meet; we
  name the point by the square above and to the right of it, so ``BARRAGE T1 M5`` covers L4, M4, L5 and M5.
  Heavy flak: any point on the edges of its own and the adjacent columns; light flak: the two upper corners of
  its own square (the illustration is lost: reading in NOTES.md); low-angle naval guns only the points at
  altitude 0/1 (14.2.8).  Line of sight is not needed.
- **Barrage attack** [14.2.3]: when a squadron's move ends, if it entered a zone, turned in one or circled in
  one, one attack is made: the lead unit is the non-mover's best choice (highest modifier), each further unit whose
  zone it met adds +1.  Only leaving a zone does nothing.  Friend and foe alike.
- **Direct fire** [14.2.4]: at the start of the Combat Phase, before air combat.  Heavy flak reaches two columns
  either side at any altitude, light flak one column at altitudes 0-4, low-angle guns altitudes 0-1 and no
  squadron marked Dive; line of sight needed.  A unit attacks at most its number of targets, a squadron is
  attacked once a phase.  Squadrons in the target's square that pursue it or that it pursues take a roll of
  their own (not counted against the number; they count as attacked).  The flak's owner chooses by the
  standing order ``FLAK <unit> AUTO|HOLD|AT <sq>...`` (AUTO, the default: bombers carrying or having released
  bombs first, then the lowest).
- **Resolving** [14.2.5]: 2d6 + modifiers on the Flak Attack Table (placeholder): no hits, hits, or a die of
  hits; each hit confirmed (10.6) with firepower 0 (barrage) or 1 (direct), +1 for heavy flak with dual-fuze
  shells (14.2.7); then a cohesion check (10.7).  The Bomb column is kept per squadron (the worse of barrage
  and direct fire) for the bombing of a squadron that released its bombs this turn (rule 15, wl15).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbem.core.work import Work

from . import combat
from .fog import dice_seen_by, tell
from .model import DIVE, Squadron, State, max_losses
from .sky import COLUMNS, Square, name, on_map, parse
from .surface import HEAVY, LIGHT, SMALL, Balloon, Barrage, Flak, Surface
from .tables import scenario, tables

BARRAGE, DIRECT = "barrage", "direct"
#: Improvements a scenario may give all heavy flak (its ``improved_flak`` list) [14.2.7].
IMPROVEMENTS = ("fire_direction", "proximity_fuse", "dual_fuze")


@dataclass(frozen=True)
class Gun:
    """One flak unit: its name, the surface unit it belongs to, and its rating."""

    label: str
    surface: Surface
    flak: Flak

    @property
    def side(self) -> str:
        return self.surface.side

    @property
    def column(self) -> int:
        return self.surface.column


def label(unit: Surface, index: int) -> str:
    return unit.id if len(unit.flak) == 1 else f"{unit.id}/{index + 1}"


def guns(state: State) -> list[Gun]:
    """Every flak unit that may still fire [14.1.2, 14.1.3]."""
    return [Gun(label(u, i), u, f) for u in state.surfaces if not u.suppressed for i, f in enumerate(u.flak)]


def gun(state: State, name_: str) -> Gun | None:
    return next((g for g in guns(state) if g.label == name_.upper()), None)


def all_labels(state: State) -> list[str]:
    return [label(u, i) for u in state.surfaces for i in range(len(u.flak))]


def zone(point: Square) -> set[Square]:
    """The four squares around a Barrage marker's point (those on the map) [14.2.2]."""
    c, a = point
    return {sq for sq in ((c - 1, a - 1), (c, a - 1), (c - 1, a), (c, a)) if on_map(sq)}


def barrage_points(g: Gun) -> list[Square]:
    """Where ``g`` may put its Barrage marker [14.2.2, 14.2.8] (our reading of the lost illustration): heavy
    flak on any point of the edges of its own and the adjacent columns (low-angle guns only at altitude 0/1),
    light flak on the two upper corners of its own square; small arms none (their zone is their square)."""
    u = g.column
    if g.flak.kind == LIGHT:
        columns, altitudes = [u, u + 1], [1]
    elif g.flak.kind == HEAVY:
        columns = [u - 1, u, u + 1, u + 2]
        altitudes = [1] if g.flak.low_angle else list(range(1, tables()["map"]["altitudes"]))
    else:
        return []
    return [(c, a) for c in columns for a in altitudes if 0 <= c <= len(COLUMNS)]


def barrage_problem(state: State, g: Gun, point: Square) -> tuple[str, str] | None:
    """Why ``g`` may not put its marker at ``point``: (text, rule), or None."""
    if g.flak.kind == SMALL:
        return f"{g.label} is small arms: its flak zone is its own square, it places no Barrage marker", "14.2.2"
    if point not in barrage_points(g):
        where = "the two upper corners of its own square" if g.flak.kind == LIGHT else \
            "the altitude-0 points of its own and the adjacent columns" if g.flak.low_angle else \
            "a point on the edges of its own or an adjacent column"
        return (f"{g.label} ({g.flak.text()}) in column {COLUMNS[g.column]} may put its marker only on {where} "
                f"(e.g. {name(barrage_points(g)[0])})", "14.2.8" if g.flak.low_angle else "14.2.2")
    if zone(point) & balloon_zones(state):
        return "a barrage zone may not overlap a barrage balloon's zone", "14.2.2"
    return None


def balloon_zones(state: State) -> set[Square]:
    """Squares of barrage balloons' zones [14.3]."""
    return {sq for b in state.balloons for sq in b.zone()}


def balloon_gun(b: Balloon) -> Gun:
    """A balloon as a barrage flak unit of strength 0 [14.3] (reading: the small-arms altitude modifiers,
    placeholders, as its zone is low; it never fires directly)."""
    return Gun(b.id, Surface(b.id, "balloon", b.at[0], b.side), Flak(SMALL, 0))


def barrage_units(state: State) -> list[Gun]:
    """Every unit that may make or support a barrage attack: flak units and balloons still up [14.2.3, 14.3]."""
    return guns(state) + [balloon_gun(b) for b in state.balloons if b.up]


def zones(state: State) -> dict[str, set[Square]]:
    """Each flak unit's barrage zone now: small arms their own square, the others their marker's four squares
    [14.2.2]; a suppressed unit has none."""
    live = {g.label: g for g in guns(state)}
    out: dict[str, set[Square]] = {g.label: {g.surface.at} for g in live.values() if g.flak.kind == SMALL}
    for b in state.barrages:
        if b.unit in live:
            out[b.unit] = zone(b.point)
    out.update({b.id: b.zone() for b in state.balloons if b.up})   # a balloon's zone: its square and below [14.3]
    return out


def barraging(state: State) -> set[str]:
    """Flak units with a Barrage marker out: they do not fire directly this turn [14.2.1, 14.2.2]."""
    return {b.unit for b in state.barrages}


def met_zones(state: State, start: Square, path: Sequence[Square], turned_in: Iterable[Square],
              circled: bool) -> list[str]:
    """The flak units whose zone a move entered, turned in or circled in [14.2.3] (leaving one does not count)."""
    out = []
    for unit, squares in zones(state).items():
        entered = any(sq in squares for sq in path)
        turned = any(sq in squares for sq in turned_in)
        if entered or turned or (circled and start in squares):
            out.append(unit)
    return out


def modifier(g: Gun, target: Squadron, mode: str, extra_units: int, improved: Iterable[str] = ()) -> int:
    """The Flak Attack Table modifiers (placeholders but the +1 per additional unit, 14.2.3/14.2.4): the lead
    unit's strength, the target's altitude for its type, +1 for each further unit, and for heavy direct fire
    the scenario's improvements [14.2.7]."""
    t = tables()["flak"]
    kind = {SMALL: "small", LIGHT: "light", HEAVY: "heavy"}[g.flak.kind]
    alt = next((m for lo, hi, m in t[f"{kind}_altitude"] if lo <= target.at[1] <= hi), 0)
    mod = g.flak.strength * t["per_strength"] + alt + extra_units * t["per_additional_unit"]
    if mode == DIRECT and g.flak.kind == HEAVY:
        mod += t["improved_fire_direction"] * ("fire_direction" in improved) + t["proximity_fuse"] * ("proximity_fuse" in improved)
    return int(mod)


def result(total: int) -> tuple[str | int, int]:
    """The Flak Attack Table row of a modified roll: Flak column ("-", hits, or "die") and Bomb column."""
    row = [r for r in tables()["flak"]["rows"] if total >= r[0]][-1]
    return row[1], int(row[2])


def confirm_firepower(g: Gun, mode: str, improved: Iterable[str] = ()) -> int:
    """Firepower for confirming flak hits [14.2.5]: barrage 0, direct 1; dual-fuze heavy flak +1 [14.2.7]."""
    t = tables()["flak"]
    fp = t["barrage_firepower" if mode == BARRAGE else "direct_firepower"]
    return int(fp + (t["dual_fuze_firepower"] if g.flak.kind == HEAVY and "dual_fuze" in improved else 0))


def in_range(state: State, g: Gun, target: Squadron) -> str | None:
    """Why ``g`` cannot fire directly at ``target`` [14.2.4, 14.2.8], or None."""
    cols = abs(target.at[0] - g.column)
    if g.flak.kind == SMALL:
        return "small arms fire only barrage (14.2)"
    if g.flak.kind == LIGHT and (cols > 1 or target.at[1] > 4):
        return "light flak reaches its own and the adjacent columns at altitudes 0 to 4 (14.2.4)"
    if g.flak.kind == HEAVY and cols > 2:
        return "heavy flak reaches two columns either side of its own (14.2.4)"
    if g.flak.low_angle and (target.at[1] > 1 or target.marker == DIVE):
        return "low-angle naval guns fire only at altitudes 0 and 1, and not at a squadron marked Dive (14.2.8)"
    if state.sky.sight(g.surface.at, target.at).blocked:
        return "no line of sight (4.6.1, 14.2.4)"
    return None


def improved(state: State) -> tuple[str, ...]:
    return tuple(scenario(state.scenario).get("improved_flak", ()))


def pursuit_bonus(state: State, target: Squadron) -> list[Squadron]:
    """Squadrons in ``target``'s square pursuing it or pursued by it: each takes a roll of its own [14.2.4]."""
    return [s for s in state.squadrons if s.on_map and s.id != target.id and s.at == target.at
            and (s.tally == target.id or target.tally == s.id)]


def auto_targets(state: State, g: Gun, attacked: set[str]) -> list[Squadron]:
    """The automatic choice of a unit's targets [14.2.4]: enemies in range and sight not yet attacked, bombers
    with their load first, then the lowest, then by ID; as many as its number of targets."""
    able = [s for s in state.squadrons if s.on_map and s.side != g.side and s.id not in attacked
            and in_range(state, g, s) is None]
    able.sort(key=lambda s: (not (s.mission == "bombing" and s.bombs), s.at[1], s.id))
    return able[:g.flak.targets]


def form_lines(state: State, side: str) -> list[str]:
    """The order form's flak lines: every side sees the barrage zones (the markers are on the map) [14.2.2];
    the flak's own side sees each unit's choices and the enemies in its direct-fire reach now [14.2.4]."""
    lines = []
    marked = {b.unit: b.point for b in state.barrages}
    balloons = {b.id for b in state.balloons}
    for unit, squares in zones(state).items():
        what = f"barrage balloon {unit} (14.3)" if unit in balloons else f"flak {unit}"
        lines.append(f"# barrage zone of {what}: {' '.join(name(q) for q in sorted(squares))} (entering, turning "
                     "or circling there draws a barrage attack, 14.2.3)")
    for g in guns(state):
        if g.side != side:
            continue
        if not g.flak.direct:
            lines.append(f"# flak {g.label} ({g.flak.text()}) in {name(g.surface.at)}: small arms, barrage only (14.2)")
            continue
        reach = [s.id for s in state.squadrons if s.on_map and s.side != side and in_range(state, g, s) is None]
        now = f"its Barrage marker at {name(marked[g.label])}: no direct fire (14.2.1)" if g.label in marked else \
            f"direct fire at up to {g.flak.targets} (in reach now: {' '.join(reach) or 'none'})"
        lines.append(f"# flak {g.label} ({g.flak.text()}) in {name(g.surface.at)}: {now}; FLAK {g.label} "
                     f"AUTO|HOLD|AT <enemy>... (14.2.4); BARRAGE {g.label} <square>|OFF in the Administrative Phase, "
                     f"e.g. {name(barrage_points(g)[0])} (14.2.2)")
    return lines


def bot_lines(state: State, side: str, roll: Callable[[int, str], int]) -> list[str]:
    """A bot's flak orders (so bot games exercise them): now and then a unit's Barrage marker is put on a legal
    point or taken off, or its direct fire aimed at an enemy in reach (FLAK AT), back to AUTO, or left to ASK."""
    lines = []
    marked = barraging(state)
    for g in guns(state):
        if g.side != side or not g.flak.direct:
            continue
        pick = roll(6, f"bot flak {g.label}")
        if pick == 1:
            points = [p for p in barrage_points(g) if barrage_problem(state, g, p) is None]
            if points:
                lines.append(f"BARRAGE {g.label} {name(points[roll(len(points), 'bot barrage point') - 1])}")
        elif pick == 2 and g.label in marked:
            lines.append(f"BARRAGE {g.label} OFF")
        elif pick == 3:
            reach = [s.id for s in state.squadrons if s.on_map and s.side != side and in_range(state, g, s) is None]
            lines.append(f"FLAK {g.label} AT {reach[0]}" if reach else f"FLAK {g.label} AUTO")
        elif pick == 4:
            lines.append(f"FLAK {g.label} ASK")
    return lines


# --- with dice ---------------------------------------------------------------------------------------------------

def attack(w: Work[Any], g: Gun, sid: str, mode: str, extra_units: int) -> None:
    """One flak attack on squadron ``sid``: the roll, the hits, their confirmation and the cohesion check
    [14.2.5]; the Bomb column is kept for the bombing rules."""
    air = w.data
    target = air.squadron(sid)
    better = improved(air.state)
    mod = modifier(g, target, mode, extra_units, better)
    seen = dice_seen_by(w, [sid])
    roll = w.roll(6, f"flak {g.label} at {sid}", seen_by=seen) + w.roll(6, f"flak {g.label} at {sid}", seen_by=seen)
    flak_col, bomb = result(roll + mod)
    air.flak_bomb[sid] = min(air.flak_bomb.get(sid, 0), bomb)   # the larger penalty counts, never both [14.2.5]
    hits = w.roll(6, f"flak {g.label} hits on {sid}", seen_by=seen) if flak_col == "die" else \
        0 if flak_col == "-" else int(flak_col)
    what = "barrage attack" if mode == BARRAGE else "direct fire"
    who = f"barrage balloon {g.label}" if g.surface.type == "balloon" else f"flak {g.label} ({g.flak.text()})"
    tell(w, f"{who} {what} at {sid} in {name(target.at)}: rolled {roll}{mod:+d} = "
         f"{roll + mod}: " + ("no hits" if flak_col == "-" else f"{hits} hit{'s' if hits != 1 else ''}")
         + (f", bomb column {bomb:+d}" if target.mission == "bombing" else "")
         + f" ({'14.2.3' if mode == BARRAGE else '14.2.4'}, 14.2.5)", [sid], kind="flak",
         unit=g.label, mode=mode, roll=roll, modifier=mod, hits=hits, bomb=bomb)
    if flak_col == "-":
        return
    fp = confirm_firepower(g, mode, better)
    before = air.squadron(sid).losses
    for _ in range(hits):
        sq = air.squadron(sid)
        if not sq.on_map:
            break
        natural = w.roll(6, f"flak {g.label} confirms a hit on {sid}", seen_by=seen)
        outcome = combat.confirm(natural, fp, sq, False)
        hit = combat.take(sq, outcome)
        if hit.losses >= max_losses(air.state.scenario, hit):
            hit = hit.move(status="destroyed")
        air.put(hit)
        tell(w, f"flak hit on {sid}: rolled {natural} + firepower {fp}: {outcome}"
             + (f"; {sid} is destroyed (10.6)" if hit.status == "destroyed" else ""), [sid], kind="flak", result=outcome)
    _cohesion(w, sid, air.squadron(sid).losses - before)


def _cohesion(w: Work[Any], sid: str, losses_now: int) -> None:
    """The cohesion check after flak hits were confirmed [14.2.5, 10.7]."""
    air = w.data
    sq = air.squadron(sid)
    if not sq.on_map or sq.broken:
        return
    seen = dice_seen_by(w, [sid])
    roll = w.roll(6, f"{sid} cohesion", seen_by=seen) + w.roll(6, f"{sid} cohesion", seen_by=seen)
    mod = combat.cohesion_modifier(sq, losses_now, air.state.sky.weather_at(sq.at))
    levels = combat.disruption(sq, roll + mod)
    sq = combat.broken_effects(combat.disrupt(sq, levels))
    air.put(sq)
    state = "broken" if sq.broken else f"{levels} disruption level{'s' if levels != 1 else ''}"
    tell(w, f"{sid} cohesion after flak: rolled {roll}{mod:+d} = {roll + mod}: {state} (14.2.5, 10.7)", [sid],
         kind="cohesion")


def barrage_after_move(w: Work[Any], sid: str, start: Square, path: Sequence[Square], turned_in: Sequence[Square],
                       circled: bool) -> None:
    """The barrage attack when a squadron's move ends [14.2.3]: one attack, led by the best unit whose zone
    it entered, turned or circled in, +1 for each other such unit."""
    air = w.data
    state = air.now()
    met = [u for u in met_zones(state, start, path, turned_in, circled)
           if u != air.squadron(sid).balloon]   # not the balloon it pursues [14.3]
    if not met or not air.squadron(sid).on_map:
        return
    live = {g.label: g for g in barrage_units(state)}
    lead = best_lead([live[u] for u in met], air.squadron(sid), improved(state))
    attack(w, lead, sid, BARRAGE, len(met) - 1)


def best_lead(units: Sequence[Gun], target: Squadron, better: Iterable[str] = ()) -> Gun:
    """The lead unit of a barrage attack: the non-mover's best choice, the one whose own modifiers (strength and
    the target's altitude for its type) are highest, then the stronger confirmation, then by name [14.2.3]."""
    return max(units, key=lambda g: (modifier(g, target, BARRAGE, 0), confirm_firepower(g, BARRAGE, better),
                                     g.flak.strength, g.label))


def direct_fire(w: Work[Any], plans: dict[str, list[str] | None]) -> None:
    """Direct fire at the start of the Combat Phase [14.2.4]: each unit not barraging, by the standing order of
    its owner (``plans``: unit -> the squadrons it attacks, None = hold fire; a unit not named fires AUTO)."""
    air = w.data
    attacked: set[str] = set()
    for g in guns(air.now()):
        if not g.flak.direct or g.label in barraging(air.now()):
            continue
        state = air.now()
        wanted = plans.get(g.label, [])
        if wanted is None:
            continue
        chosen = [state.squadron(s) for s in wanted if state.find(s) is not None and state.squadron(s).on_map
                  and s not in attacked and in_range(state, g, state.squadron(s)) is None][:g.flak.targets]
        if not wanted:
            chosen = auto_targets(state, g, attacked)
        for target in chosen:
            bonus = [s.id for s in pursuit_bonus(air.now(), target) if s.id not in attacked]
            attacked.update([target.id, *bonus])
            attack(w, g, target.id, DIRECT, 0)
            for other in bonus:
                if air.squadron(other).on_map:
                    attack(w, g, other, DIRECT, 0)


def place(w: Work[Any], unit: str, where: str) -> None:
    """A Barrage marker placed, moved or removed in the Administrative Phase [14.2.2] (checked at ingest)."""
    air = w.data
    if gun(air.now(), unit) is None:
        tell(w, f"BARRAGE {unit} {where} was skipped: its flak is suppressed (14.1.2)", [], kind="flak")
        return
    kept = tuple(b for b in air.state.barrages if b.unit != unit)
    if where == "OFF":
        air.state = replace(air.state, barrages=kept)
        tell(w, f"flak {unit} takes its Barrage marker off the map (14.2.2)", [], kind="flak")
        return
    point = parse(where)
    air.state = replace(air.state, barrages=kept + (Barrage(unit, point),))
    covered = " ".join(name(sq) for sq in sorted(zone(point)))
    tell(w, f"flak {unit} puts its Barrage marker at {name(point)}: zone {covered} (14.2.2)", [], kind="flak")
