"""The players' own set-up choices under option ``setup = players`` beyond vectors and escorts [5.2.1, 5.3
step 6, 5.3.1]: pure checks the parsers and the set-up steps share.

* **Markers [5.2.1].** The scenario's Quality section is read as the markers its rows carry: each Veteran,
  Green and Experte marker the scenario puts on a side's squadrons is one that side's player places again,
  anywhere the rule allows -- Veteran and Green on any of his squadrons, at most one of the two on each;
  Experte on fighters (by mission, 3.2.1), at most one on each.  With several players a side each places the
  markers the scenario gave his own wings.  Unsaid: the scenario's placement stands.
* **Wing squadrons [5.3 step 6].** The Wing Leader's squadron stands on the scenario's square (step 2); the
  other squadrons of its wing are set up wherever the player likes so long as the wing stays in formation
  with the leader's squadron (same or adjacent square, the same heading, a chain through friendly squadrons,
  9.1, 9.5.2).  Headings stay the scenario's (step 3).
* **Later arrivals [5.3.1].** An Intercept arriving later places its vector in the Setup Phase of its
  arrival turn, the side that set up first before the other; unsaid, the scenario's vector stands.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .model import ENTERING, ON, Squadron, State, owner
from .sky import on_map
from .wings import leader_id, members, wing_formation, wings

#: The quality and Experte markers a player places [5.2.1], as the order's verb names them.
MARKERS = ("VETERAN", "GREEN", "EXPERTE")


def carries(sq: Squadron, kind: str) -> bool:
    """Whether ``sq`` carries a marker of ``kind`` (VETERAN, GREEN or EXPERTE) [5.2.1]."""
    return sq.experte if kind == "EXPERTE" else sq.quality == kind.lower()


def markers_of(state: State, seat: str, kind: str) -> list[str]:
    """The seat's squadrons carrying ``kind`` now: before its set-up, the scenario's placement."""
    return [s.id for s in state.of_seat(seat) if carries(s, kind)]


def marker_problem(state: State, seat: str, kind: str, ids: Sequence[str]) -> str | None:
    """Why ``<kind> <ids>`` cannot place the seat's markers of that kind, or None [5.2.1]: exactly as many as
    the scenario gives, each on a different squadron of his, an Experte only on a fighter."""
    count = len(markers_of(state, seat, kind))
    label = kind.capitalize()
    if count == 0:
        return f"the scenario gives you no {label} marker to place"
    if len(ids) != count or len(set(ids)) != len(ids):
        return f"you have {count} {label} marker{'s' if count > 1 else ''} to place, at most one a squadron: " \
               f"name {count} different squadron{'s' if count > 1 else ''} ({kind} " \
               + " ".join(markers_of(state, seat, kind)) + " is the scenario's placement)"
    mine = {s.id: s for s in state.of_seat(seat)}
    strangers = [i for i in ids if i not in mine]
    if strangers:
        return f"{', '.join(strangers)}: not among your squadrons ({', '.join(sorted(mine))})"
    if kind == "EXPERTE":
        bombers = [i for i in ids if not mine[i].fighter]
        if bombers:
            return f"{', '.join(bombers)}: an Experte goes only to a fighter squadron"
    return None


def quality_clash(state: State, seat: str, placed: dict[str, Sequence[str]]) -> str | None:
    """A squadron that would carry both a Veteran and a Green marker, the kinds the file does not name
    keeping the scenario's placement [5.2.1: at most one a squadron], or None."""
    veteran = set(placed.get("VETERAN", markers_of(state, seat, "VETERAN")))
    green = set(placed.get("GREEN", markers_of(state, seat, "GREEN")))
    both = sorted(veteran & green)
    if not both:
        return None
    unsaid = [k for k in ("VETERAN", "GREEN") if k not in placed]
    hint = f" (the scenario's {unsaid[0].capitalize()} markers stand unless you place them too)" if unsaid else ""
    return f"{', '.join(both)} would carry both a Veteran and a Green marker; a squadron takes at most one{hint}"


def with_markers(sq: Squadron, kind: str, chosen: Sequence[str]) -> Squadron:
    """``sq`` with its marker of ``kind`` as the player placed them: on when named, off otherwise."""
    if kind == "EXPERTE":
        return sq.move(experte=sq.id in chosen)
    if sq.id in chosen:
        return sq.move(quality=kind.lower())
    return sq.move(quality="trained") if sq.quality == kind.lower() else sq


def wing_of_member(state: State, sq: Squadron) -> dict | None:
    """The wing whose squadron ``sq`` is, other than its Wing Leader's, or None [5.3 step 6]."""
    for wing in wings(state):
        if sq.id in members(state, wing) and leader_id(state, wing) != sq.id:
            return wing
    return None


def wing_in(state: State, sq: Squadron) -> dict | None:
    """The wing ``sq`` flies in, its Wing Leader's squadron included, or None [5.2.1]."""
    return next((w for w in wings(state) if sq.id in members(state, w)), None)


def led_by(state: State, chosen: dict[str, str]) -> State:
    """The position with the Wing Leader markers where a set-up file places them (wing: squadron) [5.2.1]."""
    return replace(state, leaders=tuple(sorted((dict(state.leaders) | chosen).items()))) if chosen else state


def formation_problems(state: State, places: Sequence[tuple[str, tuple[int, int]]]) -> dict[str, str]:
    """After a file's placements (squadron, square; a later one for the same squadron wins), each wing
    squadron that was in formation with its Wing Leader's squadron and is not any more, with why, keyed by
    the squadron whose placement is to blame (the one placed, else the wing's last placed) [5.3 step 6]."""
    moved = dict(places)
    after = replace(state, squadrons=tuple(s.move(at=moved[s.id]) if s.id in moved else s for s in state.squadrons))
    found: dict[str, str] = {}
    for wing in wings(state):
        before, now = wing_formation(state, wing), wing_formation(after, wing)
        placed = [m for m in members(state, wing) if m in moved]
        lead = leader_id(state, wing)
        for m in sorted(before - now):
            blame = m if m in moved else (placed[-1] if placed else lead or m)
            found.setdefault(blame, f"{m} would not be in formation with {lead}, the Wing Leader's squadron of "
                                    f"{wing['name']}: the same or an adjacent square and the same heading, "
                                    "a chain through friendly squadrons (9.1, 9.5.2)")
    return found


def formation_squares(state: State, sq: Squadron) -> list[tuple[int, int]]:
    """The squares a wing squadron may be set up on: its wing stays in formation with the Wing Leader's
    squadron [5.3 step 6, 9.1] (on the map, next to or with a friendly squadron)."""
    near = {(c + dc, a + da) for f in state.of_side(sq.side) if f.on_map and f.id != sq.id
            for c, a in [f.at] for dc in (-1, 0, 1) for da in (-1, 0, 1)}
    return [q for q in sorted(near) if on_map(q) and not formation_problems(state, [(sq.id, q)])]


def arriving_intercepts(state: State, turn: int, side: str) -> list[Squadron]:
    """The side's Intercepts set up this turn, whose vectors their owners place now [5.3.1]; a wing's
    squadrons other than its leader's place none (they keep formation on it, 9.5.3)."""
    return [s for s in state.of_side(side) if s.arrives == turn and s.mission == "intercept"
            and s.status in (ENTERING, ON) and wing_of_member(state, s) is None]


def arrival_seats(state: State, turn: int, side: str) -> tuple[str, ...]:
    """The seats owning an Intercept the side sets up this turn [5.3.1]."""
    return tuple(sorted({owner(s) for s in arriving_intercepts(state, turn, side)}))
