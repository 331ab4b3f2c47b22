"""Air combat geometry and strength: line of fire, nearest target, modifiers [R 5, 5.0-5.4; digest 7.2]."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping, Sequence

from pbem.core.texts import t_

from . import board, tables
from .board import Hex
from .state import Aircraft


@dataclass(frozen=True)
class Plane:
    """What geometry needs of an aircraft on the board (built from state or from a view)."""

    id: str
    side: str
    type: str
    hex: Hex
    alt: str
    facing: str
    damaged: bool = False
    commander: bool = False
    bombs: int = 0


def plane(a: Aircraft) -> Plane:
    """The geometry of an aircraft of the state (only for aircraft on the board)."""
    return Plane(a.id, a.side, a.type, a.hex, a.alt, a.facing, a.damaged, a.commander, a.bombs)  # type: ignore[arg-type]


def seen(enemy_hex, enemy_alt, eyes, visual_range: int) -> bool:
    """Whether pilots at ``eyes`` see an enemy aircraft in a fog game: within visual range, and not
    inside full cloud unless adjacent [digest 5.1-5.2].  One rule for views and for events."""
    d = min((board.distance(h, enemy_hex) for h in eyes), default=99)
    if d > visual_range:
        return False
    return not (in_cloud(enemy_hex, enemy_alt) == "full" and d > 1)


def in_cloud(h: Hex, alt: str) -> str:
    """Cloud cover an aircraft is in: clouds exist only at HIGH [R 5.0.4]."""
    return board.terrain().cloud(h) if alt == "HIGH" else "none"


def fire_length(p: Plane, opts: Mapping[str, Any]) -> int:
    """5 hexes, 1 from inside a cloud [R 5.1, 5.0.5; G-13 option cloud_line]."""
    c = in_cloud(p.hex, p.alt)
    short = c == "full" or (c == "edge" and opts.get("cloud_line") == "any")
    t = tables.tables()["combat"]
    return t["line_of_fire_in_cloud"] if short else t["line_of_fire"]


def by_hex(planes: Sequence[Plane]) -> dict[Hex, list[Plane]]:
    """Planes indexed by hex (sorted by id), for fast line-of-fire look-ups."""
    out: dict[Hex, list[Plane]] = {}
    for p in sorted(planes, key=lambda p: p.id):
        out.setdefault(p.hex, []).append(p)
    return out


def nearest_on_line(shooter: Plane, planes: Sequence[Plane], opts: Mapping[str, Any],
                    index: Mapping[Hex, list[Plane]] | None = None) -> tuple[Plane, int] | None:
    """The first aircraft on the line of fire that blocks it, with its distance [R 5.3.2, G-10].

    Only aircraft at the shooter's altitude block and can be fired at (option blocking=any makes
    every aircraft block).  Returns the blocker even if it cannot be fired at (other altitude or friendly).
    """
    any_blocks = opts.get("blocking") == "any"
    for d, h in enumerate(board.ray(shooter.hex, shooter.facing, fire_length(shooter, opts)), start=1):
        if not board.on_board(h):
            return None
        if index is not None:
            here = [p for p in index.get(h, ()) if p.id != shooter.id]
        else:
            here = sorted((p for p in planes if p.hex == h and p.id != shooter.id), key=lambda p: p.id)
        same = [p for p in here if p.alt == shooter.alt]
        if same:
            return same[0], d
        if any_blocks and here:
            return here[0], d
    return None


def target_of(shooter: Plane, planes: Sequence[Plane], opts: Mapping[str, Any],
              index: Mapping[Hex, list[Plane]] | None = None) -> tuple[Plane, int] | None:
    """The enemy the shooter may fire at now, with distance, or None [R 5.2, 5.3.2]."""
    hit = nearest_on_line(shooter, planes, opts, index)
    if hit is None:
        return None
    t, d = hit
    if t.side == shooter.side or t.alt != shooter.alt:
        return None
    return t, d


#: how a plane is in a cloud, as the notes say it
CLOUD = {"full": t_("full"), "edge": t_("edge")}


def base_attack(p: Plane) -> int:
    return tables.stats(p.type, p.damaged, p.commander, p.bombs).attack


def strength(shooter: Plane, target: Plane, sun: str, opts: Mapping[str, Any]) -> tuple[int, list[str]]:
    """Modified attack strength and the reasons [R 5.0.1-5.0.7, G-12, G-13]."""
    mods = tables.modifiers()
    s = base_attack(shooter)
    notes = []
    tc = in_cloud(target.hex, target.alt)
    if tc != "none":
        m = mods["target_in_cloud_full"] if tc == "full" else mods["target_in_cloud_edge"]
        s -= m
        notes.append(t_("target in cloud (%(kind)s) -%(m)s", kind=CLOUD[tc], m=m))
    sc = in_cloud(shooter.hex, shooter.alt)
    if sc != "none":
        table = mods["from_cloud_table"] if opts.get("from_cloud") == "table" else mods["from_cloud_text"]
        s -= table[sc]
        notes.append(t_("firing from cloud (%(kind)s) -%(m)s", kind=CLOUD[sc], m=table[sc]))
    hidden = tc == "full" or (tc == "edge" and opts.get("cloud_edge", "counts") == "counts")  # R 5.0.3, G-13
    if not hidden and board.into_sun(shooter.hex, shooter.facing, sun):
        s -= mods["sun"]
        notes.append(t_("into the sun -%(m)s", m=mods["sun"]))
    return max(0, s), notes


def hit_chance(rng: tuple[int, int] | None) -> float:
    if rng is None:
        return 0.0
    ways = {s: 6 - abs(s - 7) for s in range(2, 13)}
    return sum(ways[s] for s in range(rng[0], rng[1] + 1) if s not in tables.jam_sums()) / 36


def aa_can_hit(gun: Hex, target: Plane, sun: str, opts: Mapping[str, Any] | None = None
               ) -> tuple[tuple[int, int] | None, str]:
    """AA hit range for a target, or None with the reason [R 6.1, 6.2.5, Table 4, G-11, G-13]."""
    d = board.distance(gun, target.hex)
    if d > 1:
        return None, t_("out of range")
    tc = in_cloud(target.hex, target.alt)
    if tc == "full" or (tc == "edge" and (opts or {}).get("cloud_edge", "counts") == "counts"):
        return None, t_("target in cloud: automatic miss")
    if d == 1:
        f = board.direction(gun, target.hex)
        if f and board.into_sun(target.hex, f, sun):
            return None, t_("target against the sun: automatic miss")
    rng = tables.aa_range(target.alt, d)
    return rng, "" if rng else t_("cannot hit a high target from an adjacent hex")
