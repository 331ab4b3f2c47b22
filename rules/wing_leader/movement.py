"""Movement [8]: allowances, costs, headings, climbing, diving and slow climb, checked one step at a time.

A planned move is a list of tokens: a square name enters that adjacent square (the heading turns to face
it, free unless it is an about-turn [8.1.1]); a heading name (``W``, ``NE``...) stays in the square and
turns there (1 MP, [8.3]); ``SLOW`` begins a slow climb [8.5.1].  :func:`walk` carries a plan out or says,
with the rule, why it cannot be.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.core.errors import IllegalOrderError
from pbem.core.squaregrid import turn_between

from . import rocket_fighter, sky
from .model import CLIMB, DIVE, NONE, SLOW_CLIMB, Squadron
from .tables import band_value, tables

EDGE_COLUMNS = {"W": -1, "E": 26}


def allowance(sq: Squadron, dive: bool = False) -> int:
    """Movement points [8.2]: bombers, escorts and Unalert fighters 2, Alert fighters 3, jet bombers and
    escorts 3, jet fighters 4; +1 for a dive declared before moving."""
    mp = tables()["movement_points"]
    if sq.power:   # an Me 163: its power setting's [13.8.2]
        return int(tables()["rocket_fighter"]["mp"][sq.power]) + (mp["dive_bonus"] if dive else 0)
    if sq.mission == "bombing":
        base = mp["jet_bomber"] if sq.jet else mp["bomber"]
    elif sq.mission == "escort":
        base = mp["jet_escort"] if sq.jet else mp["escort"]
    elif sq.jet:
        base = mp["jet_fighter"]
    else:
        base = mp["alert"] if sq.alert else mp["unalert"]
    return base + (mp["dive_bonus"] if dive else 0)


@dataclass
class Walk:
    """A move being carried out: where the squadron is, what it has spent, and what it did."""

    at: sky.Square
    heading: int
    mp: float
    spent: float = 0.0
    climbs: int = 0
    dived: bool = False
    slow: bool = False
    entered_from: sky.Square | None = None
    exited: str = ""
    path: list[sky.Square] = field(default_factory=list)
    used: int = 0   # how many tokens were carried out
    turned_in: list[sky.Square] = field(default_factory=list)   # squares it turned in (barrage attacks, 14.2.3)
    balbo: bool = False
    balbo_about: int = 1   # how many turns' costs an about-turn pays in a Balbo (AMB-23, option balbo_about_turn)

    def pay(self, cost: float, what: str, rule: str = "8.3") -> None:
        if self.spent + cost > self.mp + 1e-9:
            raise IllegalOrderError(f"{what} needs {cost:g} MP but only {self.mp - self.spent:g} of {self.mp} are left",
                                    rule=rule)
        self.spent += cost


def walk(sq: Squadron, tokens: Sequence[str], mp: int, *, stop_at: sky.Square | None = None,
         head_on_from: Sequence[sky.Square] = (), balbo: bool = False, balbo_about: int = 1) -> Walk:
    """Carry out ``tokens`` for ``sq`` with ``mp`` movement points.  Entering ``stop_at`` (its tallied
    target's square) ends the move there and the rest of the plan is dropped [7.2.3], unless it entered
    from one of ``head_on_from`` (the target's three front squares): then it may fly on, its next step
    leaving the square (the head-on exception).

    In a Balbo every turn of more than 45 degrees costs 1 MP (an about-turn too, once: AMB-23; ``balbo_about``
    2: twice, as two such turns) [9.5.6].

    :raises IllegalOrderError: a step the rules forbid, with the rule and what is left.
    """
    w = Walk(sq.at, sq.heading, mp, balbo=balbo, balbo_about=balbo_about)
    for i, token in enumerate(tokens):
        if w.exited:
            break
        if stop_at is not None and w.path and w.at == stop_at:
            if w.entered_from not in head_on_from:
                break
            if token in sky.HEADINGS or token == "SLOW":
                raise IllegalOrderError("passing head-on through its target's square, the squadron must use its "
                                        "next MP to leave it", rule="7.2.3")
        w.used = i + 1
        if token == "SLOW":
            _slow_start(w, sq, i)
        elif token in sky.HEADINGS:
            w.pay(tables()["movement_costs"]["stay_and_turn"], f"staying and turning to {token}")
            w.heading = sky.HEADINGS.index(token)
            w.turned_in.append(w.at)
        else:
            _enter(w, sq, token)
    return w


def _slow_start(w: Walk, sq: Squadron, index: int) -> None:
    """Turn 1 of a slow climb: all MP are spent, the squadron may still move one level square [8.5.1]."""
    if band_value(sq.model, sq.at[1], "climb") != "S":
        raise IllegalOrderError("only an aircraft whose Climb is S makes a slow climb", rule="8.5.1")
    if index != 0:
        raise IllegalOrderError("SLOW must come first: a slow climb takes the whole move", rule="8.5.1")
    w.slow, w.spent = True, float(w.mp)


def _enter(w: Walk, sq: Squadron, token: str) -> None:
    try:
        to = sky.parse(token)
    except ValueError:
        to = _off_map(w, token)
    heading = sky.heading_to(w.at, to)
    if heading is None or sky.distance(w.at, to) != 1:
        raise IllegalOrderError(f"{token} is not adjacent to {sky.name(w.at)}; a squadron moves one square "
                                f"at a time into an adjacent square", rule="8.1")
    if w.slow and (w.path or to[1] != w.at[1]):
        raise IllegalOrderError("in the first turn of a slow climb the squadron moves at most one level square",
                                rule="8.5.1")
    if not w.slow:
        turn = abs(turn_between(w.heading, heading))
        if turn == 4 or (w.balbo and turn >= 2):
            times = w.balbo_about if w.balbo and turn == 4 else 1
            w.pay(tables()["movement_costs"]["about_turn"] * times, "a turn" if w.balbo else "an about-turn",
                  "9.5.6" if w.balbo else "8.1.1")
        w.pay(_cost(w, sq, to), f"entering {token}")
    if heading != w.heading:
        w.turned_in.append(w.at)
    w.entered_from, w.at, w.heading = w.at, to, heading
    w.path.append(to)
    if not sky.on_map(to):
        w.exited = "W" if to[0] < 0 else "E"


def _off_map(w: Walk, token: str) -> sky.Square:
    """``<`` or ``>``: the imaginary square beyond the left or right edge, at the same altitude [8.4.1]."""
    if token in ("<", ">"):
        return (EDGE_COLUMNS["W"] if token == "<" else EDGE_COLUMNS["E"], w.at[1])
    raise IllegalOrderError(f"{token!r} is neither a square (A0-Z19), a heading ({', '.join(sky.HEADINGS)}), "
                            f"SLOW, nor < or > to leave the map", rule="8.1")


def _cost(w: Walk, sq: Squadron, to: sky.Square) -> float:
    """The cost of entering an adjacent square [8.3]; climbing and diving never in one move [8.5]."""
    costs = tables()["movement_costs"]
    if not 0 <= to[1] < tables()["map"]["altitudes"]:
        raise IllegalOrderError("a squadron flies neither below altitude 0 nor above 19", rule="8.4")
    if to[1] > w.at[1]:
        return _climb_cost(w, sq)
    if to[1] < w.at[1]:
        if w.climbs:
            raise IllegalOrderError("a squadron cannot both climb and dive in one Movement Phase", rule="8.5")
        w.dived = True
        return costs["vertical_dive"] if to[0] == w.at[0] else costs["level_or_lower"]
    return costs["level_or_lower"]


def _climb_cost(w: Walk, sq: Squadron) -> float:
    if w.dived:
        raise IllegalOrderError("a squadron cannot both climb and dive in one Movement Phase", rule="8.5")
    climb = band_value(sq.model, w.at[1], "climb")
    if climb == "S":
        return _slow_finish(w, sq)
    w.climbs += 1
    usual = float(climb) if w.climbs == 1 else float(tables()["movement_costs"]["further_climb"])
    return _rocket_climb(sq, usual) if sq.power else usual


def _rocket_climb(sq: Squadron, usual: float) -> float:
    """An Me 163's climb: 1 MP a level at full power (its "r" Climb), none at minimum power [13.8.2]."""
    try:
        return rocket_fighter.climb_cost(sq, usual)
    except ValueError as exc:
        raise IllegalOrderError(str(exc), rule="13.8.2") from None


def _slow_finish(w: Walk, sq: Squadron) -> float:
    """Turn 2 of a slow climb: the squadron spends all its MP and enters the square above [8.5.1]."""
    if sq.marker != SLOW_CLIMB or w.path or w.spent:
        raise IllegalOrderError("this aircraft climbs slowly (Climb S): begin with SLOW, then climb one square "
                                "as the whole of the next move", rule="8.5.1")
    w.climbs += 1
    return w.mp - w.spent


def finish(sq: Squadron, w: Walk, *, dive_declared: bool = False) -> Squadron:
    """The squadron after its move: new square and heading, its altitude marker replaced [8.5]; an
    arrival that entered the edge square is on the map [8.4.1]."""
    if dive_declared and not w.dived:
        raise IllegalOrderError("a squadron that declares a dive must dive at least one altitude", rule="8.2")
    marker = SLOW_CLIMB if w.slow else DIVE if w.dived else CLIMB if w.climbs else NONE
    status = "exited" if w.exited else "on" if w.path and sq.status == "entering" else sq.status
    return sq.move(at=w.at, heading=w.heading, marker=marker, status=status, exit_edge=w.exited,
                   entered_from=w.entered_from if w.path else sq.entered_from)


def straight(sq: Squadron, squares: int) -> list[str]:
    """A mission's fixed move: ``squares`` squares along its heading, no turn, no altitude change
    [9.2.1, 9.2.2, 9.2.3]."""
    tokens, at = [], sq.at
    for _ in range(squares):
        at = sky.step(at, sq.heading)
        tokens.append(sky.name(at) if sky.on_map(at) else ("<" if at[0] < 0 else ">"))
        if not sky.on_map(at):
            break
    return tokens


def approach(sq: Squadron, goal: sky.Square, mp: int) -> list[str]:
    """A shortest-path move toward ``goal`` [9.2.5]: every square entered brings it closer, never farther;
    level with the goal it keeps its altitude.  Greedy: the nearest square it can pay for, then the one
    nearest the goal's altitude (so it climbs or dives toward it), then the cheapest, then the smallest turn."""
    tokens: list[str] = []
    at, heading = sq.at, sq.heading
    while at != goal:
        best = None
        for h in range(8):
            to = sky.step(at, h)
            if not sky.on_map(to) or sky.distance(to, goal) >= sky.distance(at, goal):
                continue
            if at[1] == goal[1] and to[1] != goal[1]:
                continue
            try:
                spent = walk(sq, tokens + [sky.name(to)], mp).spent
            except IllegalOrderError:
                continue
            key = (sky.distance(to, goal), abs(to[1] - goal[1]), spent, abs(turn_between(heading, h)))
            best = min(best, (key, to, h)) if best else (key, to, h)
        if best is None:
            break
        _, at, heading = best
        tokens.append(sky.name(at))
    return tokens


def toward_edge(sq: Squadron, edge: str, mp: int, dive: bool = False) -> list[str]:
    """Return to base [9.2.6]: level flight toward its own edge with all its MP, turning first if needed,
    and off the map once it reaches the edge; with a declared dive [8.2] the first square is the one
    diagonally below toward the edge (when it can pay for it), the rest level."""
    heading = sky.HEADINGS.index(edge)
    tokens: list[str] = []
    probe = sq.move(heading=sq.heading)
    at = sq.at
    while True:
        down = dive and not tokens and at[1] > 0
        to = sky.step(at, heading + (1 if edge == "E" else -1) if down else heading)
        token = sky.name(to) if sky.on_map(to) else ("<" if edge == "W" else ">")
        try:
            walk(probe, tokens + [token], mp)
        except IllegalOrderError:
            return toward_edge(sq, edge, mp - 1) if down else tokens
        if down and not sky.on_map(to):   # at the edge already: it leaves level, without the bonus
            return toward_edge(sq, edge, mp - 1)
        tokens.append(token)
        if not sky.on_map(to):
            return tokens
        at = to
